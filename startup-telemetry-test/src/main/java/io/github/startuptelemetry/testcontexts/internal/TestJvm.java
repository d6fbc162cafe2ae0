package io.github.startuptelemetry.testcontexts.internal;

import org.jspecify.annotations.Nullable;

/**
 * One test JVM of a run (a Surefire fork, a Gradle test worker).
 *
 * @param pid its process id
 * @param startNs when it started (epoch ns)
 * @param firstContextNs when its first context began to start, or {@code -1} without one
 * @param endNs when its run ended (its last test, or its shutdown)
 * @param testClasses how many test classes it ran that used a context
 * @param traceId its run's trace, or {@code null} when none was exported
 */
public record TestJvm(long pid, long startNs, long firstContextNs, long endNs, int testClasses,
		@Nullable String traceId) {

	/** From its start to its first context's: the JVM's own start, the test engine's discovery. */
	public long beforeFirstContextNs() {
		return (this.firstContextNs >= 0) ? Math.max(0, this.firstContextNs - this.startNs) : 0;
	}

	public TestJvm withTraceId(@Nullable String traceId) {
		return new TestJvm(this.pid, this.startNs, this.firstContextNs, this.endNs, this.testClasses, traceId);
	}

}
