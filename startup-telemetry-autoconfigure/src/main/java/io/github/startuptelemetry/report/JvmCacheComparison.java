package io.github.startuptelemetry.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

/**
 * Rounds of the fleet started without and with its JVM caches, compared pair by pair: per
 * server its spawn→ready, its CPU time, the share of its classes that came from a cache, and
 * each of its stages; for each, the medians without and with, and the median of the per-round
 * differences (with − without) with their spread (smallest and largest). Paired, so that what
 * the machine was doing during a round weighs on both of its starts alike; the order within a
 * round alternates, so that neither side always goes first. Built from the rounds' reports
 * alone, like the regression gate.
 *
 * @param rounds how many rounds were asked for
 * @param completedRounds how many completed (both starts ready) and count here
 * @param metrics per server, in spawn order: spawn→ready, CPU, class share, then its stages
 */
public record JvmCacheComparison(int rounds, int completedRounds, List<Metric> metrics) {

	private static final String SPAWN_TO_READY_KEY = "server";

	private static final String CPU_KEY = "cpu";

	private static final String SHARE_KEY = "share";

	/** Stage names are the server's own: a prefix keeps them apart from the keys above. */
	private static final String STAGE_KEY = "stage:";

	public JvmCacheComparison {
		metrics = List.copyOf(metrics);
	}

