package io.github.startuptelemetry.report.gate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.report.gate.BaselineModel.Stat;
import io.github.startuptelemetry.report.gate.Change.Cause;
import io.github.startuptelemetry.report.gate.Change.Kind;
import io.github.startuptelemetry.report.gate.Change.Times;
import io.github.startuptelemetry.report.gate.Change.Verdict;
import io.github.startuptelemetry.report.gate.ReportTimes.ServerTimes;
import io.github.startuptelemetry.report.gate.ReportTimes.UnitTimes;

/**
 * The regression gate's method: each unit of a run judged against the baseline, its work and its
 * waiting apart, with the machine's load taken out (docs/ci.md, how the gate judges a unit).
 */
final class RegressionJudge {

	/** A unit that waited at most this share of its time in the baseline only worked there. */
	static final double WORKING_SHARE = 0.1;

	/** The percentile of the working units' extra waiting that is this run's stall. */
	static final int STALL_PERCENTILE = 95;

	private RegressionJudge() {
	}

	/**
	 * Judge {@code current} against {@code baselines}.
	 * @param baselines the baseline reports' servers, one list per report
	 * @param current this startup's servers
	 * @param settings thresholds and switches
	 * @return the run's speed and every unit's change
	 */
	static Judgement judge(List<List<ServerTimes>> baselines, List<ServerTimes> current, Settings settings) {
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
		changes.addAll(newContexts(run, baseline, fleet, settings, stallMs));
		return new Judgement(fleet, serverSpeeds, stallMs, changes);
	}

	/**
	 * The test contexts of this run in no baseline run (a test report's: a server whose top unit
	 * is a {@link Kind#CONTEXT}), each judged as a unit that is new, at the run's speed: a test
	 * configuration that could not reuse an existing context costs the suite a whole startup. A
	 * fleet's new server is a change of its configuration, not judged.
	 */
	private static List<Change> newContexts(Map<String, Map<String, UnitTimes>> run, BaselineModel baseline,
			Speed speed, Settings settings, double stallMs) {
		List<Change> changes = new ArrayList<>();
		String key = UnitTimes.key(Kind.CONTEXT, Change.CONTEXT_STARTUP);
		run.forEach((name, units) -> {
			UnitTimes context = units.get(key);
			if (context != null && !baseline.has(name)) {
				changes.add(new Judge(name, speed, settings, stallMs).added(context,
						settings.thresholdOf(Kind.CONTEXT, context.name())));
			}
		});
		return changes;
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
				if (!unit.kind().processWide() && unit.cpuMs() != null && stat != null
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
			String key = UnitTimes.key(Kind.SERVER, Change.SPAWN_TO_READY);
			if (!units.containsKey(key)) {
				// a test context's startup is its whole, as spawn→ready is a server's
				key = UnitTimes.key(Kind.CONTEXT, Change.CONTEXT_STARTUP);
			}
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
			return new Change(this.server, Kind.UNIFORM, Change.CPU_TIME, (factor > 1) ? Verdict.SLOWER : Verdict.FASTER,
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
	 * What the judging found.
	 *
	 * @param speed this run's speed against the baseline, pooled over its servers
	 * @param serverSpeeds per server
	 * @param stallMs how much longer than in the baseline 5% of this run's working units waited
	 * @param changes every unit judged, in server and report order
	 */
	record Judgement(Speed speed, Map<String, Speed> serverSpeeds, double stallMs, List<Change> changes) {

	}

}
