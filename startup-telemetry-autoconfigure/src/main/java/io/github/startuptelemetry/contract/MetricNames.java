package io.github.startuptelemetry.contract;

import java.util.Map;
import java.util.Set;

/**
 * Metric names and their tag keys, as NeMo Gym records them ({@code gym_metrics.py}): both are
 * histograms in {@link #UNIT}, with Gym's explicit boundaries {@link #BOUNDARIES_MS}; the
 * server-identifying tags are the span attributes of the same name ({@link SpanAttributes}),
 * {@code nemo.gym.server.type} omitted when unknown.
 */
public final class MetricNames {

	/** Server side: one value per stage of a server's own startup. */
	public static final String STAGE_DURATION = "gym.server.startup_stage_duration_ms";

	/** Supervisor side: each server's spawn to first healthy probe (or to the abort). */
	public static final String STARTUP_DURATION = "gym.server.startup_duration_ms";

	/** Tag of {@link #STAGE_DURATION}: the stage's name, as Gym tags it. */
	public static final String STAGE_TAG = SpanAttributes.STAGE;

	/**
	 * The same stage name under the tag this starter used before {@link #STAGE_TAG}; still
	 * recorded beside it so existing queries keep working. Deprecated: it goes away in the next
	 * release.
	 */
	public static final String LEGACY_STAGE_TAG = "stage";

	/** The unit of both histograms, as Gym declares it. */
	public static final String UNIT = "ms";

	/** Gym's description of {@link #STARTUP_DURATION}, word for word. */
	public static final String STARTUP_DURATION_DESCRIPTION = "Wall-clock time from spawning one server to its first answered health probe.";

	/** Description of {@link #STAGE_DURATION} (Gym's ends at uvicorn.run, ours at the JVM's stages). */
	public static final String STAGE_DURATION_DESCRIPTION = "Wall-clock time of one stage of a server's startup, from spawn to ready.";

	/** Gym's explicit bucket boundaries of both histograms, in milliseconds ({@code SERVER_STARTUP_BOUNDARIES_MS}). */
	public static final double[] BOUNDARIES_MS = { 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 120000,
			300000, 600000, 1800000, 3600000 };

	/**
	 * The tags Gym records as bools, by metric ({@code record_server_startup_stage}'s
	 * {@code worker}); a Micrometer tag is a string ({@code "true"}/{@code "false"}), so these
	 * are typed on the OTLP wire. Neither histogram has any other non-string attribute.
	 */
	public static final Map<String, Set<String>> BOOL_TAGS = Map.of(STAGE_DURATION,
			Set.of(SpanAttributes.SERVER_WORKER));

	private MetricNames() {
	}

}
