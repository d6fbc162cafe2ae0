package io.github.startuptelemetry.report.render;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.report.DependencyWait;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;

/**
 * The servers of a report as the console and the HTML show them: each on its row, but the
 * replicas of one declared server, once there are more than {@value #GROUPED_ABOVE} of them, as
 * one group: their spread and the replica that explains it (the slowest, or the first that
 * exited). The JSON report keeps every server.
 */
final class ServerRows {

	/** Up to this many replicas (a node's GPUs) are shown one a row; more are one group. */
	static final int GROUPED_ABOVE = 8;

	/** How many servers a bounded list names before it counts the rest. */
	static final int NAMED = 3;

	private ServerRows() {
	}

	/** The report's servers in spawn order, a group where its first replica was. */
	static List<Row> of(StartupReport report) {
		Map<String, List<ServerReport>> groups = new LinkedHashMap<>();
		for (ServerReport server : report.servers()) {
			if (server.replicaOf() != null) {
				groups.computeIfAbsent(server.replicaOf(), (name) -> new ArrayList<>()).add(server);
			}
		}
		List<Row> rows = new ArrayList<>();
		for (ServerReport server : report.servers()) {
			List<ServerReport> group = (server.replicaOf() != null) ? groups.get(server.replicaOf()) : null;
			if (group == null || group.size() <= GROUPED_ABOVE) {
				rows.add(new Single(server));
			}
			else if (group.get(0) == server) {
				rows.add(new Group(server.replicaOf(), group));
			}
		}
		return rows;
	}

	/**
	 * {@code a, b, c and 7 more}: at most {@value #NAMED} of {@code items} named, the rest counted.
	 * @param items what to list, in order
	 * @param name how each is said
	 */
	static <T> String bounded(List<T> items, Function<T, String> name) {
		List<String> named = items.stream().limit(NAMED).map(name).toList();
		return String.join(", ", named) + ((items.size() > NAMED) ? " and " + (items.size() - NAMED) + " more" : "");
	}

	/**
	 * The waits to describe, in order: each dependant's, but of a group of more than
	 * {@value #GROUPED_ABOVE} replicas waiting for one dependency only the longest, standing for
	 * the others.
	 */
	static List<Waits> waits(List<DependencyWait> all) {
		Map<List<String>, List<DependencyWait>> byGroup = new LinkedHashMap<>();
		for (DependencyWait wait : all) {
			String dependant = (wait.dependant().replicaOf() != null) ? wait.dependant().replicaOf()
					: wait.dependant().name();
			byGroup.computeIfAbsent(List.of(dependant, wait.dependency().name()), (key) -> new ArrayList<>()).add(wait);
		}
		List<Waits> shown = new ArrayList<>();
		for (List<DependencyWait> waits : byGroup.values()) {
			if (waits.size() <= GROUPED_ABOVE) {
				waits.forEach((wait) -> shown.add(new Waits(wait, 1, wait.waitedNs())));
			}
			else {
				DependencyWait longest = waits.stream().max(Comparator.comparingLong(DependencyWait::waitedNs)).get();
				long shortest = waits.stream().mapToLong(DependencyWait::waitedNs).min().getAsLong();
				shown.add(new Waits(longest, waits.size(), shortest));
			}
		}
		return shown;
	}

	/**
	 * The servers never spawned, in order: each, but of a group of more than
	 * {@value #GROUPED_ABOVE} replicas only the first {@value #NAMED}; and how many of each group
	 * are left out.
	 */
	static List<Unspawned> unspawned(StartupReport report) {
		Map<String, Integer> seen = new LinkedHashMap<>();
		Map<String, Integer> sizes = new LinkedHashMap<>();
		report.servers()
			.stream()
			.filter((server) -> !server.spawned() && server.replicaOf() != null)
			.forEach((server) -> sizes.merge(server.replicaOf(), 1, Integer::sum));
		List<Unspawned> shown = new ArrayList<>();
		for (ServerReport server : report.servers()) {
			if (server.spawned()) {
				continue;
			}
			String group = server.replicaOf();
			int size = (group != null) ? sizes.get(group) : 1;
			int index = (group != null) ? seen.merge(group, 1, Integer::sum) : 1;
			if (size <= GROUPED_ABOVE || index <= NAMED) {
				shown.add(new Unspawned(server, (size > GROUPED_ABOVE && index == NAMED) ? size - NAMED : 0));
			}
		}
		return shown;
	}

	/**
	 * A wait to describe.
	 *
	 * @param edge the (longest) wait
	 * @param replicas how many replicas' waits it stands for (1: its own alone)
	 * @param shortestNs the shortest of those
	 */
	record Waits(DependencyWait edge, int replicas, long shortestNs) {

