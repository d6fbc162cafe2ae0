package io.github.startuptelemetry.report.gate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.startuptelemetry.report.gate.ReportTimes.UnitTimes;

/**
 * How busy the machine was for one server in one run, read from its own JVM counters: the wall
 * time its beans and steps took per second of their thread's CPU time, at its low, usual and
 * high end.
 *
 * @param low the 20th percentile of wall time per CPU second
 * @param median the median
 * @param high the 80th percentile
 * @param units how many beans and steps it is read from (0: unknown, every value 1)
 */
public record Contention(double low, double median, double high, int units) {

	/** No CPU times: judged as if the machine were idle in both runs. */
	public static final Contention UNKNOWN = new Contention(1, 1, 1, 0);

	/** A unit with less thread CPU time than this is too coarse to read the contention from. */
	static final double MIN_CPU_MS = 20;

	/** Fewer units than this tell nothing. */
	static final int MIN_UNITS = 5;

	/**
	 * Each server's contention in one run, a server with too few units taking the run's,
	 * pooled over all its servers.
	 * @param run server → unit key → unit
	 * @return server → contention
	 */
	static Map<String, Contention> of(Map<String, Map<String, UnitTimes>> run) {
		Contention fleet = pooled(run);
		Map<String, Contention> contention = new LinkedHashMap<>();
		run.forEach((server, units) -> {
			List<Double> ratios = ratios(units);
			contention.put(server, (ratios.size() >= MIN_UNITS) ? of(ratios) : fleet);
		});
		return contention;
	}

	/** The run's contention over all its servers' units together. */
	static Contention pooled(Map<String, Map<String, UnitTimes>> run) {
		List<Double> pooled = new ArrayList<>();
		run.values().forEach((units) -> pooled.addAll(ratios(units)));
		return of(pooled);
	}

	/** Wall time per CPU second of each bean, phase and step with enough CPU time (never below 1). */
	private static List<Double> ratios(Map<String, UnitTimes> units) {
		List<Double> ratios = new ArrayList<>();
		for (UnitTimes unit : units.values()) {
			if (!unit.kind().processWide() && unit.cpuMs() != null && unit.cpuMs() >= MIN_CPU_MS) {
				ratios.add(Math.max(1, unit.wallMs() / unit.cpuMs()));
			}
		}
		return ratios;
	}

	private static Contention of(List<Double> ratios) {
		if (ratios.size() < MIN_UNITS) {
			return UNKNOWN;
		}
		double[] sorted = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		return new Contention(quantile(sorted, 0.2), quantile(sorted, 0.5), quantile(sorted, 0.8), sorted.length);
	}

	/** Linear interpolation between the closest ranks. */
	private static double quantile(double[] sorted, double q) {
		double at = q * (sorted.length - 1);
		int below = (int) Math.floor(at);
		int above = Math.min(sorted.length - 1, below + 1);
		return sorted[below] + (at - below) * (sorted[above] - sorted[below]);
	}

	/** Whether it was read from the run (or is {@link #UNKNOWN}). */
	public boolean known() {
		return this.units > 0;
	}

}
