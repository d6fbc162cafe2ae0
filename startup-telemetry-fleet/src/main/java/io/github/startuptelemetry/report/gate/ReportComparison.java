package io.github.startuptelemetry.report.gate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.startuptelemetry.contract.ExitCodes;
import io.github.startuptelemetry.report.gate.Change.Verdict;
import io.github.startuptelemetry.report.gate.ReportTimes.ServerTimes;

/**
 * A startup against its baseline, unit by unit (per server its spawn→ready, stages, Spring's
 * phases, application steps and slow beans), each judged by its work and its waiting with the
 * machine's load taken out: the regression gate's verdict, and its text. Built from JSON reports
 * alone, so that the supervisor and {@link Compare} agree; the method is in docs/ci.md.
 *
 * @param baselineRuns how many baseline reports it is judged against
 * @param settings the thresholds and switches it was judged with
 * @param speed this run's speed against the baseline, pooled over its servers
 * @param serverSpeeds per server
 * @param stallMs how much longer than in the baseline 5% of this run's working units waited
 * (a run that stalled: any unit may wait that much longer)
 * @param changes every unit present in this run and in the baseline's servers, in server and
 * report order, and each server's {@link Change.Kind#UNIFORM} verdict when its CPU time moved
 * beyond the threshold
 */
public record ReportComparison(int baselineRuns, Settings settings, Speed speed, Map<String, Speed> serverSpeeds,
		double stallMs, List<Change> changes) {

	/**
	 * What {@code spawn→ready} is called in a {@link Change}.
	 * @deprecated since 0.1.0, for {@link Change#SPAWN_TO_READY}
	 */
	@Deprecated(since = "0.1.0")
	public static final String SPAWN_TO_READY = Change.SPAWN_TO_READY;

	/**
	 * What a {@link Change.Kind#UNIFORM} change is called.
	 * @deprecated since 0.1.0, for {@link Change#CPU_TIME}
	 */
	@Deprecated(since = "0.1.0")
	public static final String CPU_TIME = Change.CPU_TIME;

	public ReportComparison {
		Objects.requireNonNull(settings, "settings");
		Objects.requireNonNull(speed, "speed");
		serverSpeeds = Collections.unmodifiableMap(new LinkedHashMap<>(serverSpeeds));
		changes = List.copyOf(changes);
	}

	/**
	 * Compare {@code current} with {@code baselines}, with the default spread multiplier and
	 * the speed factor on.
	 * @param baselines the baseline reports' servers, one list per report
	 * @param current this startup's servers
	 * @param threshold the default threshold
	 * @param perStage thresholds of their own, by stage name (a phase, step or bean takes
	 * {@code beans_instantiated}'s)
	 * @return the comparison
	 */
	public static ReportComparison compare(List<List<ServerTimes>> baselines, List<ServerTimes> current,
			RegressionThreshold threshold, Map<String, RegressionThreshold> perStage) {
		return compare(baselines, current, new Settings(threshold, perStage, Settings.DEFAULT.spreadMultiplier(), true));
	}

	/**
	 * Compare {@code current} with {@code baselines}.
	 * @param baselines the baseline reports' servers, one list per report
	 * @param current this startup's servers
	 * @param settings thresholds and switches
	 * @return the comparison
	 */
	public static ReportComparison compare(List<List<ServerTimes>> baselines, List<ServerTimes> current,
			Settings settings) {
		RegressionJudge.Judgement judged = RegressionJudge.judge(baselines, current, settings);
		return new ReportComparison(baselines.size(), settings, judged.speed(), judged.serverSpeeds(),
				judged.stallMs(), judged.changes());
	}

	/** The threshold of every unit without its own. */
	public RegressionThreshold threshold() {
		return this.settings.threshold();
	}

	/** The changes that fail the gate: every unit slower beyond its allowance, and uniform slowdowns. */
	public List<Change> regressions() {
		return this.changes.stream().filter(Change::regression).toList();
	}

	/** The regressions nothing inside them accounts for: what the summary names. */
	public List<Change> culprits() {
		return this.changes.stream().filter((change) -> change.regression() && change.explainedBy().isEmpty()).toList();
	}

	public boolean regressed() {
		return !regressions().isEmpty();
	}

	/** The process's exit code for this comparison: 0, or {@link ExitCodes#STARTUP_REGRESSED}. */
	public int exitCode() {
		return regressed() ? ExitCodes.STARTUP_REGRESSED : 0;
	}

	/** The changes beyond the allowance either way, by server, in report order. */
	public Map<String, List<Change>> notable() {
		Map<String, List<Change>> byServer = new LinkedHashMap<>();
		for (Change change : this.changes) {
			if (change.verdict() != Verdict.SAME) {
				byServer.computeIfAbsent(change.server(), (key) -> new ArrayList<>()).add(change);
			}
		}
		return byServer;
	}

	/** The first line of {@link #text()}: what was compared, and how. */
	public String heading() {
		return ComparisonText.heading(this.baselineRuns, this.settings);
	}

	/** This run's speed factor and its CPU factor, and what they rest on, one line. */
	public String speedLine() {
		return ComparisonText.speedLine(this.settings, this.speed, this.serverSpeeds, this.stallMs);
	}

	/** The baseline's spread, one line: how much a unit moved between the baseline runs. */
	public String spreadLine() {
		return ComparisonText.spreadLine(this.baselineRuns, this.settings, this.changes);
	}

	/** As plain text, for the console beside the table and for {@link Compare}. */
	public String text() {
		return ComparisonText.text(heading(), speedLine(), spreadLine(), notable(), summary());
	}

	/** The verdict, one line: the culprits by name and by how much, and the exit code. */
	public String summary() {
		return ComparisonText.summary(regressions(), culprits());
	}

	/**
	 * One change as a line of {@link #text()}: {@code REGRESSED model-1 bean modelLoader 1.5 s → 2.5 s:
	 * waited +1.0 s more than the baseline's 1.5 s (median of 3 runs ±8 ms), allowed +375 ms; ...}.
	 */
	public String line(Change change) {
		return ComparisonText.line(change);
	}

	/** {@link #line(Change)} after the unit: by how much, against which baseline statistic, allowed how much. */
	public String detail(Change change) {
		return ComparisonText.detail(change);
	}

}