	/**
	 * Compare the rounds.
	 * @param rounds the rounds' reports, each with its two starts; a round where a start did not
	 * become ready is left out
	 * @param asked how many rounds were asked for
	 * @return the comparison
	 */
	public static JvmCacheComparison of(List<Round> rounds, int asked) {
		return of(rounds, asked, List.of());
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
	public static JvmCacheComparison of(List<Round> rounds, int asked, List<String> order) {
		List<Round> complete = rounds.stream().filter(Round::complete).toList();
		Map<String, Map<String, Metric.Builder>> byServer = new LinkedHashMap<>();
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
				Map<String, Metric.Builder> metrics = byServer.computeIfAbsent(without.name(), (name) -> {
					Map<String, Metric.Builder> ordered = new LinkedHashMap<>();
					// in the order they are shown: the server's whole startup first, then its stages
					ordered.put(SPAWN_TO_READY_KEY, new Metric.Builder(name, Kind.SERVER, ServerReport.SPAWN_TO_READY));
					ordered.put(CPU_KEY, new Metric.Builder(name, Kind.CPU, "cpu"));
					ordered.put(SHARE_KEY, new Metric.Builder(name, Kind.CLASS_SHARE, "classes from a cache"));
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
						metrics.computeIfAbsent(STAGE_KEY + stage, (key) -> new Metric.Builder(without.name(), Kind.STAGE,
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
			.map(JvmCacheComparison::ms)
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

	/** The metrics of one server, in order. */
	public List<Metric> server(String name) {
		return this.metrics.stream().filter((metric) -> metric.server().equals(name)).toList();
	}

	/** The servers compared, in order. */
	public List<String> servers() {
		Set<String> names = new LinkedHashSet<>();
		this.metrics.forEach((metric) -> names.add(metric.server()));
		return List.copyOf(names);
	}

	/** The server's stage whose median moved most, either way. */
	public Optional<Metric> movedMost(String server) {
		return server(server).stream()
			.filter((metric) -> metric.kind() == Kind.STAGE)
			.max(Comparator.comparingDouble((Metric metric) -> Math.abs(metric.medianDelta())));
	}

	/** As plain text, for the console beside the report's table: one aligned line per server and measure. */
	public String text() {
		StringBuilder out = new StringBuilder("JVM caches compared over ").append(roundsText())
			.append(" (each the fleet without, then with its caches, the order alternating);")
			.append(" median without → with, median of the paired differences [smallest … largest]:\n");
		if (this.metrics.isEmpty()) {
			out.append("  no round completed: nothing to compare\n");
		}
		int[] widths = new int[5];
		for (Metric metric : this.metrics) {
			String[] cells = metric.cells();
			widths[0] = Math.max(widths[0], metric.server().length());
			widths[1] = Math.max(widths[1], metric.name().length());
			for (int i = 0; i < 3; i++) {
				widths[i + 2] = Math.max(widths[i + 2], cells[i].length());
			}
		}
		for (String server : servers()) {
			boolean first = true;
			for (Metric metric : server(server)) {
				String[] cells = metric.cells();
				out.append("  ").append(pad(first ? server : "", widths[0])).append("  ").append(pad(metric.name(), widths[1]))
					.append("  ").append(padLeft(cells[0], widths[2])).append(" → ").append(padLeft(cells[1], widths[3]))
					.append("  ").append(pad(cells[2], widths[4])).append("  ").append(cells[3]).append('\n');
				first = false;
			}
			String indent = " ".repeat(widths[0]);
			movedMost(server).ifPresent((stage) -> out.append("  ").append(indent).append("  stage that moved most: ")
				.append(stage.name()).append(' ').append(stage.deltaText()).append('\n'));
		}
		return out.toString().stripTrailing();
	}

	private static String pad(String text, int width) {
		return text + " ".repeat(Math.max(0, width - text.length()));
	}

	private static String padLeft(String text, int width) {
		return " ".repeat(Math.max(0, width - text.length())) + text;
	}

	/** {@code 5 rounds}, or {@code 4 of 5 rounds} when some did not complete. */
	public String roundsText() {
		return ((this.completedRounds == this.rounds) ? "" : this.completedRounds + " of ") + this.rounds
				+ ((this.rounds == 1) ? " round" : " rounds");
	}

	/** What a metric measures. */
	public enum Kind {

		/** The server's spawn→ready, in milliseconds. */
		SERVER,

		/** Its process CPU time from the JVM's start to ready, all threads, in milliseconds. */
		CPU,

		/** The share of its loaded classes that came from a CDS archive or AOT cache, in percent. */
		CLASS_SHARE,

		/** One of its stages, in milliseconds. */
		STAGE;

		/** The value as people read it. */
		public String format(double value) {
			return (this == CLASS_SHARE) ? String.format(Locale.ROOT, "%.0f%%", value) : msText(value);
		}

		/** A difference as people read it, with its sign. */
		public String formatDelta(double delta) {
			if (this == CLASS_SHARE) {
				return String.format(Locale.ROOT, "%+.0f pts", delta);
			}
			return ((delta < 0) ? "-" : "+") + msText(Math.abs(delta));
		}

		/** The name in the JSON report. */
		public String jsonName() {
			return name().toLowerCase(Locale.ROOT).replace('_', '-');
		}

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

	/**
	 * One measure of one server over the rounds.
	 *
	 * @param server the server
	 * @param kind what it measures
	 * @param name {@link ServerReport#SPAWN_TO_READY}, {@code cpu}, {@code classes from a
	 * cache} or the stage's name
	 * @param pairs the value of each completed round, without and with the caches
	 */
	public record Metric(String server, Kind kind, String name, List<Pair> pairs) {

		public Metric {
			pairs = List.copyOf(pairs);
		}

		public double medianWithout() {
			return median(this.pairs.stream().map(Pair::without).toList());
		}

		public double medianWith() {
			return median(this.pairs.stream().map(Pair::with).toList());
		}

		/** The median of the per-round differences, with − without: negative when the caches saved time. */
		public double medianDelta() {
			return median(this.pairs.stream().map(Pair::delta).toList());
		}

		public double minDelta() {
			return this.pairs.stream().mapToDouble(Pair::delta).min().orElse(Double.NaN);
		}

		public double maxDelta() {
			return this.pairs.stream().mapToDouble(Pair::delta).max().orElse(Double.NaN);
		}

		/** The median difference relative to the median without, when that is not 0 (never for a class share). */
		public double relativeDelta() {
			double without = medianWithout();
			return (this.kind != Kind.CLASS_SHARE && without > 0) ? medianDelta() / without : Double.NaN;
		}

		/** {@code -1.9 s (-37%)}. */
		public String deltaText() {
			double relative = relativeDelta();
			return this.kind.formatDelta(medianDelta())
					+ (Double.isNaN(relative) ? "" : String.format(Locale.ROOT, " (%+.0f%%)", 100 * relative));
		}

		/** Without, with, the difference and its range, as the console shows them: {@code 5.2 s}, {@code 3.3 s}, {@code -1.9 s (-37%)}, {@code [-2.4 s … -1.1 s]}. */
		String[] cells() {
			return new String[] { this.kind.format(medianWithout()), this.kind.format(medianWith()), deltaText(),
					"[" + this.kind.formatDelta(minDelta()) + " … " + this.kind.formatDelta(maxDelta()) + "]" };
		}

		private static double median(List<Double> values) {
			if (values.isEmpty()) {
				return Double.NaN;
			}
			List<Double> sorted = new ArrayList<>(values);
			sorted.sort(null);
			int middle = sorted.size() / 2;
			return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
		}

		private static final class Builder {

			private final String server;

			private final Kind kind;

			private final String name;

			private final List<Pair> pairs = new ArrayList<>();

			Builder(String server, Kind kind, String name) {
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

	/**
	 * One round's values of a metric.
	 *
	 * @param round the round's number
	 * @param without the value without the caches
	 * @param with the value with them
	 */
	public record Pair(int round, double without, double with) {

		/** with − without. */
		public double delta() {
			return this.with - this.without;
		}

	}

	private static String msText(double ms) {
		return Durations.format(Math.round(ms * 1_000_000));
	}

}
