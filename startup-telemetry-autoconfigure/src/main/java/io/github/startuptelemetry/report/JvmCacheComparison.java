package io.github.startuptelemetry.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import io.github.startuptelemetry.internal.Durations;

/**
 * Rounds of the fleet started without and with its JVM caches, compared pair by pair
 * ({@code jvm-cache.mode=compare}; made by {@link JvmCacheRounds}): per server and measure, the
 * medians without and with and the median of the paired differences with their range.
 *
 * @param rounds how many rounds were asked for
 * @param completedRounds how many completed (both starts ready) and count here
 * @param metrics per server, in spawn order: spawn→ready, CPU, class share, then its stages
 */
public record JvmCacheComparison(int rounds, int completedRounds, List<Metric> metrics) {

	public JvmCacheComparison {
		metrics = List.copyOf(metrics);
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
