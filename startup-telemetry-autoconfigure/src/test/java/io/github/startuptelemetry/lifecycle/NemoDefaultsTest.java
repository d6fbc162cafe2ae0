package io.github.startuptelemetry.lifecycle;

import java.util.Map;

import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;

class NemoDefaultsTest {

	private final MockEnvironment environment = new MockEnvironment();

	private final OtlpExportDefaults postProcessor = new OtlpExportDefaults(LogFactory.getLog(OtlpExportDefaults.class));

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
		this.postProcessor.apply(this.environment, Map.of("NEMO_LENS_ENABLED", "false", "NEMO_LENS_SPAN_GROUPS", "job"));
		assertThat(this.environment.getProperty("telemetry.span-groups")).isEqualTo("job");
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
	void underAGymSupervisorAServerIsGroupSlashServer() {
		this.postProcessor.apply(this.environment,
				Map.of("OTEL_SERVICE_NAME", "nemo-gym", "NEMO_GYM_CONFIG_PATH", "my_java_server"));
		assertThat(this.environment.getProperty("telemetry.startup.server-name")).isEqualTo("my_java_server");
		assertThat(this.environment.getProperty("management.opentelemetry.resource-attributes[service.name]"))
			.isEqualTo("nemo-gym/my_java_server");
		assertThat(
				this.environment.getProperty("management.opentelemetry.resource-attributes[nemo.gym.service_group]"))
			.isEqualTo("nemo-gym");
	}

	@Test
	void theServersOwnNameStaysAsItIs() {
		this.environment.setProperty("telemetry.startup.server-name", "model-0");
		this.postProcessor.apply(this.environment, Map.of("OTEL_SERVICE_NAME", "model-0"));
		assertThat(this.environment.containsProperty("management.opentelemetry.resource-attributes[service.name]"))
			.isFalse();
		this.postProcessor.apply(this.environment,
				Map.of("OTEL_SERVICE_NAME", "group", "NEMO_GYM_OTEL_SERVICE_NAME_PER_SERVER", "false"));
		assertThat(this.environment.containsProperty("management.opentelemetry.resource-attributes[service.name]"))
			.isFalse();
		this.environment.setProperty("management.opentelemetry.resource-attributes[service.name]", "mine");
		this.postProcessor.apply(this.environment, Map.of("OTEL_SERVICE_NAME", "group"));
		assertThat(this.environment.getProperty("management.opentelemetry.resource-attributes[service.name]"))
			.isEqualTo("mine");
	}

	@Test
	void nothingWhenOursSaidOff() {
		this.environment.setProperty("telemetry.enabled", "false");
		this.postProcessor.apply(this.environment, Map.of("NEMO_GYM_OTEL_ENABLED", "1", "NEMO_GYM_OTEL_RUN_ID", "gym"));
		assertThat(this.environment.getPropertySources().contains(NemoDefaults.PROPERTY_SOURCE_NAME))
			.isFalse();
	}

	@Test
	void nothingWithoutNemoVariablesOrWithGarbage() {
		assertThat(NemoDefaults.properties(Map.of())).isEmpty();
		assertThat(NemoDefaults.properties(Map.of("NEMO_GYM_OTEL_ENABLED", "maybe",
				"NEMO_GYM_OTEL_TRACES_ENABLED", "true"))).isEmpty();
	}

}
