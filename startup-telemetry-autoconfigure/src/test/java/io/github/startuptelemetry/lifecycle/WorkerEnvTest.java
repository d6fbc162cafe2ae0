package io.github.startuptelemetry.lifecycle;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerEnvTest {

	private static final String PARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

	@Test
	void stampsTheServeTimeAndPassesTheSupervisorsTraceparentOn() {
		assertThat(WorkerEnv.serveEnv(Map.of("NEMO_GYM_STARTUP_TRACEPARENT", PARENT), true, 42L)).containsExactly(
				Map.entry("TELEMETRY_STARTUP_WORKER", "true"), Map.entry("IS_NEMO_GYM_FASTAPI_WORKER", "1"),
				Map.entry("NEMO_GYM_STARTUP_SERVE_NS", "42"), Map.entry("NEMO_GYM_STARTUP_TRACEPARENT", PARENT),
				Map.entry("TRACEPARENT", PARENT));
		assertThat(WorkerEnv.serveEnv(Map.of("TRACEPARENT", PARENT), true, 42L))
			.containsEntry("NEMO_GYM_STARTUP_TRACEPARENT", PARENT);
		assertThat(WorkerEnv.serveEnv(Map.of(), true, 42L)).doesNotContainKeys("NEMO_GYM_STARTUP_TRACEPARENT",
				"TRACEPARENT");
	}

	@Test
	void withTelemetryOffOnlyTheWorkerFlags() {
		assertThat(WorkerEnv.serveEnv(Map.of("NEMO_GYM_STARTUP_TRACEPARENT", PARENT), false, 42L)).containsOnlyKeys(
				"TELEMETRY_STARTUP_WORKER", "IS_NEMO_GYM_FASTAPI_WORKER");
	}

	@Test
	void appliesToAProcessBuilder() {
		ProcessBuilder builder = WorkerEnv.applyTo(new ProcessBuilder("true"));
		assertThat(builder.environment()).containsEntry("TELEMETRY_STARTUP_WORKER", "true")
			.containsKey("IS_NEMO_GYM_FASTAPI_WORKER");
	}

}
