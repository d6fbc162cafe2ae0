package io.github.startuptelemetry.launch;

import java.io.IOException;
import java.util.List;

/**
 * Starts the servers of a fleet somewhere: a local process ({@code local}, the default), a Slurm
 * job step ({@code slurm}), or wherever a launcher of your own puts them, chosen by
 * {@link #name()}. Implementations must be thread-safe: several servers are launched at once.
 */
public interface ServerLauncher {

	/** The name the {@code launcher} properties select it by, e.g. {@code local}. */
	String name();

	/**
	 * Start one server and return at once (it may still be queued).
	 * @param request the planned server
	 * @return the started server
	 * @throws IOException if it could not be started; the startup fails with outcome error
	 */
	LaunchedServer launch(LaunchRequest request) throws IOException;

	/**
	 * Why it cannot start servers from this supervisor, or {@code null} when it can: asked once,
	 * when the supervisor starts, for each launcher the fleet chose; the answer fails the
	 * supervisor early, with the property that chose it named. Say how to fix it.
	 */
	default String unavailable() {
		return null;
	}

	/**
	 * Ask these servers, every one launched by this launcher, to stop, and return at once: the
	 * first step of a fleet's stop. By default {@link LaunchedServer#terminate()} on each; a
	 * launcher that stops many at once for less than one at a time (one {@code scancel} for all
	 * its steps, one delete by label) does that instead.
	 * @param servers the servers to stop, each launched by this launcher
	 */
	default void terminate(List<LaunchedServer> servers) {
		servers.forEach(LaunchedServer::terminate);
	}

	/**
	 * Force these servers, every one launched by this launcher, to stop now, after
	 * {@link #terminate(List)} was not enough within the stop timeout. By default
	 * {@link LaunchedServer#kill()} on each.
	 * @param servers the servers still running
	 * @return what was killed, for the log (e.g. {@code pid 4711})
	 */
	default List<String> kill(List<LaunchedServer> servers) {
		return servers.stream().flatMap((server) -> server.kill().stream()).toList();
	}

}
