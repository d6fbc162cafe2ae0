package io.github.startuptelemetry.fleet;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.startuptelemetry.fleet.SupervisorProperties.DependencyCondition;

/**
 * When each server of a fleet with {@code depends-on} may be spawned: told what happened to each
 * server (spawned, ready, a one-shot job's exit 0), it answers which waiting servers that released
 * and, for one still waiting, which dependency holds it. No threads, no clock: the {@link FleetRun}
 * calls it under its lock and does the spawning.
 */
final class DependencyScheduler {

	/** Each waiting server's dependencies not met yet, in declared order, one entry per server they stand for. */
	private final Map<String, List<Unmet>> waiting = new LinkedHashMap<>();

	private final Map<String, ServerPlan> plans = new LinkedHashMap<>();

	private final Set<String> started = new HashSet<>();

	private final boolean dependants;

	DependencyScheduler(List<ServerPlan> plan) {
		for (ServerPlan server : plan) {
			this.plans.put(server.name(), server);
			if (!server.dependsOn().isEmpty()) {
				List<Unmet> unmet = new ArrayList<>();
				for (Dependency dependency : server.dependsOn()) {
					dependency.servers().forEach((name) -> unmet.add(new Unmet(dependency, name)));
				}
				this.waiting.put(server.name(), unmet);
			}
		}
		this.dependants = !this.waiting.isEmpty();
	}

	/** Whether any server waits, or waited, for another: a flat fleet has nothing to ask. */
	boolean any() {
		return this.dependants;
	}

	/** The servers that wait for nothing, in plan order: spawn them at once. */
	List<ServerPlan> independent() {
		return this.plans.values().stream().filter((server) -> server.dependsOn().isEmpty()).toList();
	}

	/** The servers that wait for others, in plan order. */
	List<ServerPlan> dependants() {
		return this.plans.values().stream().filter((server) -> !server.dependsOn().isEmpty()).toList();
	}

	/** {@code name} was spawned: the servers that may be spawned now, in plan order. */
	List<Release> started(String name) {
		this.started.add(name);
		return met(name, DependencyCondition.STARTED);
	}

	/** {@code name} is ready (a one-shot job: it exited 0): the servers that may be spawned now. */
	List<Release> ready(String name) {
		ServerPlan server = this.plans.get(name);
		return met(name, (server != null && server.oneShot()) ? DependencyCondition.COMPLETED : DependencyCondition.READY);
	}

	private List<Release> met(String name, DependencyCondition condition) {
		if (this.waiting.isEmpty()) {
			return List.of();
		}
		List<Release> released = new ArrayList<>();
		for (Map.Entry<String, List<Unmet>> entry : new ArrayList<>(this.waiting.entrySet())) {
			List<Unmet> unmet = entry.getValue();
			Unmet last = null;
			for (Unmet dependency : List.copyOf(unmet)) {
				if (dependency.server().equals(name) && meets(condition, dependency.on().condition())) {
					unmet.remove(dependency);
					last = dependency;
				}
			}
			if (last != null && unmet.isEmpty()) {
				this.waiting.remove(entry.getKey());
				released.add(new Release(this.plans.get(entry.getKey()), last.on(), name));
			}
		}
		return released;
	}

	/** Ready (or completed) meets ready, completed and started alike: a ready server was spawned. */
	private static boolean meets(DependencyCondition happened, DependencyCondition wanted) {
		return happened == wanted || wanted == DependencyCondition.STARTED;
	}

	/** Whether {@code name} still waits for a dependency. */
	boolean isWaiting(String name) {
		return this.waiting.containsKey(name);
	}

	/**
	 * What a server still waiting was held by: the first of its dependencies, in declared
	 * order, not met; {@code null} when it does not wait.
	 */
	Blocked blockedBy(String name) {
		List<Unmet> unmet = this.waiting.get(name);
		if (unmet == null || unmet.isEmpty()) {
			return null;
		}
		Unmet first = unmet.get(0);
		return new Blocked(first.on(), first.server(), !this.started.contains(first.server()));
	}

	/**
	 * A waiting server released.
	 *
	 * @param server the server, to spawn now
	 * @param by the dependency whose condition was met last
	 * @param byServer the server of it that met it last (a replica of a group)
	 */
	record Release(ServerPlan server, Dependency by, String byServer) {

	}

	/**
	 * What a waiting server was held by.
	 *
	 * @param on the dependency not met
	 * @param server the server of it that had not met it (a replica of a group)
	 * @param unspawned whether that server was never spawned itself
	 */
	record Blocked(Dependency on, String server, boolean unspawned) {

	}

	private record Unmet(Dependency on, String server) {

	}

}
