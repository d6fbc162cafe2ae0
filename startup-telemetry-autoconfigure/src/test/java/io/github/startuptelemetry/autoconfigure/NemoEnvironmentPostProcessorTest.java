package io.github.startuptelemetry.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import io.github.startuptelemetry.lifecycle.TelemetrySwitch;

import static org.assertj.core.api.Assertions.assertThat;

class NemoEnvironmentPostProcessorTest {

	private final MockEnvironment environment = new MockEnvironment();

	private final NemoEnvironmentPostProcessor postProcessor = new NemoEnvironmentPostProcessor(
			(destination) -> destination.get());

	@Test
	void gymsSettingsBecomeOurDefaults() {
		this.postProcessor.apply(this.environment,
				Map.of("NEMO_GYM_OTEL_ENABLED", "0", "NEMO_LENS_ENABLED", "1", "NEMO_LENS_RUN_ID", "lens-run",
						"NEMO_GYM_OTEL_TRACES_ENABLED", "off", "NEMO_LENS_METRICS_ENABLED", "NO"));
		assertThat(TelemetrySwitch.enabled(this.environment)).isFalse();
		assertThat(this.environment.getProperty("telemetry.run-id")).isEqualTo("lens-run");
		assertThat(this.environment.getProperty("management.tracing.export.enabled")).isEqualTo("false");
		assertThat(this.environment.getProperty("management.otlp.metrics.export.enabled")).isEqualTo("false");
	}

	@Test
	void lensIsTheFallback() {
		this.postProcessor.apply(this.environment, Map.of("NEMO_LENS_ENABLED", "false"));
		assertThat(TelemetrySwitch.enabled(this.environment)).isFalse();
		// and, as lens then has no providers, no export at all
		assertThat(this.environment.getProperty("management.tracing.export.enabled")).isEqualTo("false");
		assertThat(this.environment.getProperty("management.otlp.metrics.export.enabled")).isEqualTo("false");
	}

	@Test
	void oursWin() {
		this.environment.setProperty("telemetry.enabled", "true");
		this.environment.setProperty("telemetry.run-id", "ours");
		this.postProcessor.apply(this.environment,
				Map.of("NEMO_GYM_OTEL_ENABLED", "false", "NEMO_GYM_OTEL_RUN_ID", "gym"));
		assertThat(TelemetrySwitch.enabled(this.environment)).isTrue();
		assertThat(this.environment.getProperty("telemetry.run-id")).isEqualTo("ours");
	}

	@Test
	void nothingWithoutNemoVariablesOrWithGarbage() {
		assertThat(NemoEnvironmentPostProcessor.properties(Map.of())).isEmpty();
		assertThat(NemoEnvironmentPostProcessor.properties(Map.of("NEMO_GYM_OTEL_ENABLED", "maybe",
				"NEMO_GYM_OTEL_TRACES_ENABLED", "true"))).isEmpty();
	}

}
