package io.github.startuptelemetry.lifecycle.internal;

import java.util.Map;
import java.util.UUID;

import io.github.startuptelemetry.contract.NemoEnv;
import io.github.startuptelemetry.contract.TelemetryEnv;

/**
 * The run id of a fleet ({@code nemo.run.id}), picked as NeMo Gym's supervisor picks it
 * ({@code configure_telemetry_env}): {@code telemetry.run-id}, else {@code NEMO_GYM_OTEL_RUN_ID},
 * else {@code SLURM_JOB_ID}, else 12 random lowercase hex characters.
 */
public final class RunId {

	private RunId() {
	}

	/**
	 * @param configured {@code telemetry.run-id}, or {@code null}
	 * @param env the process environment
	 */
	public static String resolve(String configured, Map<String, String> env) {
		for (String candidate : new String[] { configured, env.get(NemoEnv.GYM_RUN_ID),
				env.get(TelemetryEnv.SLURM_JOB_ID) }) {
			if (candidate != null && !candidate.isBlank()) {
				return candidate.strip();
			}
		}
		return mint();
	}

	/** 12 random lowercase hex characters, as Gym's {@code uuid4().hex[:12]}. */
	static String mint() {
		return UUID.randomUUID().toString().replace("-", "").substring(0, 12);
	}

}
