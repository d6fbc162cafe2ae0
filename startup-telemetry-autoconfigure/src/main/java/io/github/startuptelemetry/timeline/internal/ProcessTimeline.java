package io.github.startuptelemetry.timeline.internal;

import java.util.Optional;
import java.util.function.BooleanSupplier;


/**
 * This process's own startup stages, as far as they have run, registered in the application
 * context as {@value #BEAN_NAME} when the context is prepared. They are reported once: as a
 * server ({@code gym.server.startup}) unless a supervisor claimed them first for its
 * {@code gym.startup}.
 */
public final class ProcessTimeline {

	/** The name under which this process's timeline is registered in the application context. */
	public static final String BEAN_NAME = "startupTelemetryProcessTimeline";

	/**
	 * The name of a test run's {@code Consumer<ServerTimeline>} in a test's application context
	 * (startup-telemetry-test registers it before the context is refreshed): the startup is handed
	 * to it, once ready or failed, in place of the server's own outputs (its spans, histograms,
	 * log line, JSON report and {@code Consumer<ServerTimeline>} beans), so that a suite that
	 * starts thirty contexts reports them once, as one run.
	 */
	public static final String TEST_RUN_BEAN_NAME = "startupTelemetryTestRun";

	private final StageTimeline timeline;

	private final BooleanSupplier claim;

	/**
	 * @param timeline the process's stages
	 * @param claim takes them over, once: true for the first caller only
	 */
	public ProcessTimeline(StageTimeline timeline, BooleanSupplier claim) {
		this.timeline = timeline;
		this.claim = claim;
	}

	/**
	 * Take the stages over for a supervisor's report, so that the process is not also reported
	 * as a server. Only the first claim succeeds, and the server report at ready is a claim too.
	 * @return the stages, still running (the supervisor marks its own), or empty when they were
	 * already taken
	 */
	public Optional<StageTimeline> claim() {
		return this.claim.getAsBoolean() ? Optional.of(this.timeline) : Optional.empty();
	}

}
