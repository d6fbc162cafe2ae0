package io.github.startuptelemetry.internal.supervisor;

/**
 * A {@code SupervisorStartup} whose {@code serverReady} comes in two steps, for a caller that
 * holds a lock others wait on (the fleet run): {@link #claimReady} claims the readiness (the
 * server's outcome and end are fixed, and only the first call of any form counts) and returns
 * at once; the step it returns does the rest (the span's attributes and end, the metrics), to
 * run outside that lock. {@code finish()} and {@code abort} run any step not run yet before
 * they close the startup, so every server's span still ends before the root's; the step then
 * does nothing. A startup that is not one of these is told {@code serverReady} under the lock.
 */
public interface ReadyClaims {

	/**
	 * @param name the server
	 * @param source {@code callback} or {@code probe}
	 * @param clockOffsetMs the server's clock minus the supervisor's, or NaN
	 * @param clockUncertaintyMs how far the offset may be off, or NaN
	 * @param readyEpochNs when the supervisor learnt it, on its own clock (epoch nanoseconds)
	 * @return the rest of the step; run it once, on any thread (it never throws)
	 */
	Runnable claimReady(String name, String source, double clockOffsetMs, double clockUncertaintyMs,
			long readyEpochNs);

}
