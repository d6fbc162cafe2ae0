package io.github.startuptelemetry.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.ExitCodes;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.internal.support.Durations;
import io.github.startuptelemetry.report.JsonReport.ServerTimes;

/**
 * A startup against its baseline: per server, its spawn→ready, each stage and each slow bean,
 * before (the median over the baseline reports that have it) and after. A server's
 * spawn→ready or a stage that grew beyond its {@link RegressionThreshold} is a regression and
 * fails the gate; slow beans are listed to say why, but do not gate (a bean's time moves with
 * the order beans happen to be created in). Built from JSON report documents alone, so that the
 * supervisor and the standalone {@link Compare} agree.
 *
 * @param baselineRuns how many baseline reports the medians come from
 * @param threshold the threshold of every stage without its own
 * @param changes every time present before and after, in server and stage order
 */
public record ReportComparison(int baselineRuns, RegressionThreshold threshold, List<Change> changes) {

	/** What {@code spawn→ready} is called in a {@link Change}. */
	public static final String SPAWN_TO_READY = "spawn→ready";

	public ReportComparison {
		Objects.requireNonNull(threshold, "threshold");
		changes = List.copyOf(changes);
	}

	/**
	 * Compare {@code current} with the medians of {@code baselines}.
	 * @param baselines the baseline reports' servers, one list per report
	 * @param current this startup's servers
	 * @param threshold the default threshold
	 * @param perStage thresholds of their own, by stage name
	 * @return the comparison
	 */
	public static ReportComparison compare(List<List<ServerTimes>> baselines, List<ServerTimes> current,
			RegressionThreshold threshold, Map<String, RegressionThreshold> perStage) {
		List<Change> changes = new ArrayList<>();
		for (ServerTimes server : current) {
			List<ServerTimes> before = baselines.stream()
				.flatMap((report) -> report.stream().filter((s) -> s.name().equals(server.name())))
				.toList();
			if (before.isEmpty()) {
				continue;
			}
			if (server.spawnToReadyMs() != null) {
				add(changes, server.name(), Kind.SERVER, SPAWN_TO_READY, median(before, ServerTimes::spawnToReadyMs),
						server.spawnToReadyMs(), threshold);
			}
			server.stages()
				.forEach((stage, ms) -> add(changes, server.name(), Kind.STAGE, stage,
						median(before, (s) -> s.stages().get(stage)), ms, perStage.getOrDefault(stage, threshold)));
			// slow beans are steps of beans_instantiated: judged by its threshold
			RegressionThreshold beans = perStage.getOrDefault(StageNames.BEANS_INSTANTIATED, threshold);
			server.beans()
				.forEach((bean, ms) -> add(changes, server.name(), Kind.BEAN, bean,
						median(before, (s) -> s.beans().get(bean)), ms, beans));
		}
		return new ReportComparison(baselines.size(), threshold, changes);
	}

	private static void add(List<Change> changes, String server, Kind kind, String name, @Nullable Double beforeMs,
			double afterMs, RegressionThreshold threshold) {
		if (beforeMs != null) {
			Verdict verdict = threshold.slower(beforeMs, afterMs) ? Verdict.SLOWER
					: threshold.faster(beforeMs, afterMs) ? Verdict.FASTER : Verdict.SAME;
			changes.add(new Change(server, kind, name, beforeMs, afterMs, verdict));
		}
	}

	/** The median of the values the baseline reports have, or {@code null} when none has one. */
	private static @Nullable Double median(List<ServerTimes> servers, Function<ServerTimes, @Nullable Double> value) {
		List<Double> values = new ArrayList<>();
		for (ServerTimes server : servers) {
			Double one = value.apply(server);
			if (one != null) {
				values.add(one);
			}
		}
		if (values.isEmpty()) {
			return null;
		}
		Collections.sort(values);
		int middle = values.size() / 2;
		return (values.size() % 2 == 1) ? values.get(middle) : (values.get(middle - 1) + values.get(middle)) / 2;
	}

	/** The changes that fail the gate: a server's spawn→ready or a stage, slower beyond its threshold. */
	public List<Change> regressions() {
		return this.changes.stream().filter(Change::regression).toList();
	}

	public boolean regressed() {
		return !regressions().isEmpty();
	}

	/** The process's exit code for this comparison: 0, or {@link ExitCodes#STARTUP_REGRESSED}. */
	public int exitCode() {
		return regressed() ? ExitCodes.STARTUP_REGRESSED : 0;
	}

	/** The changes beyond the threshold either way, by server, in report order. */
	public Map<String, List<Change>> notable() {
		Map<String, List<Change>> byServer = new LinkedHashMap<>();
		for (Change change : this.changes) {
			if (change.verdict() != Verdict.SAME) {
				byServer.computeIfAbsent(change.server(), (key) -> new ArrayList<>()).add(change);
			}
		}
		return byServer;
	}

	/** As plain text, for the console beside the table and for {@link Compare}. */
	public String text() {
		StringBuilder out = new StringBuilder("Compared with the baseline (")
			.append((this.baselineRuns == 1) ? "1 run" : "median of " + this.baselineRuns + " runs")
			.append("; threshold ")
			.append(this.threshold)
			.append("):\n");
		Map<String, List<Change>> notable = notable();
		if (notable.isEmpty()) {
			out.append("  no server, stage or slow bean changed beyond the threshold\n");
		}
		notable.values().forEach((changes) -> changes.forEach((change) -> out.append("  ").append(change.line()).append('\n')));
		out.append(regressed()
				? "startup regressed: " + regressions().size() + " regression(s), exit code " + ExitCodes.STARTUP_REGRESSED
				: "no regression");
		return out.toString();
	}

	/** What a change is of. */
	public enum Kind {

		/** A server's spawn→ready. */
		SERVER,

		/** One of its stages. */
		STAGE,

		/** One of its slow beans or application steps. */
		BEAN;

		String word() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/** Which way a time moved, beyond the threshold or not. */
	public enum Verdict {

		SLOWER, FASTER, SAME

	}

	/**
	 * One time, before and after.
	 *
	 * @param server the server
	 * @param kind what the time is of
	 * @param name {@link #SPAWN_TO_READY}, the stage's name or the bean's
	 * @param beforeMs the baseline's median
	 * @param afterMs this startup's
	 * @param verdict whether it moved beyond the threshold, and which way
	 */
	public record Change(String server, Kind kind, String name, double beforeMs, double afterMs, Verdict verdict) {

		/** Whether it fails the gate: slower, and a spawn→ready or a stage. */
		public boolean regression() {
			return this.verdict == Verdict.SLOWER && this.kind != Kind.BEAN;
		}

		public double deltaMs() {
			return this.afterMs - this.beforeMs;
		}

		/** {@code REGRESSED model-1 stage beans_instantiated 1.9 s → 5.4 s (+3.5 s, +184%)}. */
		public String line() {
			String word = regression() ? "REGRESSED" : (this.verdict == Verdict.SLOWER) ? "slower" : "faster";
			String percent = (this.beforeMs > 0)
					? String.format(Locale.ROOT, ", %+.0f%%", 100 * deltaMs() / this.beforeMs) : "";
			return String.format(Locale.ROOT, "%-9s %s %s %s %s → %s (%s%s%s)", word, this.server, this.kind.word(),
					this.name, format(this.beforeMs), format(this.afterMs), (deltaMs() >= 0) ? "+" : "-",
					format(Math.abs(deltaMs())), percent);
		}

		static String format(double ms) {
			return Durations.format(Math.round(ms * 1_000_000));
		}

	}

}
