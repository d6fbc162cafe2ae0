package io.github.startuptelemetry.fleet;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;

import io.github.startuptelemetry.contract.TimelineEndpoint;
import io.github.startuptelemetry.lifecycle.internal.HttpUrl;

/**
 * Expands {@code telemetry.supervisor.servers} into the servers to spawn: one per replica, each
 * with its own name, rank and port, placeholders filled in (see {@link SupervisorProperties}),
 * its {@code depends-on} resolved to the servers each entry stands for.
 */
final class FleetPlan {

	/** What {@code {...}} in a server's command, URLs, setup, working dir and env stands for. */
	private static final List<String> PLACEHOLDERS = List.of("name", "type", "port", "rank", "world-size", "java");

	/** {@code {port:<server>}}: the port picked for another server of the fleet (a replica by its own name). */
	static final String PORT_OF = "port:";

	/** Where a {@code {port:<server>}} placeholder stands in a template, and the server it names. */
	static final Pattern PORT_OF_PLACEHOLDER = Pattern.compile("\\{port:([A-Za-z0-9][A-Za-z0-9._-]*)}");

	/** Stand-ins used to check a URL template before any port is picked. */
	private static final Map<String, String> SAMPLE_VALUES = Map.of("name", "server", "type", "server", "port",
			"8080", "rank", "0", "world-size", "1", "java", "java");

	private FleetPlan() {
	}

	static List<ServerPlan> plan(SupervisorProperties properties, IntSupplier ports) {
		List<SupervisorProperties.Server> servers = properties.fleetServers();
		Map<String, Integer> worldSizes = new LinkedHashMap<>();
		// every server's port first: {port:<name>} may name a server declared after the one that uses it
		Map<String, String> portOf = new HashMap<>();
		Map<String, List<String>> declared = new HashMap<>();
		for (SupervisorProperties.Server server : servers) {
			worldSizes.merge(type(server), server.getReplicas(), Integer::sum);
			declared.put(server.getName(), replicaNames(server));
			for (String name : replicaNames(server)) {
				int port = (server.getPort() != null) ? server.getPort() : ports.getAsInt();
				portOf.put(PORT_OF + name, Integer.toString(port));
			}
		}
		Map<String, Integer> ranks = new LinkedHashMap<>();
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<ServerPlan> plan = new ArrayList<>();
		for (SupervisorProperties.Server server : servers) {
			String type = type(server);
			List<Dependency> dependsOn = new ArrayList<>();
			server.getDependsOn()
				.forEach((name, condition) -> dependsOn
					.add(new Dependency(name, condition, declared.getOrDefault(name, List.of(name)))));
			for (String name : replicaNames(server)) {
				int rank = ranks.merge(type, 1, Integer::sum) - 1;
				int port = Integer.parseInt(portOf.get(PORT_OF + name));
				Map<String, String> own = Map.of("name", name, "type", type, "port", Integer.toString(port), "rank",
						Integer.toString(rank), "world-size", Integer.toString(worldSizes.get(type)), "java", java);
				Map<String, String> env = new LinkedHashMap<>();
				server.getEnv().forEach((key, value) -> env.put(key, expand(value, own, portOf)));
				URI health = URI.create(expand(server.getHealthUrl(), own, portOf));
				URI timeline = (server.getTimelineUrl() != null)
						? URI.create(expand(server.getTimelineUrl(), own, portOf)) : timelineBeside(health);
				plan.add(new ServerPlan(name, type, rank, worldSizes.get(type), port,
						server.getCommand().stream().map((arg) -> expand(arg, own, portOf)).toList(),
						expand(server.getSetup(), own, portOf),
						(server.getWorkingDir() != null) ? Path.of(expand(server.getWorkingDir(), own, portOf)) : null,
						env, health, timeline,
						(server.getLauncher() != null) ? server.getLauncher() : properties.getLauncher(), dependsOn,
						server.isOneShot(), (server.getReplicas() > 1) ? server.getName() : null));
			}
		}
		return plan;
	}

