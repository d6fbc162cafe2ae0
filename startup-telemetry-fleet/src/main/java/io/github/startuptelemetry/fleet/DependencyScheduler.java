package io.github.startuptelemetry.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.startuptelemetry.fleet.SupervisorProperties.DependencyCondition;

/**
 * When each server of a fleet with {@code depends-on} may be spawned: told what happened to each
 * server (spawned, ready, a one-shot job's exit 0), it answers which waiting servers that released
 * and, for one still waiting, which dependency holds it. No threads, no clock: the {@link FleetRun}
 * calls it under its lock and does the spawning. It keeps one record per declared server and
 * condition waited for, with the replicas that have not met it yet, and counts per waiting
 * server the records not met: a group of a thousand waiting for a group of a thousand costs two
 * thousand entries and a step per event, not a million of each.
 */
final class DependencyScheduler {

	private final Map<String, ServerPlan> plans = new LinkedHashMap<>();

	/** Each server's place in the plan: servers released together are spawned in plan order. */
	private final Map<String, Integer> order = new HashMap<>();

	/** The records a server is a member of (one per condition its declared server is waited for in). */
	private final Map<String, List<Group>> groupsOf = new HashMap<>();

	/** The servers still waiting, in plan order. */
	private final Map<String, Waiting> waiting = new LinkedHashMap<>();

	private final Set<String> started = new HashSet<>();

	private final boolean dependants;

	DependencyScheduler(List<ServerPlan> plan) {
		Map<Key, Group> groups = new HashMap<>();
		for (ServerPlan server : plan) {
			this.order.put(server.name(), this.order.size());
			this.plans.put(server.name(), server);
			if (server.dependsOn().isEmpty()) {
				continue;
			}
			Waiting waiting = new Waiting(server);
			for (Dependency dependency : server.dependsOn()) {
				Group group = groups.computeIfAbsent(new Key(dependency.name(), dependency.condition()), (key) -> {
					Group created = new Group(key, dependency.servers());
					created.members().forEach((member) -> this.groupsOf
						.computeIfAbsent(member, (name) -> new ArrayList<>()).add(created));
					return created;
				});
				waiting.on.add(group);
				if (!group.unmet.isEmpty()) {
					group.dependants.add(waiting);
					waiting.unmet++;
				}
			}
			this.waiting.put(server.name(), waiting);
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
		List<Release> released = new ArrayList<>();
		for (Group group : this.groupsOf.getOrDefault(name, List.of())) {
			if (!meets(condition, group.key.condition()) || !group.unmet.remove(name) || !group.unmet.isEmpty()) {
				continue;
			}
			for (Waiting server : group.dependants) {
				if (--server.unmet == 0) {
					this.waiting.remove(server.plan.name());
					released.add(new Release(server.plan, server.dependencyOn(group.key), name));
				}
			}
			group.dependants.clear();
		}
		if (released.size() > 1) {
			released.sort(Comparator.comparing((release) -> this.order.get(release.server().name())));
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
		Waiting server = this.waiting.get(name);
		if (server == null) {
			return null;
		}
		for (Group group : server.on) {
			if (!group.unmet.isEmpty()) {
				String first = group.unmet.iterator().next();
				return new Blocked(server.dependencyOn(group.key), first, !this.started.contains(first));
			}
		}
		return null;
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

	/** A declared server and a condition some server waits for it to meet. */
	private record Key(String name, DependencyCondition condition) {

	}

	/**
	 * One declared server as waited for with one condition: its servers that have not met it
	 * yet, in order, and the servers waiting for it to be met.
	 */
	private record Group(Key key, List<String> members, Set<String> unmet, List<Waiting> dependants) {

		Group(Key key, List<String> members) {
			this(key, List.copyOf(members), new LinkedHashSet<>(members), new ArrayList<>());
		}

	}

	/** A server waiting: what it waits for, in declared order, and how many of those are not met. */
	private static final class Waiting {

		final ServerPlan plan;

		final List<Group> on = new ArrayList<>();

		int unmet;

		Waiting(ServerPlan plan) {
			this.plan = plan;
		}

		Dependency dependencyOn(Key key) {
			return this.plan.dependsOn()
				.stream()
				.filter((dependency) -> dependency.name().equals(key.name()) && dependency.condition() == key.condition())
				.findFirst()
				.orElseThrow();
		}

	}

}
