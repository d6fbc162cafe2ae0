package io.github.startuptelemetry.report.gate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.report.gate.ReportTimes.ServerTimes;
import io.github.startuptelemetry.report.gate.ReportTimes.UnitTimes;

/**
 * What the baseline runs say about each unit, with each run's load taken out: per unit the
 * median and spread of its work and its waiting, and per server its usual contention and CPU
 * factor (docs/ci.md, how the gate judges a unit).
 */
final class BaselineModel {

	/** Units with less baseline CPU time than this are too coarse for the CPU factor. */
	static final double MIN_FACTOR_CPU_MS = 50;

	/** A CPU factor from fewer units than this judges nothing. */
	static final int MIN_CPU_UNITS = 3;

	/** Per baseline run, per server, per unit key. */
	private final List<Map<String, Map<String, UnitTimes>>> runs;

	/** Per baseline run, per server. */
	private final List<Map<String, Contention>> contention;

	/** Per server: the median over the baseline runs of their median contention. */
	private final Map<String, Double> usualContention = new LinkedHashMap<>();

	/** Per server, per unit key. */
	private final Map<String, Map<String, Stat>> stats = new LinkedHashMap<>();

	BaselineModel(List<List<ServerTimes>> baselines) {
		this.runs = baselines.stream().map(BaselineModel::index).toList();
		this.contention = this.runs.stream().map(Contention::of).toList();
		Map<String, List<Double>> medians = new LinkedHashMap<>();
		this.contention.forEach((run) -> run.forEach((server, contention) -> {
			if (contention.known()) {
				medians.computeIfAbsent(server, (name) -> new ArrayList<>()).add(contention.median());
			}
		}));
		medians.forEach((server, values) -> this.usualContention.put(server, Robust.median(values)));
		Map<String, Map<String, Samples>> samples = new LinkedHashMap<>();
		for (int i = 0; i < this.runs.size(); i++) {
			Map<String, Contention> contention = this.contention.get(i);
			this.runs.get(i).forEach((server, units) -> {
				Contention met = contention.getOrDefault(server, Contention.UNKNOWN);
				double usual = met.known() ? usualContention(server) : 1;
				units.forEach((key, unit) -> samples.computeIfAbsent(server, (name) -> new LinkedHashMap<>())
					.computeIfAbsent(key, (name) -> new Samples())
					.add(unit, met, usual));
			});
		}
		samples.forEach((server, units) -> units.forEach((key, unit) -> this.stats
			.computeIfAbsent(server, (name) -> new LinkedHashMap<>())
			.put(key, unit.stat())));
	}

	/** A report's servers as server → unit key → unit (the first of a server named twice). */
	static Map<String, Map<String, UnitTimes>> index(List<ServerTimes> servers) {
		Map<String, Map<String, UnitTimes>> index = new LinkedHashMap<>();
		for (ServerTimes server : servers) {
			if (!index.containsKey(server.name())) {
				Map<String, UnitTimes> units = new LinkedHashMap<>();
				server.units().forEach((unit) -> units.putIfAbsent(unit.key(), unit));
				index.put(server.name(), units);
			}
		}
		return index;
	}

	/** A unit's waiting: its wall time less its CPU time stretched by {@code contention}, never below 0. */
	static double waitMs(double wallMs, double cpuMs, double contention) {
		return Math.max(0, wallMs - cpuMs * contention);
	}

	/** Whether the baseline has the server at all. */
	boolean has(String server) {
		return this.stats.containsKey(server);
	}

	/** The baseline's view of one unit of a server, or {@code null} when no baseline run has it. */
	@Nullable Stat stat(String server, String key) {
		return this.stats.getOrDefault(server, Map.of()).get(key);
	}

	/** Whether every baseline run that has the server knows its contention. */
	boolean contentionKnown(String server) {
		return this.usualContention.containsKey(server) && this.contention.stream()
			.allMatch((run) -> !run.containsKey(server) || run.get(server).known());
	}

	/** The server's usual contention in the baseline (1: unknown). */
	double usualContention(String server) {
		return this.usualContention.getOrDefault(server, 1.0);
	}

	/** Each baseline run's contention per server. */
	List<Map<String, Contention>> contention() {
		return this.contention;
	}

