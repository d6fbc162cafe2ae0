package io.github.startuptelemetry.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.startuptelemetry.report.JvmCacheComparison.Kind;
import io.github.startuptelemetry.report.JvmCacheComparison.Metric;
import io.github.startuptelemetry.report.JvmCacheComparison.Pair;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

/**
 * The rounds of {@code jvm-cache.mode=compare}, each the fleet started without and with its JVM
 * caches, and the {@link JvmCacheComparison} they make, built from the rounds' reports alone.
 */
public final class JvmCacheRounds {

	private static final String SPAWN_TO_READY_KEY = "server";

	private static final String CPU_KEY = "cpu";

	private static final String SHARE_KEY = "share";

	/** Stage names are the server's own: a prefix keeps them apart from the keys above. */
	private static final String STAGE_KEY = "stage:";

	private JvmCacheRounds() {
	}

	/**
	 * Compare the rounds.
	 * @param rounds the rounds' reports, each with its two starts; a round where a start did not
	 * become ready is left out
	 * @param asked how many rounds were asked for
	 * @return the comparison
	 */
	public static JvmCacheComparison compare(List<Round> rounds, int asked) {
		return compare(rounds, asked, List.of());
	}

	/**
	 * Compare the rounds, the servers in a given order (a report lists them in spawn order,
	 * which parallel spawns do not keep from one start to the next).
	 * @param rounds the rounds' reports, each with its two starts; a round where a start did not
	 * become ready is left out
	 * @param asked how many rounds were asked for
	 * @param order the servers' names in the order to show them (the fleet's plan); others follow
	 * @return the comparison
	 */
	public static JvmCacheComparison compare(List<Round> rounds, int asked, List<String> order) {
		List<Round> complete = rounds.stream().filter(Round::complete).toList();
		Map<String, Map<String, MetricBuilder>> byServer = new LinkedHashMap<>();
		for (Round round : complete) {
			for (ServerReport without : round.without().servers()) {
				ServerReport with = round.with().servers()
					.stream()
					.filter((server) -> server.name().equals(without.name()))
					.findFirst()
					.orElse(null);
				if (with == null) {
					continue;
				}
				Map<String, MetricBuilder> metrics = byServer.computeIfAbsent(without.name(), (name) -> {
					Map<String, MetricBuilder> ordered = new LinkedHashMap<>();
					// in the order they are shown: the server's whole startup first, then its stages
					ordered.put(SPAWN_TO_READY_KEY, new MetricBuilder(name, Kind.SERVER, ServerReport.SPAWN_TO_READY));
					ordered.put(CPU_KEY, new MetricBuilder(name, Kind.CPU, "cpu"));
					ordered.put(SHARE_KEY, new MetricBuilder(name, Kind.CLASS_SHARE, "classes from a cache"));
					return ordered;
				});
				metrics.get(SPAWN_TO_READY_KEY).add(round.number(), ms(without.spawnToEndNs()), ms(with.spawnToEndNs()));
				Double cpuWithout = cpuMs(without);
				Double cpuWith = cpuMs(with);
				if (cpuWithout != null && cpuWith != null) {
					metrics.get(CPU_KEY).add(round.number(), cpuWithout, cpuWith);
				}
				Double shareWithout = share(round.without(), without.name());
				Double shareWith = share(round.with(), with.name());
				if (shareWithout != null && shareWith != null) {
					metrics.get(SHARE_KEY).add(round.number(), shareWithout, shareWith);
				}
				Map<String, Double> stagesWithout = stages(without);
				Map<String, Double> stagesWith = stages(with);
				stagesWithout.forEach((stage, ms) -> {
					Double other = stagesWith.get(stage);
					if (other != null) {
						metrics.computeIfAbsent(STAGE_KEY + stage, (key) -> new MetricBuilder(without.name(), Kind.STAGE,
								stage)).add(round.number(), ms, other);
					}
				});
			}
		}
		List<Metric> metrics = new ArrayList<>();
		List<String> names = new ArrayList<>(byServer.keySet());
		names.sort(Comparator.comparingInt((String name) -> order.contains(name) ? order.indexOf(name) : order.size()));
		names.stream().map(byServer::get).forEach((server) -> server.values()
			.stream()
			.filter((builder) -> !builder.pairs.isEmpty())
			.forEach((builder) -> metrics.add(builder.build())));
		return new JvmCacheComparison(asked, complete.size(), metrics);
	}

	private static double ms(long ns) {
		return ns / 1_000_000.0;
	}

	/** Process CPU time from the JVM's start to ready, when the server reported its counters. */
	private static Double cpuMs(ServerReport server) {
		return server.timeline()
			.flatMap(ServerTimeline::jvmTotal)
			.map(JvmCounters::cpuNs)
			.filter((ns) -> ns >= 0)
			.map(JvmCacheRounds::ms)
			.orElse(null);
	}

	/** The share of the server's classes that came from a cache, in percent, when counted. */
	private static Double share(StartupReport report, String server) {
		if (report.jvmCache() == null) {
			return null;
		}
		return report.jvmCache().server(server).map((cache) -> cache.classShare())
			.filter((share) -> share.isPresent())
			.map((share) -> 100 * share.getAsDouble())
			.orElse(null);
	}

	private static Map<String, Double> stages(ServerReport server) {
		Map<String, Double> stages = new LinkedHashMap<>();
		for (Stage stage : server.stages()) {
			stages.merge(stage.name(), stage.durationMs(), Double::sum);
		}
		return stages;
	}

	/**
	 * One round: the fleet started without its caches and with them, one after the other.
	 *
	 * @param number its number, from 1
	 * @param withFirst whether the start with the caches went first
	 * @param without the report of the start without the caches
	 * @param with the report of the start with them
	 */
	public record Round(int number, boolean withFirst, StartupReport without, StartupReport with) {

		public Round {
			Objects.requireNonNull(without, "without");
			Objects.requireNonNull(with, "with");
		}

		/** Whether both starts became ready. */
		public boolean complete() {
			return this.without.ready() && this.with.ready();
		}

	}

	private static final class MetricBuilder {

		private final String server;

		private final Kind kind;

		private final String name;

		private final List<Pair> pairs = new ArrayList<>();

		MetricBuilder(String server, Kind kind, String name) {
			this.server = server;
			this.kind = kind;
			this.name = name;
		}

		void add(int round, double without, double with) {
			this.pairs.add(new Pair(round, without, with));
		}

		Metric build() {
			return new Metric(this.server, this.kind, this.name, this.pairs);
		}

	}

}
