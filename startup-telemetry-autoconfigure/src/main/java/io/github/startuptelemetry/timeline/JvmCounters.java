package io.github.startuptelemetry.timeline;


/**
 * Cumulative JVM counters at one moment, or their change over a stage: what a stage spent its
 * wall time on. A counter the JVM does not offer is {@link #UNAVAILABLE} and stays so in any
 * difference.
 *
 * @param cpuNs process CPU time, user and system, in nanoseconds
 * @param gcMs time the garbage collectors report, summed over collectors, in milliseconds
 * @param gcCount collections, summed over collectors
 * @param jitMs time spent compiling by the JIT, in milliseconds
 * @param classesLoaded classes loaded
 */
public record JvmCounters(long cpuNs, long gcMs, long gcCount, long jitMs, long classesLoaded) {

	/** A counter the JVM does not offer. */
	public static final long UNAVAILABLE = -1;

	/** The counters at the JVM's start: none of them has counted anything yet. */
	public static final JvmCounters ZERO = new JvmCounters(0, 0, 0, 0, 0);

	/** What changed from {@code earlier} to this, per counter; never negative. */
	public JvmCounters since(JvmCounters earlier) {
		return new JvmCounters(delta(this.cpuNs, earlier.cpuNs), delta(this.gcMs, earlier.gcMs),
				delta(this.gcCount, earlier.gcCount), delta(this.jitMs, earlier.jitMs),
				delta(this.classesLoaded, earlier.classesLoaded));
	}

	/** The sum of two differences, for a total over stages. */
	public JvmCounters plus(JvmCounters other) {
		return new JvmCounters(sum(this.cpuNs, other.cpuNs), sum(this.gcMs, other.gcMs),
				sum(this.gcCount, other.gcCount), sum(this.jitMs, other.jitMs),
				sum(this.classesLoaded, other.classesLoaded));
	}

	public double cpuMs() {
		return (this.cpuNs < 0) ? UNAVAILABLE : this.cpuNs / 1_000_000.0;
	}

	/** The compact form of the log line: {@code cpu=812ms gc=3/41ms jit=230ms classes=5123}. */
	public String compact() {
		StringBuilder text = new StringBuilder();
		if (this.cpuNs >= 0) {
			text.append("cpu=").append(Math.round(cpuMs())).append("ms ");
		}
		if (this.gcCount >= 0 && this.gcMs >= 0) {
			text.append("gc=").append(this.gcCount).append('/').append(this.gcMs).append("ms ");
		}
		if (this.jitMs >= 0) {
			text.append("jit=").append(this.jitMs).append("ms ");
		}
		if (this.classesLoaded >= 0) {
			text.append("classes=").append(this.classesLoaded);
		}
		return text.toString().strip();
	}

	private static long delta(long now, long earlier) {
		return (now < 0 || earlier < 0) ? UNAVAILABLE : Math.max(0, now - earlier);
	}

	private static long sum(long a, long b) {
		return (a < 0 || b < 0) ? UNAVAILABLE : a + b;
	}

}