	/**
	 * A run's CPU factor for one server: the median of its units' CPU time over the baseline's,
	 * over the units with enough of it; {@code NaN} with fewer than
	 * {@link #MIN_CPU_UNITS}.
	 * @return the factor and how many units it is the median of
	 */
	double[] cpuFactor(String server, Map<String, UnitTimes> units) {
		List<Double> ratios = new ArrayList<>();
		units.forEach((key, unit) -> {
			Stat stat = stat(server, key);
			if (stat != null && unit.cpuMs() != null && stat.cpuMs() >= MIN_FACTOR_CPU_MS) {
				ratios.add(unit.cpuMs() / stat.cpuMs());
			}
		});
		return new double[] { (ratios.size() >= MIN_CPU_UNITS) ? Robust.median(ratios) : Double.NaN,
				ratios.size() };
	}

	/** The spread of a server's CPU factor over the baseline runs, {@code NaN} with fewer than two. */
	double cpuFactorSpread(String server) {
		List<Double> factors = new ArrayList<>();
		for (Map<String, Map<String, UnitTimes>> run : this.runs) {
			Map<String, UnitTimes> units = run.get(server);
			if (units != null) {
				double factor = cpuFactor(server, units)[0];
				if (!Double.isNaN(factor)) {
					factors.add(factor);
				}
			}
		}
		return Robust.spread(factors);
	}

	/**
	 * One unit in the baseline.
	 *
	 * @param runs how many baseline runs have it
	 * @param wallMs the median of its wall times, each at the baseline's usual contention (its work
	 * moved there; the whole of it without CPU times)
	 * @param wallSpreadMs their spread ({@link Robust#spread}; {@code NaN} with one run)
	 * @param cpuMs the median of its CPU times, {@code NaN} when unknown
	 * @param cpuSpreadMs their spread
	 * @param waitMs the median of its waiting ({@link #waitMs}) at each run's low contention (a
	 * coarse unit's at none: {@link Change.Kind#coarse()}): the most it can have waited;
	 * {@code NaN} when its CPU time is unknown
	 * @param waitSpreadMs their spread
	 * @param leastWaitMs the median of its waiting at each run's high contention: the least it
	 * can have waited
	 * @param ownCpuMs the median of its own CPU time ({@link UnitTimes#ownCpuMs()}: a stage's
	 * less its JIT and GC time), {@code NaN} when unknown
	 */
	record Stat(int runs, double wallMs, double wallSpreadMs, double cpuMs, double cpuSpreadMs, double waitMs,
			double waitSpreadMs, double leastWaitMs, double ownCpuMs) {

		boolean cpuKnown() {
			return !Double.isNaN(this.cpuMs);
		}

	}

	/** One unit's values over the baseline runs. */
	private static final class Samples {

		private final List<Double> walls = new ArrayList<>();

		private final List<Double> cpus = new ArrayList<>();

		private final List<Double> waits = new ArrayList<>();

		private final List<Double> leastWaits = new ArrayList<>();

		private final List<Double> ownCpus = new ArrayList<>();

		/** Its wall time at the baseline's usual contention: its work moved there, or the whole of it without CPU times. */
		void add(UnitTimes unit, Contention met, double usual) {
			this.walls.add((unit.cpuMs() != null) ? Math.max(0, unit.wallMs() + unit.cpuMs() * (usual - met.median()))
					: unit.wallMs() * usual / met.median());
			if (unit.cpuMs() != null) {
				this.cpus.add(unit.cpuMs());
				this.waits.add(waitMs(unit.wallMs(), unit.cpuMs(), unit.kind().coarse() ? 1 : met.low()));
				this.leastWaits.add(waitMs(unit.wallMs(), unit.cpuMs(), met.high()));
				this.ownCpus.add(unit.ownCpuMs());
			}
		}

		Stat stat() {
			return new Stat(this.walls.size(), Robust.median(this.walls), Robust.spread(this.walls),
					Robust.median(this.cpus), Robust.spread(this.cpus), Robust.median(this.waits),
					Robust.spread(this.waits), Robust.median(this.leastWaits), Robust.median(this.ownCpus));
		}

	}

}