		/** What follows its sentence: for a group, which of its waits it is. */
		String suffix() {
			return (this.replicas == 1) ? "" : " (the longest of " + this.replicas + " replicas of "
					+ this.edge.dependant().replicaOf() + "; the shortest " + Durations.format(this.shortestNs) + ")";
		}

	}

	/**
	 * A server never spawned, to describe.
	 *
	 * @param server the server
	 * @param more how many more replicas of its group, never spawned either, are left out after it
	 */
	record Unspawned(ServerReport server, int more) {

		/** What follows its sentence. */
		String suffix() {
			return (this.more == 0) ? "" : "; and " + this.more + " more replicas of " + this.server.replicaOf()
					+ " not spawned";
		}

	}

	/** A row: one server, or a group of replicas. */
	sealed interface Row permits Single, Group {

	}

	/** A server on its own row. */
	record Single(ServerReport server) implements Row {

	}

	/**
	 * The replicas of one declared server.
	 *
	 * @param name the declared server
	 * @param replicas its replicas, in spawn order
	 */
	record Group(String name, List<ServerReport> replicas) implements Row {

		/**
		 * The replica shown in full: the first that exited before it was ready, if one did (what
		 * crashed the startup), else the slowest of those spawned, spawn to ready (or to the end).
		 */
		ServerReport shown() {
			return this.replicas.stream()
				.filter((server) -> !server.ready() && server.exitCode().isPresent())
				.findFirst()
				.or(() -> this.replicas.stream()
					.filter(ServerReport::spawned)
					.max(Comparator.comparingLong(ServerReport::spawnToEndNs)))
				.orElse(this.replicas.get(0));
		}

		/** Why {@link #shown()} is the one shown, after its name: {@code slowest of 1000}. */
		String why() {
			ServerReport shown = shown();
			String of = " of " + this.replicas.size() + " replicas";
			if (!shown.ready() && shown.exitCode().isPresent()) {
				return "first to exit" + of;
			}
			return shown.spawned() ? "slowest" + of : "first" + of;
		}

		/** Their type, or {@code null}. */
		String type() {
			return this.replicas.get(0).type();
		}

		/** How many ended each way ({@code 998 ready, 2 crashed (exit 3)}), in order of first appearance. */
		String outcomes() {
			Map<String, Integer> counts = new LinkedHashMap<>();
			this.replicas.forEach((server) -> counts.merge(ReportWording.outcome(server), 1, Integer::sum));
			List<String> parts = new ArrayList<>();
			counts.forEach((outcome, count) -> parts.add(count + " " + outcome));
			return String.join(", ", parts);
		}

		boolean allReady() {
			return this.replicas.stream().allMatch(ServerReport::ready);
		}

		/** Spawn to ready of those spawned. */
		Optional<Spread> spawnToReady() {
			return spread(this.replicas.stream().filter(ServerReport::spawned).map(ServerReport::spawnToEndNs).toList());
		}

		/** Of those with a value. */
		Optional<Spread> spread(Function<ServerReport, OptionalLong> value) {
			return spread(this.replicas.stream()
				.map(value)
				.filter(OptionalLong::isPresent)
				.map(OptionalLong::getAsLong)
				.toList());
		}

		/** Earliest spawn, latest end, of those spawned. */
		long firstSpawnNs() {
			return bound(ServerReport::spawnNs, true);
		}

		long lastEndNs() {
			return bound(ServerReport::endNs, false);
		}

		private long bound(ToLongFunction<ServerReport> time, boolean first) {
			return this.replicas.stream()
				.filter(ServerReport::spawned)
				.mapToLong(time)
				.reduce(first ? Math::min : Math::max)
				.orElse(first ? this.replicas.get(0).spawnNs() : this.replicas.get(0).endNs());
		}

		private static Optional<Spread> spread(List<Long> values) {
			if (values.isEmpty()) {
				return Optional.empty();
			}
			long[] sorted = values.stream().mapToLong(Long::longValue).toArray();
			Arrays.sort(sorted);
			return Optional.of(new Spread(sorted[0], sorted[sorted.length / 2], sorted[sorted.length - 1]));
		}

	}

	/**
	 * Durations of a group's replicas.
	 *
	 * @param min the least
	 * @param median the middle one (the upper of two)
	 * @param max the most
	 */
	record Spread(long min, long median, long max) {

		/** {@code 1.1 s–3.4 s}, or one duration when all are alike as shown. */
		String range() {
			String low = Durations.format(this.min);
			String high = Durations.format(this.max);
			return low.equals(high) ? high : low + "–" + high;
		}

	}

}
