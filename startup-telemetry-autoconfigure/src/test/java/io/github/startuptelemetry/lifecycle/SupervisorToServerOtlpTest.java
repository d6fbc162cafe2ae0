package io.github.startuptelemetry.lifecycle;

import java.util.Map;

import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.lifecycle.internal.ChildTelemetrySettings;

/**
 * A supervisor's OTLP export settings, handed to a server as env by
 * {@link ChildTelemetrySettings} and read back by {@link OtlpExportDefaults}, are the
 * server's settings too.
 */
class SupervisorToServerOtlpTest {

	private static final String PREFIX = "management.opentelemetry.tracing.export.otlp.";

	@ParameterizedTest
	@CsvSource(delimiter = '|', nullValues = "-", value = { "http://collector:4318/v1/traces | - | -",
			"https://gateway/otel/traces | - | Bearer s3cr3t", "http://collector:4317 | grpc | Bearer s3cr3t",
			"http://collector:4318/v1/traces | http | 'Bearer a+b/c=,d% é'" })
	void theServerExportsWhereItsSupervisorDoes(String endpoint, String transport, String authorization) {
		MockEnvironment supervisor = new MockEnvironment().withProperty(PREFIX + "endpoint", endpoint);
		if (transport != null) {
			supervisor.setProperty(PREFIX + "transport", transport);
		}
		if (authorization != null) {
			supervisor.setProperty(PREFIX + "headers.authorization", authorization);
		}
		Map<String, String> env = new ChildTelemetrySettings(supervisor, Map.of()).forServer("model-0", "model", 0,
				1);
		MockEnvironment server = new MockEnvironment();
		new OtlpExportDefaults(LogFactory.getLog(OtlpExportDefaults.class)).apply(server, env);
		assertThat(server.getProperty(PREFIX + "endpoint")).isEqualTo(endpoint);
		assertThat(server.getProperty(PREFIX + "transport")).isEqualTo("grpc".equals(transport) ? "grpc" : null);
		assertThat(headers(server)).isEqualTo(headers(supervisor));
		boolean metricsOff = "false".equals(server.getProperty("management.otlp.metrics.export.enabled"));
		assertThat(metricsOff).as("metrics export where the supervisor has a collector's base URL")
			.isEqualTo(!env.containsKey("OTEL_EXPORTER_OTLP_ENDPOINT"));
	}

	private static Map<String, String> headers(MockEnvironment environment) {
		return Binder.get(environment)
			.bind(PREFIX + "headers", Bindable.mapOf(String.class, String.class))
			.orElse(Map.of());
	}

}
