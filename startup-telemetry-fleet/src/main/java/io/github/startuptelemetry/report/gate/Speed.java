package io.github.startuptelemetry.report.gate;

/**
 * A run's speed against the baseline, per server or pooled.
 *
 * @param contention the contention this run met (wall time per CPU second of a working thread)
 * @param usualContention the baseline's usual contention
 * @param cpuFactor the median of the units' CPU time over the baseline's ({@code NaN} when
 * fewer than {@value BaselineModel#MIN_CPU_UNITS} have CPU times)
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
