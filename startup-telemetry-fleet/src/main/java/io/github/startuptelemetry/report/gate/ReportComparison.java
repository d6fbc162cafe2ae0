package io.github.startuptelemetry.report.gate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.ExitCodes;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.report.gate.BaselineModel.Stat;
import io.github.startuptelemetry.report.gate.ReportTimes.ServerTimes;
import io.github.startuptelemetry.report.gate.ReportTimes.UnitTimes;

/**
 * A startup against its baseline, unit by unit: per server its spawn→ready, each stage, each of
 * Spring's phases, each application step and each slow bean. Every unit is judged, and any unit
 * slower than it should be fails the gate, so a bean that grew by a second fails the run even
 * when the noise of its stage hides it.
 * <p>
 * A unit's time is its work (its CPU time, which the machine's load barely moves) plus its
 * waiting (a sleep, I/O), with the work stretched by the contention the run met
 * ({@link Contention}, read from the run's own counters; this run's against the baseline's is
 * the speed factor). So a unit is judged twice, against the baseline ({@link BaselineModel}:
 * median and spread over its runs):
 * <ul>
 * <li><b>work</b>: its CPU time against the baseline's, times the server's CPU factor;</li>
 * <li><b>waiting</b>: its wall time less its CPU time stretched by the high end of this run's
 * contention, against its waiting in the baseline (at the low end of each run's): what load
 * cannot explain, estimated so that load never looks like waiting.</li>
 * </ul>
 * Either beyond its allowance is a regression: the largest of the threshold's share (of the
 * unit's expected time), its absolute floor, and {@link Settings#spreadMultiplier()} times the
 * unit's spread over the baseline runs (a noisy unit needs a larger change). A unit without CPU
 * times is judged by its wall time, against the baseline scaled by the speed factor (the slower
 * end of it). A server whose CPU time grew alike in all its units (the code or the JVM's
 * configuration got slower) regressed as a whole, as {@link Kind#UNIFORM}: the per-unit work
 * test, which takes that factor out, then names what grew beyond it. A regressed unit whose
 * growth its regressed parts account for says so ({@link Change#explainedBy()}); the others are
 * the culprits the summary names.
 * <p>
 * Built from JSON report documents alone, so that the supervisor and the standalone
 * {@link Compare} agree; the method and its limits are in the docs (the regression gate).
 *
 * @param baselineRuns how many baseline reports it is judged against
 * @param settings the thresholds and switches it was judged with
 * @param speed this run's speed against the baseline, pooled over its servers
 * @param serverSpeeds per server
 * @param stallMs how much longer than in the baseline 5% of this run's working units waited
 * (a run that stalled: any unit may wait that much longer)
 * @param changes every unit present in this run and in the baseline's servers, in server and
 * report order, and each server's {@link Kind#UNIFORM} verdict when its CPU time moved beyond
 * the threshold
 */
