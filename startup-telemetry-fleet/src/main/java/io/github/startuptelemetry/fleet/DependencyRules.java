package io.github.startuptelemetry.fleet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

import org.jspecify.annotations.Nullable;
import org.springframework.validation.Errors;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.fleet.SupervisorProperties.DependencyCondition;

/**
 * The bind-time rules of a fleet's {@code depends-on} and {@code {port:<server>}}: a name no
 * server has, a server depending on itself, a condition that can never be met, a cycle, a port
 * not known when the command is written (docs/fleets.md lists them with their messages).
 */
final class DependencyRules {

	private final Map<String, Declared> fleet;

	private final Errors errors;

	/** Every server's name, replicas included, to the declared server it belongs to. */
	private final Map<String, Declared> byServerName = new HashMap<>();

	/**
	 * @param fleet every declared server that passed the per-server checks, by name, in the
	 * order they were declared
	 * @param errors where a broken rule goes
	 */
	DependencyRules(Map<String, Declared> fleet, Errors errors) {
		this.fleet = fleet;
		this.errors = errors;
		fleet.values().forEach((declared) -> FleetPlan.replicaNames(declared.server())
			.forEach((name) -> this.byServerName.putIfAbsent(name, declared)));
	}

	void validate() {
		Map<String, List<String>> graph = new LinkedHashMap<>();
		for (Declared declared : this.fleet.values()) {
			List<String> edges = new ArrayList<>();
			declared.server().getDependsOn().forEach((name, condition) -> {
				if (valid(declared, name, condition)) {
					edges.add(name);
				}
			});
			graph.put(declared.server().getName(), edges);
			ports(declared);
		}
		rejectCycles(graph);
	}

	private boolean valid(Declared declared, String name, DependencyCondition condition) {
		String self = declared.server().getName();
		String field = declared.path() + "depends-on[" + name + "]";
		Declared dependency = this.fleet.get(name);
		if (name.equals(self)) {
			return reject(field, "self", "a server cannot depend on itself");
		}
		if (dependency == null) {
			Declared group = this.byServerName.get(name);
			if (group != null) {
				return reject(field, "replica", "'" + name + "' is a replica of '" + group.server().getName()
						+ "': depend on '" + group.server().getName() + "', which waits for all its replicas");
			}
			return reject(field, "unknown",
					"no server of the fleet is named '" + name + "'; its servers: " + String.join(", ", this.fleet.keySet()));
		}
		boolean oneShot = dependency.server().isOneShot();
		if (condition == DependencyCondition.COMPLETED && !oneShot) {
			return reject(field, "condition", "'" + name + "' is not a one-shot job, so it never completes: depend on "
					+ "it being ready or started, or make it one with " + dependency.property("one-shot") + "=true");
		}
		if (condition == DependencyCondition.READY && oneShot) {
			return reject(field, "condition", "'" + name + "' is a one-shot job, which is never ready: depend on it "
					+ "being completed (it exited 0) or started, e.g. depends-on: {" + name + ": completed} (a listed "
					+ "name is to be ready)");
		}
		return true;
	}

	/** Each cycle once, on the edge from its first declared server. */
	private void rejectCycles(Map<String, List<String>> graph) {
		Set<String> done = new LinkedHashSet<>();
		for (String start : graph.keySet()) {
			List<String> path = new ArrayList<>();
			cycleFrom(start, graph, path, new LinkedHashSet<>(), done);
		}
	}

	private void cycleFrom(String server, Map<String, List<String>> graph, List<String> path, Set<String> onPath,
			Set<String> done) {
		if (done.contains(server)) {
			return;
		}
		if (onPath.contains(server)) {
			List<String> cycle = new ArrayList<>(path.subList(path.indexOf(server), path.size()));
			// named from the server of the cycle declared first, on its edge into the cycle
			String first = graph.keySet().stream().filter(cycle::contains).findFirst().orElse(server);
			int at = cycle.indexOf(first);
			List<String> ordered = new ArrayList<>(cycle.subList(at, cycle.size()));
			ordered.addAll(cycle.subList(0, at));
			ordered.add(first);
			reject(this.fleet.get(first).path() + "depends-on[" + ordered.get(1) + "]", "cycle",
					"depends-on makes a cycle, " + String.join(" → ", ordered) + ": none of these servers could ever be "
							+ "spawned");
			return;
		}
		onPath.add(server);
		path.add(server);
		for (String dependency : graph.getOrDefault(server, List.of())) {
			cycleFrom(dependency, graph, path, onPath, done);
		}
		path.remove(path.size() - 1);
		onPath.remove(server);
		done.add(server);
	}

	/** Every {@code {port:<server>}} names one server whose port the supervisor picks. */
	private void ports(Declared declared) {
		SupervisorProperties.Server server = declared.server();
		List<Template> templates = new ArrayList<>();
		for (int i = 0; i < server.getCommand().size(); i++) {
			templates.add(new Template("command[" + i + "]", "", server.getCommand().get(i)));
		}
		templates.add(new Template("setup", "", server.getSetup()));
		templates.add(new Template("working-dir", "", server.getWorkingDir()));
		// env by the map alone (a key such as MODEL_DIR is no property path); the message names the key
		server.getEnv().forEach((key, value) -> templates.add(new Template("env", key + "=", value)));
		templates.add(new Template("health-url", "", server.getHealthUrl()));
		templates.add(new Template("timeline-url", "", server.getTimelineUrl()));
		for (Template template : templates) {
			Matcher placeholder = (template.text() != null) ? FleetPlan.PORT_OF_PLACEHOLDER.matcher(template.text())
					: null;
			while (placeholder != null && placeholder.find()) {
				String problem = portProblem(placeholder.group(1));
				if (problem != null) {
					reject(declared.path() + template.field(), "port", template.label() + placeholder.group() + ": "
							+ problem);
				}
			}
		}
	}

	/** One value that may hold {@code {port:<server>}}: its property, what names it within, its text. */
	private record Template(String field, String label, @Nullable String text) {
	}

	private String portProblem(String name) {
		Declared owner = this.byServerName.get(name);
		if (owner == null) {
			Declared group = this.fleet.get(name);
			return (group != null) ? "'" + name + "' has " + group.server().getReplicas() + " replicas, each with a port "
					+ "of its own: name one, e.g. {port:" + name + "-0}"
					: "no server of the fleet is named '" + name + "'";
		}
		if (owner.server().getPort() != null && owner.server().getPort() == 0) {
			return "'" + name + "' binds a port of its own choosing (" + owner.property("port")
					+ "=0), which is not known when this is written";
		}
		return null;
	}

	private boolean reject(String field, String code, String message) {
		this.errors.rejectValue(field, code, message);
		return false;
	}

	/**
	 * A declared server and where the user declared it.
	 *
	 * @param server the server
	 * @param path its property path under the prefix, with a trailing dot ({@code servers[0].},
	 * {@code fleet[model].})
	 */
	record Declared(SupervisorProperties.Server server, String path) {

		/** A field's property as a user writes it: {@code telemetry.supervisor.fleet.model.port}, {@code ...servers[0].port}. */
		String property(String field) {
			String path = this.path.startsWith("fleet[") ? "fleet." + this.server.getName() + "." : this.path;
			return TelemetryProperties.SUPERVISOR + "." + path + field;
		}

	}

}
