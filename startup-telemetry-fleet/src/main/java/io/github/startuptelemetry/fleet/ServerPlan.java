package io.github.startuptelemetry.fleet;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One server to spawn, with every placeholder filled in.
 *
 * @param name its name (a replica's carries its index)
 * @param type its type
 * @param rank its index among the servers of its type
 * @param worldSize how many servers of its type there are
 * @param port the free port picked for it
 * @param command the program and its arguments
 * @param setup the shell step to run first, or {@code null}
 * @param workingDir its working directory, or {@code null} for the supervisor's
 * @param env extra environment, over everything else
 * @param healthUri answers 2xx once it is ready
 * @param timelineUri its startup timeline endpoint
 * @param launcher the name of the {@code ServerLauncher} that starts it
 * @param dependsOn what it waits for before it is spawned, in declared order; empty for most
 * @param oneShot whether it is a one-shot job: never probed, done when it exits 0
 * @param replicaOf the declared server it is a replica of, or {@code null} for one declared alone
 */
record ServerPlan(String name, String type, int rank, int worldSize, int port, List<String> command, String setup,
		Path workingDir, Map<String, String> env, URI healthUri, URI timelineUri, String launcher,
		List<Dependency> dependsOn, boolean oneShot, @Nullable String replicaOf) {

	ServerPlan {
		command = List.copyOf(command);
		env = Map.copyOf(env);
		dependsOn = List.copyOf(dependsOn);
	}

	/**
	 * This plan probed on {@code host}, where its launcher says it runs, when that is not this
	 * host: the URLs' loopback host is replaced.
	 */
	ServerPlan probedOn(String host) {
		if (host == null || host.equals(this.healthUri.getHost()) || !isLoopback(this.healthUri.getHost())) {
			return this;
		}
		return new ServerPlan(this.name, this.type, this.rank, this.worldSize, this.port, this.command, this.setup,
				this.workingDir, this.env, onHost(this.healthUri, host), onHost(this.timelineUri, host), this.launcher,
				this.dependsOn, this.oneShot, this.replicaOf);
	}

	private static boolean isLoopback(String host) {
		return "127.0.0.1".equals(host) || "localhost".equals(host) || "[::1]".equals(host);
	}

	private static URI onHost(URI uri, String host) {
		try {
			return new URI(uri.getScheme(), uri.getUserInfo(), host, uri.getPort(), uri.getPath(), uri.getQuery(),
					uri.getFragment());
		}
		catch (URISyntaxException ex) {
			return uri;
		}
	}

	/** The path (and query) its health URL probes: what the server warms up before it reports ready. */
	String warmUpPath() {
		String path = (this.healthUri.getRawPath() == null || this.healthUri.getRawPath().isEmpty()) ? "/"
				: this.healthUri.getRawPath();
		return (this.healthUri.getRawQuery() != null) ? path + "?" + this.healthUri.getRawQuery() : path;
	}

}