public record ReportComparison(int baselineRuns, Settings settings, Speed speed, Map<String, Speed> serverSpeeds,
		double stallMs, List<Change> changes) {

	/** What {@code spawn→ready} is called in a {@link Change}. */
	public static final String SPAWN_TO_READY = "spawn→ready";

	/** What a {@link Kind#UNIFORM} change is called. */
	public static final String CPU_TIME = "CPU time";

	/** A CPU factor from fewer units than this judges nothing. */
	static final int MIN_CPU_UNITS = 3;

	/** A unit that waited at most this share of its time in the baseline only worked there. */
	static final double WORKING_SHARE = 0.1;

	/** The percentile of the working units' extra waiting that is this run's stall. */
	static final int STALL_PERCENTILE = 95;

	public ReportComparison {
		Objects.requireNonNull(settings, "settings");
		Objects.requireNonNull(speed, "speed");
		serverSpeeds = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(serverSpeeds));
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
		BaselineModel baseline = new BaselineModel(baselines);
		Map<String, Map<String, UnitTimes>> run = BaselineModel.index(current);
		Map<String, Contention> contention = Contention.of(run);
		Map<String, Speed> serverSpeeds = new LinkedHashMap<>();
		List<Double> cpuFactors = new ArrayList<>();
		int cpuUnits = 0;
		for (Map.Entry<String, Map<String, UnitTimes>> server : run.entrySet()) {
			String name = server.getKey();
			if (!baseline.has(name)) {
				continue;
			}
			// known on both sides, or taken as none on both
			boolean known = settings.speedCorrection() && contention.get(name).known() && baseline.contentionKnown(name);
			Contention met = known ? contention.get(name) : Contention.UNKNOWN;
			double usual = known ? baseline.usualContention(name) : 1;
			double[] cpuFactor = baseline.cpuFactor(name, server.getValue());
			serverSpeeds.put(name, new Speed(met, usual, cpuFactor[0], (int) cpuFactor[1]));
			if (!Double.isNaN(cpuFactor[0])) {
				cpuFactors.add(cpuFactor[0]);
				cpuUnits += (int) cpuFactor[1];
			}
		}
		double stallMs = settings.speedCorrection() ? stallMs(run, baseline, serverSpeeds) : 0;
		List<Change> changes = new ArrayList<>();
		for (Map.Entry<String, Speed> entry : serverSpeeds.entrySet()) {
			String name = entry.getKey();
			Map.Entry<String, Map<String, UnitTimes>> server = Map.entry(name, run.get(name));
			Judge judge = new Judge(name, entry.getValue(), settings, stallMs);
			List<Change> serverChanges = new ArrayList<>();
			Change uniform = judge.uniform(server.getValue(), baseline);
			if (uniform != null) {
				serverChanges.add(uniform);
			}
			for (UnitTimes unit : server.getValue().values()) {
				serverChanges.add(judge.unit(unit, baseline.stat(name, unit.key())));
			}
			changes.addAll(explain(serverChanges, server.getValue()));
		}
		List<Speed> known = serverSpeeds.values().stream().filter((speed) -> speed.contention().known()).toList();
		Speed fleet = known.isEmpty() ? new Speed(Contention.UNKNOWN, 1, Robust.median(cpuFactors), cpuUnits)
				: new Speed(Contention.pooled(run), Robust.median(known.stream().map(Speed::usualContention).toList()),
						Robust.median(cpuFactors), cpuUnits);
		return new ReportComparison(baselines.size(), settings, fleet, serverSpeeds, stallMs, changes);
	}

	/**
	 * How long this run's threads stalled: over the beans, phases and steps that only worked in
	 * the baseline (they waited at most a tenth of their time there), the
	 * {@value #STALL_PERCENTILE}th percentile of how much longer they waited now than then, at
	 * least 0. A run whose cores were taken away for a while (other jobs came and went)
	 * stalls whatever was running then; a regression makes a few units wait, not one in twenty,
	 * so this percentile stays with the machine. Any unit may wait that much longer.
	 */
	private static double stallMs(Map<String, Map<String, UnitTimes>> run, BaselineModel baseline,
			Map<String, Speed> speeds) {
		List<Double> longer = new ArrayList<>();
		speeds.forEach((server, speed) -> {
			if (!speed.contention().known()) {
				return;
			}
			for (UnitTimes unit : run.get(server).values()) {
				Stat stat = baseline.stat(server, unit.key());
				if (unit.kind() != Kind.STAGE && unit.kind() != Kind.SERVER && unit.cpuMs() != null && stat != null
						&& stat.cpuKnown() && stat.waitMs() <= WORKING_SHARE * stat.wallMs()) {
					longer.add(BaselineModel.waitMs(unit.wallMs(), unit.cpuMs(), speed.contention().high())
							- stat.waitMs());
				}
			}
		});
		if (longer.size() < Contention.MIN_UNITS) {
			return 0;
		}
		double[] sorted = longer.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		return Math.max(0, sorted[(int) Math.floor(STALL_PERCENTILE / 100.0 * (sorted.length - 1))]);
	}

	/**
	 * Each regressed unit with the regressed units inside it (the topmost ones) that account
	 * for its growth beyond its expected time, within its allowance: its stage regressed
	 * because that bean did.
	 */
	private static List<Change> explain(List<Change> changes, Map<String, UnitTimes> units) {
		Map<String, List<String>> children = new LinkedHashMap<>();
		units.values().forEach((unit) -> {
			if (unit.parent() != null) {
				children.computeIfAbsent(unit.parent(), (key) -> new ArrayList<>()).add(unit.key());
			}
		});
		Map<String, Change> byKey = new LinkedHashMap<>();
		changes.stream()
			.filter((change) -> change.kind() != Kind.UNIFORM)
			.forEach((change) -> byKey.put(UnitTimes.key(change.kind(), change.name()), change));
		List<Change> explained = new ArrayList<>();
		for (Change change : changes) {
			if (!change.regression() || change.kind() == Kind.UNIFORM) {
				explained.add(change);
				continue;
			}
			List<Change> parts = new ArrayList<>();
			regressedParts(UnitTimes.key(change.kind(), change.name()), children, byKey, parts);
			double accounted = parts.stream().mapToDouble((part) -> part.wall().excessMs()).sum();
			boolean accountedFor = !parts.isEmpty()
					&& change.wall().excessMs() - accounted <= change.wall().allowedMs();
			explained.add(accountedFor ? change.explainedBy(parts.stream().map(Change::unit).toList()) : change);
		}
		return explained;
	}

	private static void regressedParts(String key, Map<String, List<String>> children, Map<String, Change> byKey,
			List<Change> into) {
		for (String child : children.getOrDefault(key, List.of())) {
			Change change = byKey.get(child);
			if (change != null && change.regression()) {
				into.add(change);
			}
			else {
				regressedParts(child, children, byKey, into);
			}
		}
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
		return "Compared with the baseline ("
				+ ((this.baselineRuns == 1) ? "1 run" : "median of " + this.baselineRuns + " runs")
				+ "; a unit regresses beyond " + this.settings.describe() + ")";
	}

	/** This run's speed factor and its CPU factor, and what they rest on, one line. */
	public String speedLine() {
		if (!this.settings.speedCorrection()) {
			return "speed factor off: times judged as measured" + cpuFactorText();
		}
		if (!this.speed.contention().known()) {
			return "speed factor unknown: no beans or steps with CPU times (JVM counters off, or an older report),"
					+ " so times are judged as measured" + cpuFactorText();
		}
		StringBuilder line = new StringBuilder("speed factor ").append(times(this.speed.factor()));
		if (this.serverSpeeds.size() > 1) {
			line.append(" (")
				.append(this.serverSpeeds.entrySet()
					.stream()
					.map((entry) -> entry.getKey() + " " + times(entry.getValue().factor()))
					.collect(Collectors.joining(", ")))
				.append(')');
		}
		Contention met = this.speed.contention();
		return line.append(String.format(Locale.ROOT, ": a working thread took %.1f s of wall time per CPU second"
				+ " (20-80%%: %.1f-%.1f s, from %d beans and steps), %.1f s in the baseline", met.median(), met.low(),
				met.high(), met.units(), this.speed.usualContention()))
			.append(cpuFactorText())
			.append((this.stallMs > 0) ? "; stalls: 1 in 20 of the units that only worked in the baseline waited "
					+ format(this.stallMs) + " or more beyond it, which any unit may on top of its allowance" : "")
			.toString();
	}

	private String cpuFactorText() {
		if (Double.isNaN(this.speed.cpuFactor())) {
			return "; no CPU times to compare";
		}
		return "; CPU time " + times(this.speed.cpuFactor()) + " (median of " + this.speed.cpuUnits()
				+ " units): " + ((Math.abs(this.speed.cpuFactor() - 1) <= this.settings.threshold().relative())
						? "the work is the baseline's, what changed is the load"
						: "the work itself changed");
	}

	/** The baseline's spread, one line: how much a unit moved between the baseline runs. */
	public String spreadLine() {
		if (this.baselineRuns < 2) {
			return "baseline spread unknown with 1 run: give 3 to 5, and a unit noisy in them needs a larger change";
		}
		List<Change> judged = this.changes.stream()
			.filter((change) -> change.kind() != Kind.UNIFORM && change.runs() >= 2
					&& change.wall().beforeMs() >= BaselineModel.MIN_FACTOR_CPU_MS
					&& !Double.isNaN(change.wall().spreadMs()))
			.toList();
		if (judged.isEmpty()) {
			return "baseline spread: no unit of at least 50 ms is in two baseline runs";
		}
		List<Double> relative = judged.stream().map((change) -> change.wall().spreadMs() / change.wall().beforeMs()).toList();
		Change widest = judged.stream()
			.max((a, b) -> Double.compare(a.wall().spreadMs() / a.wall().beforeMs(),
					b.wall().spreadMs() / b.wall().beforeMs()))
			.orElseThrow();
		return String.format(Locale.ROOT,
				"baseline spread (%s over its runs, each at the baseline's usual load): a unit's wall time ±%.0f%%"
						+ " (median of %d units), widest %s %s ±%s (%.0f%%): a unit needs a change beyond %s its spread",
				Robust.spreadName(this.baselineRuns), 100 * Robust.median(relative), judged.size(), widest.server(),
				widest.unit(), format(widest.wall().spreadMs()),
				100 * widest.wall().spreadMs() / widest.wall().beforeMs(), trim(this.settings.spreadMultiplier()) + "×");
	}

	/** As plain text, for the console beside the table and for {@link Compare}. */
	public String text() {
		StringBuilder out = new StringBuilder(heading()).append(":\n  ")
			.append(speedLine())
			.append("\n  ")
			.append(spreadLine())
			.append('\n');
		Map<String, List<Change>> notable = notable();
		if (notable.isEmpty()) {
			out.append("  no server, stage, phase, step or slow bean changed beyond its allowance\n");
		}
		notable.values()
			.forEach((changes) -> changes.forEach((change) -> out.append("  ").append(change.line()).append('\n')));
		out.append(summary());
		return out.toString();
	}

	/** The verdict, one line: the culprits by name and by how much, and the exit code. */
	public String summary() {
		if (!regressed()) {
			return "no regression";
		}
		return "startup regressed: " + culprits().stream().map(Change::culprit).collect(Collectors.joining(", ")) + " ("
				+ regressions().size() + " regressed unit(s) in all), exit code " + ExitCodes.STARTUP_REGRESSED;
	}

	static String format(double ms) {
		return Durations.format(Math.round(ms * 1_000_000));
	}

	static String times(double factor) {
		return String.format(Locale.ROOT, "×%.2f", factor);
	}

	private static String trim(double value) {
		return (value == Math.rint(value)) ? Long.toString((long) value) : Double.toString(value);
	}

	/** Judges one server's units. */
	private record Judge(String server, Speed speed, Settings settings, double stallMs) {

		/** One unit against its baseline ({@code null}: in no baseline run). */
		Change unit(UnitTimes unit, @Nullable Stat stat) {
			RegressionThreshold threshold = this.settings.thresholdOf(unit.kind(), unit.name());
			Contention met = this.speed.contention();
			double cpuFactor = Double.isNaN(this.speed.cpuFactor()) ? 1 : this.speed.cpuFactor();
			double wall = unit.wallMs();
			if (stat == null) {
				return added(unit, threshold);
			}
			double z = this.settings.spreadMultiplier();
			// a unit too small to judge on an idle machine is too small by as much more as the load stretches it
			double floor = threshold.floorMs() * Math.max(1, this.speed.factor());
			if (!stat.cpuKnown() || unit.cpuMs() == null) {
				// the slower end of "it waits" and "it works at this run's high contention", and the faster end
				double high = Math.max(1, this.speed.high());
				double low = Math.min(1, this.speed.low());
				double expected = stat.wallMs() * high;
				double allowed = allowed(threshold, floor, expected, z * orZero(stat.wallSpreadMs()) * high);
				double lowExpected = stat.wallMs() * low;
				double lowAllowed = allowed(threshold, floor, lowExpected, z * orZero(stat.wallSpreadMs()) * low);
				Verdict verdict = (wall - expected > allowed) ? Verdict.SLOWER
						: (lowExpected - wall > lowAllowed) ? Verdict.FASTER : Verdict.SAME;
				Times times = (verdict == Verdict.FASTER)
						? new Times(stat.wallMs(), wall, lowExpected, lowAllowed, stat.wallSpreadMs())
						: new Times(stat.wallMs(), wall, expected, allowed, stat.wallSpreadMs());
				return new Change(this.server, unit.kind(), unit.name(), verdict, Cause.WALL, times, null, null,
						stat.runs(), List.of());
			}
			double cpu = unit.cpuMs();
			// the wall time it should have taken: its waiting, and its work at this run's usual contention
			double expectedWall = stat.waitMs() + stat.cpuMs() * cpuFactor * met.median();
			double wallAllowed = allowed(threshold, floor, expectedWall,
					z * orZero(stat.wallSpreadMs()) * this.speed.factor());
			Times wallTimes = new Times(stat.wallMs(), wall, expectedWall, wallAllowed, stat.wallSpreadMs());
			// slower: the least of its CPU time that is its own now against all of it then; faster: the reverse
			double expectedCpu = stat.cpuMs() * cpuFactor;
			double cpuAllowed = allowed(threshold, threshold.floorMs(), expectedCpu, z * orZero(stat.cpuSpreadMs()));
			Times work = new Times(stat.cpuMs(), unit.ownCpuMs(), expectedCpu, cpuAllowed, stat.cpuSpreadMs());
			Times lessWork = new Times(stat.ownCpuMs(), cpu, stat.ownCpuMs() * cpuFactor, cpuAllowed, stat.cpuSpreadMs());
			// beyond what the run's stalls explain: a unit's extra waiting is the stall noise plus its own change
			double waitAllowed = allowed(threshold, floor, expectedWall, z * orZero(stat.waitSpreadMs())) + this.stallMs;
			// slower: the least it can have waited now against the most it can have waited then; faster: the reverse
			Times longer = new Times(stat.waitMs(), BaselineModel.waitMs(wall, cpu, met.high()), stat.waitMs(),
					waitAllowed, stat.waitSpreadMs());
			Times shorter = new Times(stat.leastWaitMs(), BaselineModel.waitMs(wall, cpu, met.low()),
					stat.leastWaitMs(), waitAllowed, stat.waitSpreadMs());
			boolean workSlower = work.excessMs() > work.allowedMs() && lengthened(unit, stat, cpuFactor, threshold, floor);
			boolean waitSlower = longer.excessMs() > longer.allowedMs();
			if (workSlower || waitSlower) {
				Cause cause = (workSlower && waitSlower) ? Cause.WORK_AND_WAIT : workSlower ? Cause.WORK : Cause.WAIT;
				return new Change(this.server, unit.kind(), unit.name(), Verdict.SLOWER, cause, wallTimes, work, longer,
						stat.runs(), List.of());
			}
			boolean workFaster = -lessWork.excessMs() > lessWork.allowedMs();
			boolean waitFaster = -shorter.excessMs() > shorter.allowedMs();
			Cause cause = (workFaster && waitFaster) ? Cause.WORK_AND_WAIT : workFaster ? Cause.WORK
					: waitFaster ? Cause.WAIT : Cause.NONE;
			return new Change(this.server, unit.kind(), unit.name(), (cause != Cause.NONE) ? Verdict.FASTER : Verdict.SAME,
					cause, wallTimes, workFaster ? lessWork : work, waitFaster ? shorter : longer, stat.runs(), List.of());
		}

		/**
		 * Whether more work in it made it longer: always for a unit of one thread; for a stage or
		 * spawn→ready (the whole process's CPU time) only when its wall time is beyond the least
		 * it should take now (the least it waited then, its work at this run's usual contention) and
		 * beyond the baseline's own (times the speed factor when this run is the busier).
		 * Other threads' work in a stage (an exporter's, the warm-up's request threads') runs
		 * beside its main thread, and a load moves it from stage to stage and out of the startup:
		 * a quieter run does more of it within the stage without making the stage any longer.
		 */
		private boolean lengthened(UnitTimes unit, Stat stat, double cpuFactor, RegressionThreshold threshold,
				double floor) {
			if (!unit.kind().processWide()) {
				return true;
			}
			double least = stat.leastWaitMs() + stat.cpuMs() * cpuFactor * this.speed.contention().median();
			// and beyond the baseline's own wall time, unless this run is the busier one
			double then = stat.wallMs() * Math.max(1, this.speed.factor());
			double spread = this.settings.spreadMultiplier() * orZero(stat.wallSpreadMs()) * this.speed.factor();
			return unit.wallMs() - least > allowed(threshold, floor, least, spread)
					&& unit.wallMs() - then > allowed(threshold, floor, then, spread);
		}

		/** A unit in no baseline run: under the bean-span threshold there, or new; judged against nothing. */
		private Change added(UnitTimes unit, RegressionThreshold threshold) {
			double floor = threshold.floorMs();
			double waitFloor = floor * Math.max(1, this.speed.factor()) + this.stallMs;
			Contention met = this.speed.contention();
			if (unit.cpuMs() != null) {
				double waited = BaselineModel.waitMs(unit.wallMs(), unit.cpuMs(), met.high());
				boolean slower = unit.cpuMs() > floor || waited > waitFloor;
				return new Change(this.server, unit.kind(), unit.name(), slower ? Verdict.SLOWER : Verdict.SAME, Cause.NEW,
						new Times(0, unit.wallMs(), 0, floor * Math.max(1, this.speed.high()), Double.NaN),
						new Times(0, unit.cpuMs(), 0, floor, Double.NaN), new Times(0, waited, 0, waitFloor, Double.NaN), 0,
						List.of());
			}
			double allowed = floor * Math.max(1, this.speed.high());
			return new Change(this.server, unit.kind(), unit.name(),
					(unit.wallMs() > allowed) ? Verdict.SLOWER : Verdict.SAME, Cause.NEW,
					new Times(0, unit.wallMs(), 0, allowed, Double.NaN), null, null, 0, List.of());
		}

		/**
		 * The server's verdict as a whole: its CPU factor moved beyond the threshold's share,
		 * or beyond the multiplier times that factor's spread over the baseline runs;
		 * {@code null} when it did not, or too few units have CPU times.
		 */
		@Nullable Change uniform(Map<String, UnitTimes> units, BaselineModel baseline) {
			String key = UnitTimes.key(Kind.SERVER, SPAWN_TO_READY);
			Stat total = baseline.stat(this.server, key);
			UnitTimes now = units.get(key);
			double factor = this.speed.cpuFactor();
			if (Double.isNaN(factor) || total == null || !total.cpuKnown() || now == null || now.cpuMs() == null) {
				return null;
			}
			double spread = baseline.cpuFactorSpread(this.server);
			double allowed = Math.max(this.settings.threshold().relative(),
					this.settings.spreadMultiplier() * orZero(spread));
			if (Math.abs(factor - 1) <= allowed) {
				return null;
			}
			// its stages' CPU time shows the size; the factor (a median over units) is what was judged
			Times cpu = new Times(total.cpuMs(), now.cpuMs(), total.cpuMs(), total.cpuMs() * allowed,
					total.cpuMs() * orZero(spread));
			return new Change(this.server, Kind.UNIFORM, CPU_TIME, (factor > 1) ? Verdict.SLOWER : Verdict.FASTER,
					Cause.UNIFORM, cpu, cpu, null, this.speed.cpuUnits(), List.of());
		}

		/** The largest of the threshold's share of what is expected, the floor, and the spread's part. */
		private static double allowed(RegressionThreshold threshold, double floorMs, double expectedMs, double spreadMs) {
			return Math.max(Math.max(threshold.relative() * expectedMs, floorMs), spreadMs);
		}

		private static double orZero(double value) {
			return Double.isNaN(value) ? 0 : value;
		}

	}

	/**
	 * How a comparison judges.
	 *
	 * @param threshold the threshold of every unit without its own
	 * @param perStage thresholds of their own, by stage name; a phase, step or bean takes
	 * {@code beans_instantiated}'s
	 * @param spreadMultiplier how many of its baseline spreads a unit may move (0: the spread
	 * is not used)
	 * @param speedCorrection whether the machine's load is taken out (off: times are judged as
	 * measured, for a dedicated quiet runner)
	 */
	public record Settings(RegressionThreshold threshold, Map<String, RegressionThreshold> perStage,
			double spreadMultiplier, boolean speedCorrection) {

		/** 25%, 200 ms, 3 spreads, the speed factor on. */
		public static final Settings DEFAULT = new Settings(RegressionThreshold.DEFAULT, Map.of(), 3, true);

		public Settings {
			Objects.requireNonNull(threshold, "threshold");
			perStage = Map.copyOf(perStage);
			if (!(spreadMultiplier >= 0) || Double.isInfinite(spreadMultiplier)) {
				throw new IllegalArgumentException(
						"The spread multiplier must be a number of at least 0, not " + spreadMultiplier);
			}
		}

		RegressionThreshold thresholdOf(Kind kind, String name) {
			String stage = switch (kind) {
				case STAGE -> name;
				case PHASE, STEP, BEAN -> StageNames.BEANS_INSTANTIATED;
				default -> null;
			};
			return (stage != null) ? this.perStage.getOrDefault(stage, this.threshold) : this.threshold;
		}

		/** {@code +25%, at least 200 ms, or 3× its baseline spread, in its work or its waiting}. */
		String describe() {
			return this.threshold
					+ ((this.spreadMultiplier > 0) ? ", or " + trim(this.spreadMultiplier) + "× its baseline spread" : "")
					+ ", in its work or its waiting" + (this.speedCorrection ? ", with the machine's load taken out" : "");
		}

	}

	/**
	 * A run's speed against the baseline, per server or pooled.
	 *
	 * @param contention the contention this run met (wall time per CPU second of a working thread)
	 * @param usualContention the baseline's usual contention
	 * @param cpuFactor the median of the units' CPU time over the baseline's ({@code NaN} when
	 * fewer than {@value #MIN_CPU_UNITS} have CPU times)
	 * @param cpuUnits how many units that median is of
	 */
	public record Speed(Contention contention, double usualContention, double cpuFactor, int cpuUnits) {

		/**
		 * The speed factor: how much longer a working unit takes in this run than in the
		 * baseline, from the load alone (1 when unknown).
		 */
		public double factor() {
			return this.contention.median() / this.usualContention;
		}

		/** The factor at the low end of this run's contention. */
		public double low() {
			return this.contention.low() / this.usualContention;
		}

		/** The factor at the high end of this run's contention. */
		public double high() {
			return this.contention.high() / this.usualContention;
		}

	}

	/** What a change is of. */
	public enum Kind {

		/** A server's spawn→ready. */
		SERVER,

		/** One of its stages. */
		STAGE,

		/** One of its slow beans. */
		BEAN,

		/** One of Spring's phases ({@code spring.context.*}, the web server's creation) or {@code startup.singletons}. */
		PHASE,

		/** A step the application started itself ({@code ApplicationStartup.start}). */
		STEP,

		/** A server's CPU time, grown (or shrunk) alike in all its units. */
		UNIFORM;

		/** What a slow step of the report is, by its {@code ApplicationStartup} step name. */
		static Kind ofStep(String step) {
			if (step.equals("spring.beans.instantiate")) {
				return BEAN;
			}
			return (step.startsWith("spring.") || step.equals("startup.singletons")) ? PHASE : STEP;
		}

		String word() {
			return (this == UNIFORM) ? "uniformly" : name().toLowerCase(Locale.ROOT);
		}

		/**
		 * Whether its CPU time is the whole process's (all threads, read from the JVM's counters)
		 * rather than one thread's: a stage's and spawn→ready's.
		 */
		boolean processWide() {
			return this == SERVER || this == STAGE;
		}

		/**
		 * Whether it spans moments of different contention (spawn→ready, a stage, one of Spring's
		 * phases: seconds, from a JVM's start while its fleet's other JVMs start too to its beans),
		 * which the run's contention, read from its beans and steps, does not describe.
		 */
		boolean coarse() {
			return this == SERVER || this == STAGE || this == PHASE;
		}

	}

	/** Which way a unit moved, beyond its allowance or not. */
	public enum Verdict {

		SLOWER, FASTER, SAME

	}

	/** What moved a unit beyond its allowance. */
	public enum Cause {

		/** Its CPU time. */
		WORK,

		/** Its waiting: wall time that the run's contention does not explain. */
		WAIT,

		/** Both. */
		WORK_AND_WAIT,

		/** Its wall time (no CPU times to tell work from waiting). */
		WALL,

		/** It is in no baseline run. */
		NEW,

		/** The server's CPU time, alike in every unit. */
		UNIFORM,

		/** Nothing: within its allowance. */
		NONE

	}

	/**
	 * One measure of a unit, before and after.
	 *
	 * @param beforeMs the baseline's median
	 * @param afterMs this run's
	 * @param expectedMs what this run should show: the baseline's, at this run's load
	 * @param allowedMs how far from {@code expectedMs} it may be
	 * @param spreadMs its spread over the baseline runs, {@code NaN} with fewer than two
	 */
	public record Times(double beforeMs, double afterMs, double expectedMs, double allowedMs, double spreadMs) {

		/** How much more than expected (negative: less). */
		public double excessMs() {
			return this.afterMs - this.expectedMs;
		}

	}

	/**
	 * One unit, before and after.
	 *
	 * @param server the server
	 * @param kind what the unit is
	 * @param name {@link #SPAWN_TO_READY}, the stage's, phase's, step's or bean's name, or
	 * {@link #CPU_TIME}
	 * @param verdict whether it moved beyond its allowance, and which way
	 * @param cause what moved it (or {@link Cause#NONE})
	 * @param wall its wall time (for {@link Kind#UNIFORM}: its stages' CPU time)
	 * @param cpu its CPU time, {@code null} when unknown
	 * @param waiting its waiting (see {@link ReportComparison}), {@code null} when its CPU time is
	 * unknown
	 * @param runs how many baseline runs have it (for {@link Kind#UNIFORM}: how many units its
	 * CPU factor is the median of)
	 * @param explainedBy the regressed units inside it that account for its growth (their
	 * {@link #unit()}), empty when none does
	 */
	public record Change(String server, Kind kind, String name, Verdict verdict, Cause cause, Times wall,
			@Nullable Times cpu, @Nullable Times waiting, int runs, List<String> explainedBy) {

		public Change {
			explainedBy = List.copyOf(explainedBy);
		}

		/** Whether it fails the gate: slower beyond its allowance. */
		public boolean regression() {
			return this.verdict == Verdict.SLOWER;
		}

		/** The baseline's median wall time. */
		public double beforeMs() {
			return this.wall.beforeMs();
		}

		/** This run's wall time. */
		public double afterMs() {
			return this.wall.afterMs();
		}

		/** The wall time it should have taken at this run's load. */
		public double expectedMs() {
			return this.wall.expectedMs();
		}

		/** {@code bean modelLoader}, {@code spawn→ready}. */
		public String unit() {
			return (this.kind == Kind.SERVER) ? this.name : this.kind.word() + " " + this.name;
		}

		Change explainedBy(List<String> parts) {
			return new Change(this.server, this.kind, this.name, this.verdict, this.cause, this.wall, this.cpu,
					this.waiting, this.runs, parts);
		}

		/** {@code model-1 bean modelLoader waited +1.0 s}, for the summary. */
		String culprit() {
			String who = this.server + " " + unit();
			return switch (this.cause) {
				case UNIFORM -> this.server + " uniformly (CPU time " + times(this.wall.afterMs() / this.wall.beforeMs())
						+ ")";
				case NEW -> who + " (new, " + format(this.wall.afterMs()) + ")";
				case WORK -> who + " (CPU time " + signed(this.cpu.excessMs()) + percent(this.cpu) + ")";
				case WAIT -> who + " (waited " + signed(this.waiting.excessMs()) + ")";
				case WORK_AND_WAIT -> who + " (CPU time " + signed(this.cpu.excessMs()) + percent(this.cpu) + ", waited "
						+ signed(this.waiting.excessMs()) + ")";
				default -> who + " (" + signed(this.wall.excessMs()) + percent(this.wall) + ")";
			};
		}

		/**
		 * {@code REGRESSED model-1 bean modelLoader 1.5 s → 2.5 s: waited +1.0 s more than the baseline's 1.5 s
		 * (median of 3 runs ±8 ms), allowed +375 ms; ...}.
		 */
		public String line() {
			String word = regression() ? "REGRESSED" : (this.verdict == Verdict.FASTER) ? "faster" : "same";
			return String.format(Locale.ROOT, "%-9s %s %s", word, this.server, unit()) + " " + detail();
		}

		/** {@link #line()} after the unit: by how much, against which baseline statistic, allowed how much. */
		public String detail() {
			if (this.kind == Kind.UNIFORM) {
				return String.format(Locale.ROOT,
						"%s in its stages, phases and beans alike (median of %d units; its stages %s → %s),"
								+ " allowed ×%.2f to ×%.2f: the code or the JVM's configuration (class-data sharing, JIT"
								+ " flags) or the CPU itself changed, not the machine's load",
						times(this.wall.afterMs() / this.wall.beforeMs()), this.runs, format(this.wall.beforeMs()),
						format(this.wall.afterMs()), 1 - this.wall.allowedMs() / this.wall.beforeMs(),
						1 + this.wall.allowedMs() / this.wall.beforeMs());
			}
			if (this.cause == Cause.NEW) {
				return "new, " + format(this.wall.afterMs()) + ((this.cpu != null) ? " (CPU time " + format(this.cpu.afterMs())
						+ ", waited at least " + format(this.waiting.afterMs()) + ")" : "")
						+ ": in no baseline run (under the bean-span threshold there, or not there); allowed "
						+ format(this.cpu != null ? this.cpu.allowedMs() : this.wall.allowedMs()) + explanation();
			}
			StringBuilder text = new StringBuilder(format(this.wall.beforeMs())).append(" → ")
				.append(format(this.wall.afterMs()))
				.append(": ")
				.append(statistic());
			if (this.cpu == null) {
				text.append(String.format(Locale.ROOT, "; %s %s the %s expected at this run's load (CPU time unknown: the"
						+ " %s end of waiting and working), allowed ±%s", signed(this.wall.excessMs()),
						(this.wall.excessMs() >= 0) ? "over" : "under", format(this.wall.expectedMs()),
						(this.verdict == Verdict.FASTER) ? "faster" : "slower", format(this.wall.allowedMs())));
				return text.append(explanation()).toString();
			}
			boolean process = this.kind == Kind.STAGE || this.kind == Kind.SERVER;
			text.append((process && this.verdict != Verdict.FASTER) ? "; CPU time beyond the JIT's and GC's " : "; CPU time ")
				.append(format(this.cpu.afterMs())).append(" against ").append(format(this.cpu.expectedMs()))
				.append(" expected (").append(signed(this.cpu.excessMs())).append(percent(this.cpu)).append(", allowed ±")
				.append(format(this.cpu.allowedMs())).append(')');
			text.append("; waited ").append((this.verdict == Verdict.FASTER) ? "at most " : "at least ")
				.append(format(this.waiting.afterMs())).append(" against ").append(format(this.waiting.expectedMs()))
				.append(" (").append(signed(this.waiting.excessMs())).append(", allowed ±").append(format(this.waiting.allowedMs()))
				.append(')');
			return text.append(explanation()).toString();
		}

		/** Against which baseline statistic. */
		private String statistic() {
			String spread = Double.isNaN(this.wall.spreadMs()) ? "" : " ±" + format(this.wall.spreadMs());
			return ((this.runs == 1) ? "the baseline run's" : "baseline median of " + this.runs + " runs" + spread)
					+ ((this.cpu != null) ? String.format(Locale.ROOT, " (%s CPU, %s waiting)", format(this.cpu.beforeMs()),
							format(this.waiting.beforeMs())) : "");
		}

		private String explanation() {
			return this.explainedBy.isEmpty() ? "" : "; accounted for by " + String.join(", ", this.explainedBy);
		}

		private static String percent(Times times) {
			return (times.expectedMs() > 0) ? String.format(Locale.ROOT, ", %+.0f%%", 100 * times.excessMs() / times.expectedMs())
					: "";
		}

		private static String signed(double ms) {
			return ((ms >= 0) ? "+" : "-") + format(Math.abs(ms));
		}

	}

}
