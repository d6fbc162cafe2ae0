package io.github.startuptelemetry.autoconfigure.internal;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class TelemetrySwitchTest {

	@Test
	void nemoVariablesTurnTelemetryOffWithGymsPrecedence() {
		assertThat(TelemetrySwitch.enabledInEnv(Map.of())).isTrue();
		assertThat(TelemetrySwitch.enabledInEnv(Map.of("NEMO_GYM_OTEL_ENABLED", "0"))).isFalse();
		assertThat(TelemetrySwitch.enabledInEnv(Map.of("NEMO_LENS_ENABLED", " OFF "))).isFalse();
		assertThat(TelemetrySwitch.enabledInEnv(Map.of("NEMO_GYM_OTEL_ENABLED", "Yes", "NEMO_LENS_ENABLED", "false")))
			.isTrue();
		assertThat(TelemetrySwitch.enabledInEnv(Map.of("NEMO_GYM_OTEL_ENABLED", " ", "NEMO_LENS_ENABLED", "no")))
			.isFalse();
		assertThat(TelemetrySwitch.enabledInEnv(Map.of("NEMO_GYM_OTEL_ENABLED", "maybe"))).isTrue();
	}

	@Test
	void aFlagInTheProcessEnvironmentIsTheSystemPropertyThenItsRelaxedEnvForm() {
		String property = "telemetry.startup.jvm-counters";
		assertThat(TelemetrySwitch.flagInEnv(property, null, Map.of(), true)).isTrue();
		assertThat(TelemetrySwitch.flagInEnv(property, null, Map.of("TELEMETRY_STARTUP_JVMCOUNTERS", "off"), true))
			.isFalse();
		assertThat(TelemetrySwitch.flagInEnv(property, null, Map.of("TELEMETRY_STARTUP_JVM_COUNTERS", "0"), true))
			.isFalse();
		assertThat(TelemetrySwitch.flagInEnv(property, "true", Map.of("TELEMETRY_STARTUP_JVMCOUNTERS", "false"), false))
			.isTrue();
		assertThat(TelemetrySwitch.flagInEnv(property, "maybe", Map.of("TELEMETRY_STARTUP_JVMCOUNTERS", "maybe"), true))
			.isTrue();
	}

	@Test
	void oursWin() {
		assertThat(TelemetrySwitch.enabledInEnv(Map.of("TELEMETRY_ENABLED", "true", "NEMO_GYM_OTEL_ENABLED", "0")))
			.isTrue();
		assertThat(TelemetrySwitch.enabledInEnv(Map.of("TELEMETRY_ENABLED", "false", "NEMO_GYM_OTEL_ENABLED", "1")))
			.isFalse();
	}

	@Test
	void startupSpansFollowTheStartupSpanGroup() {
		assertThat(TelemetrySwitch.startupSpans(new MockEnvironment())).isTrue();
		assertThat(TelemetrySwitch.startupSpans(new MockEnvironment().withProperty("telemetry.span-groups", "all")))
			.isTrue();
		assertThat(TelemetrySwitch
			.startupSpans(new MockEnvironment().withProperty("telemetry.span-groups", "per_rollout"))).isFalse();
	}

}
