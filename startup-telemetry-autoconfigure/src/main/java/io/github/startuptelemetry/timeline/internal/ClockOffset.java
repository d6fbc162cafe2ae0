package io.github.startuptelemetry.timeline.internal;

/**
 * How far a server's wall clock is from its supervisor's, measured by Cristian's method (to
 * within half a round trip), to move the supervisor's stamps onto the server's clock.
 *
 * @param offsetNs the server's clock minus the supervisor's
 * @param uncertaintyNs how far {@code offsetNs} may be off, never negative
 */
public record ClockOffset(long offsetNs, long uncertaintyNs) {

	/** How far after the JVM's (millisecond) start time a stamp may lie and still be clamped to it. */
	static final long TOLERANCE_NS = 2_000_000L;

	public ClockOffset {
		if (uncertaintyNs < 0) {
			throw new IllegalArgumentException("uncertainty must not be negative");
		}
	}

	/** The offset from one round trip: {@code supervisorNs} answered between {@code sentNs} and {@code receivedNs}. */
	public static ClockOffset cristian(long sentNs, long supervisorNs, long receivedNs) {
		long roundTrip = Math.max(0, receivedNs - sentNs);
		return new ClockOffset(sentNs + roundTrip / 2 - supervisorNs, (roundTrip + 1) / 2);
	}

	/**
	 * Whether the clocks differ by more than the measurement and the JVM's millisecond start
	 * time can explain. Only then is a supervisor's time moved onto the server's clock: on one
	 * host nothing changes.
	 */
	public boolean significant() {
		return Math.abs(this.offsetNs) > this.uncertaintyNs + TOLERANCE_NS;
	}

	/** A time of the supervisor's clock on the server's, when {@link #significant()}. */
	public long toServerClock(long supervisorNs) {
		return significant() ? supervisorNs + this.offsetNs : supervisorNs;
	}

	/** A time of the server's clock on the supervisor's, when {@link #significant()}. */
	public long toSupervisorClock(long serverNs) {
		return significant() ? serverNs - this.offsetNs : serverNs;
	}

	public double offsetMs() {
		return this.offsetNs / 1_000_000.0;
	}

	public double uncertaintyMs() {
		return this.uncertaintyNs / 1_000_000.0;
	}

}
