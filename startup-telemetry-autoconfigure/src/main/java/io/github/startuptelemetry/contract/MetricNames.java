package io.github.startuptelemetry.contract;

/**
 * Metric names and their tag keys. Both are histograms in milliseconds; the server-identifying
 * tags are the span attributes of the same name ({@link SpanAttributes}).
 */
public final class MetricNames {

	/** Server side: one value per stage of a server's own startup. */
	public static final String STAGE_DURATION = "gym.server.startup_stage_duration_ms";

	/** Supervisor side: each server's spawn to first healthy probe (or to the abort). */
	public static final String STARTUP_DURATION = "gym.server.startup_duration_ms";

	/** Tag of {@link #STAGE_DURATION}: the stage's name. */
	public static final String STAGE_TAG = "stage";

	private MetricNames() {
	}

}