	/** {@code name} for a single server; {@code name-0}, {@code name-1}, ... for replicas. */
	static List<String> replicaNames(SupervisorProperties.Server server) {
		if (server.getReplicas() == 1) {
			return List.of(server.getName());
		}
		List<String> names = new ArrayList<>();
		for (int i = 0; i < server.getReplicas(); i++) {
			names.add(server.getName() + "-" + i);
		}
		return names;
	}

	/** Why a URL template is unusable, or {@code null} when it is fine (or unset). */
	static String urlProblem(String template) {
		if (template == null) {
			return null;
		}
		String sample = PORT_OF_PLACEHOLDER.matcher(template).replaceAll("{port}");
		return HttpUrl.isValid(expand(sample, SAMPLE_VALUES)) ? null
				: "must be an absolute http or https URL with a host";
	}

	/**
	 * The {@code startuptimeline} endpoint beside a health URL: {@code .../actuator/health/readiness}
	 * gives {@code .../actuator/startuptimeline}; a health URL without a {@code /health} segment
	 * gives {@code /actuator/startuptimeline} on the same host and port.
	 */
	static URI timelineBeside(URI health) {
		String path = (health.getPath() != null) ? health.getPath() : "";
		int segment = path.lastIndexOf("/health");
		boolean found = segment >= 0
				&& (path.length() == segment + "/health".length() || path.charAt(segment + "/health".length()) == '/');
		String timelinePath = (found ? path.substring(0, segment) : "/actuator") + "/" + TimelineEndpoint.ID;
		try {
			return new URI(health.getScheme(), health.getRawAuthority(), timelinePath, null, null);
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException(ex);
		}
	}

	/**
	 * {@code template} with every placeholder ({@link #PLACEHOLDERS} in braces) replaced by its
	 * value; any other brace is kept. A scan, not a regular expression: a fleet expands several
	 * templates per server, on the thread that then spawns them.
	 */
	static String expand(String template, Map<String, String> values) {
		return expand(template, values, Map.of());
	}

	/**
	 * {@link #expand(String, Map)} with the fleet's ports for {@code {port:<server>}}, one map
	 * shared by every server's templates (no copy per server).
	 */
	static String expand(String template, Map<String, String> values, Map<String, String> ports) {
		if (template == null) {
			return null;
		}
		int open = template.indexOf('{');
		if (open < 0) {
			return template;
		}
		StringBuilder out = new StringBuilder(template.length() + 16);
		int copied = 0;
		while (open >= 0) {
			String placeholder = placeholderAt(template, open + 1, ports);
			if (placeholder != null) {
				out.append(template, copied, open)
					.append(placeholder.startsWith(PORT_OF) ? ports.get(placeholder) : values.get(placeholder));
				copied = open + placeholder.length() + 2;
				open = template.indexOf('{', copied);
			}
			else {
				open = template.indexOf('{', open + 1);
			}
		}
		return out.append(template, copied, template.length()).toString();
	}

	/**
	 * The placeholder whose name and closing brace start at {@code from}, or {@code null}; a
	 * {@code {port:<server>}} only when {@code ports} has that server's port.
	 */
	private static String placeholderAt(String template, int from, Map<String, String> ports) {
		if (template.startsWith(PORT_OF, from)) {
			int close = template.indexOf('}', from);
			String placeholder = (close > 0) ? template.substring(from, close) : null;
			return (placeholder != null && ports.containsKey(placeholder)) ? placeholder : null;
		}
		for (String name : PLACEHOLDERS) {
			if (template.startsWith(name, from) && template.startsWith("}", from + name.length())) {
				return name;
			}
		}
		return null;
	}

	private static String type(SupervisorProperties.Server server) {
		return (server.getType() != null && !server.getType().isBlank()) ? server.getType() : server.getName();
	}

}
