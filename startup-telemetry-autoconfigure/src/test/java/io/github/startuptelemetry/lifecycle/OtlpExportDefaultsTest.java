package io.github.startuptelemetry.lifecycle;

import io.github.startuptelemetry.lifecycle.internal.BootOtlpProperties;

import java.util.Map;

import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.PropertySource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class OtlpExportDefaultsTest {

	private static final String ENDPOINT = "management.opentelemetry.tracing.export.otlp.endpoint";

	private final MockEnvironment environment = new MockEnvironment();

	private final OtlpExportDefaults postProcessor = new OtlpExportDefaults(LogFactory.getLog(OtlpExportDefaults.class));

	@Test
	void theStandardEndpointBecomesBootsTracesEndpoint() {
		apply(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/"));
		assertThat(this.environment.getProperty(ENDPOINT)).isEqualTo("http://collector:4318/v1/traces");
		assertThat(this.environment.getPropertySources().stream().map(PropertySource::getName))
			.as("lowest precedence")
			.last()
			.isEqualTo(OtlpExportDefaults.PROPERTY_SOURCE_NAME);
	}

	@Test
	void theTracesEndpointIsUsedAsIsAndWins() {
		apply(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
				"http://traces:4318/custom"));
		assertThat(this.environment.getProperty(ENDPOINT)).isEqualTo("http://traces:4318/custom");
	}

	@Test
	void grpcKeepsTheEndpointAndSwitchesTransport() {
		apply(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"));
		assertThat(this.environment.getProperty(ENDPOINT)).isEqualTo("http://collector:4317");
		assertThat(this.environment.getProperty("management.opentelemetry.tracing.export.otlp.transport"))
			.isEqualTo("grpc");
	}

	@Test
	void headersBindAsBootsHeaderMap() {
		apply(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", "OTEL_EXPORTER_OTLP_HEADERS",
				"authorization=Bearer s3cr3t,x-scope=a", "OTEL_EXPORTER_OTLP_TRACES_HEADERS", "x-scope=traces"));
		assertThat(headers()).containsOnly(Map.entry("authorization", "Bearer s3cr3t"), Map.entry("x-scope", "traces"));
	}

	@Test
	void aUserConfiguredEndpointTakesTheWholeExportOut() {
		this.environment.setProperty(ENDPOINT, "http://mine:4318/v1/traces");
		apply(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", "OTEL_EXPORTER_OTLP_HEADERS",
				"authorization=Bearer s3cr3t"));
		assertThat(this.environment.getProperty(ENDPOINT)).isEqualTo("http://mine:4318/v1/traces");
		assertThat(headers()).isEmpty();
	}

	@Test
	void userConfiguredHeadersWin() {
		this.environment.setProperty("management.opentelemetry.tracing.export.otlp.headers.x-mine", "1");
		apply(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", "OTEL_EXPORTER_OTLP_HEADERS",
				"authorization=Bearer s3cr3t"));
		assertThat(headers()).containsOnly(Map.entry("x-mine", "1"));
	}

	@Test
	void aMalformedEndpointIsIgnored() {
		apply(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318", "OTEL_EXPORTER_OTLP_HEADERS", "a=b"));
		assertThat(this.environment.containsProperty(ENDPOINT)).isFalse();
		assertThat(headers()).isEmpty();
	}

	@Test
	void malformedHeadersAreIgnoredAndTheEndpointKept() {
		apply(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", "OTEL_EXPORTER_OTLP_HEADERS",
				"authorization"));
		assertThat(this.environment.getProperty(ENDPOINT)).isEqualTo("http://collector:4318/v1/traces");
		assertThat(headers()).isEmpty();
	}

	@Test
	void anUnsupportedProtocolFallsBackToHttp() {
		apply(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", "OTEL_EXPORTER_OTLP_PROTOCOL",
				"http/json"));
		assertThat(this.environment.getProperty(ENDPOINT)).isEqualTo("http://collector:4318/v1/traces");
		assertThat(this.environment.containsProperty("management.opentelemetry.tracing.export.otlp.transport"))
			.isFalse();
	}

	@Test
	void nothingWhenTelemetryIsOff() {
		this.environment.setProperty("telemetry.enabled", "false");
		apply(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"));
		assertThat(this.environment.containsProperty(ENDPOINT)).isFalse();
	}

	@Test
	void unconfiguredOtlpMetricsStayQuiet() {
		apply(Map.of());
		assertThat(this.environment.getProperty(BootOtlpProperties.METRICS_ENABLED_PROPERTY)).isEqualTo("false");
	}

	@Test
	void otlpMetricsExportWhereverAnEndpointIsConfigured() {
		apply(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"));
		assertThat(this.environment.getProperty(BootOtlpProperties.METRICS_ENABLED_PROPERTY)).isNull();
		MockEnvironment withUrl = new MockEnvironment()
			.withProperty(BootOtlpProperties.METRICS_URL_PROPERTY, "http://collector:4318/v1/metrics");
		this.postProcessor.apply(withUrl, Map.of());
		assertThat(withUrl.getProperty(BootOtlpProperties.METRICS_ENABLED_PROPERTY)).isNull();
		MockEnvironment metricsEnv = new MockEnvironment();
		this.postProcessor.apply(metricsEnv, Map.of("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://m:4318/v1/metrics"));
		assertThat(metricsEnv.getProperty(BootOtlpProperties.METRICS_ENABLED_PROPERTY)).isNull();
	}

	@Test
	void metricsFollowAConfiguredTracesEndpoint() {
		this.environment.setProperty(ENDPOINT, "http://mine:4318/v1/traces");
		this.environment.setProperty("management.opentelemetry.tracing.export.otlp.headers.authorization", "Bearer x");
		apply(Map.of());
		assertThat(this.environment.getProperty(BootOtlpProperties.METRICS_URL_PROPERTY))
			.isEqualTo("http://mine:4318/v1/metrics");
		assertThat(this.environment.getProperty("management.otlp.metrics.export.headers[authorization]"))
			.isEqualTo("Bearer x");
		assertThat(this.environment.getProperty(BootOtlpProperties.METRICS_ENABLED_PROPERTY)).isNull();
	}

	@Test
	void metricsStayOffForATracesEndpointTheyCannotFollow() {
		this.environment.setProperty(ENDPOINT, "http://mine:4317");
		this.environment.setProperty("management.opentelemetry.tracing.export.otlp.transport", "grpc");
		apply(Map.of());
		assertThat(this.environment.getProperty(BootOtlpProperties.METRICS_ENABLED_PROPERTY)).isEqualTo("false");
		MockEnvironment otherPath = new MockEnvironment().withProperty(ENDPOINT, "http://mine:4318/custom");
		this.postProcessor.apply(otherPath, Map.of());
		assertThat(otherPath.getProperty(BootOtlpProperties.METRICS_ENABLED_PROPERTY)).isEqualTo("false");
	}

	/**
	 * Boot 4.1 maps the variables itself, above everything: where it can, the starter writes none of
	 * the traces settings Boot's mapping writes, and only what it cannot know (NeMo's gRPC default).
	 */
	@Test
	void whereBootMapsTheVariablesItsMappingIsTheOne() {
		this.postProcessor.apply(this.environment, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
				"OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer s3cr3t"), true);
		assertThat(this.environment.containsProperty(ENDPOINT)).isFalse();
		assertThat(headers()).isEmpty();
		assertThat(this.environment.getProperty(BootOtlpProperties.METRICS_ENABLED_PROPERTY)).isNull();
		MockEnvironment nemo = new MockEnvironment();
		this.postProcessor.apply(nemo, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317",
				"NEMO_GYM_CONFIG_PATH", "/gym.yaml"), true);
		assertThat(nemo.containsProperty(ENDPOINT)).isFalse();
		assertThat(nemo.getProperty("management.opentelemetry.tracing.export.otlp.transport"))
			.as("NeMo's gRPC where a sender is, which Boot's mapping does not know").isEqualTo("grpc");
		MockEnvironment chosen = new MockEnvironment();
		this.postProcessor.apply(chosen, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
				"OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf", "NEMO_GYM_CONFIG_PATH", "/gym.yaml"), true);
		assertThat(chosen.containsProperty("management.opentelemetry.tracing.export.otlp.transport")).isFalse();
	}

	@Test
	void bootsSwitchOffGivesTheStartersMappingBack() {
		this.environment.setProperty("management.opentelemetry.map-environment-variables", "false");
		this.postProcessor.apply(this.environment, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"), true);
		assertThat(this.environment.getProperty(ENDPOINT)).isEqualTo("http://collector:4318/v1/traces");
	}

	/** A traces-only variable: metrics stay quiet, whichever mapping put it into Boot's traces URL, in whichever order. */
	@Test
	void aTracesOnlyVariableLeavesMetricsQuietUnderEitherMapping() {
		Map<String, String> env = Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://collector:4318/v1/traces");
		apply(env);
		assertThat(this.environment.getProperty(BootOtlpProperties.METRICS_ENABLED_PROPERTY)).isEqualTo("false");
		// Boot's mapping ran first: its traces URL is in the environment already
		MockEnvironment bootFirst = new MockEnvironment().withProperty(ENDPOINT, "http://collector:4318/v1/traces");
		this.postProcessor.apply(bootFirst, env, true);
		assertThat(bootFirst.getProperty(BootOtlpProperties.METRICS_ENABLED_PROPERTY)).isEqualTo("false");
		MockEnvironment bootAfter = new MockEnvironment();
		this.postProcessor.apply(bootAfter, env, true);
		assertThat(bootAfter.getProperty(BootOtlpProperties.METRICS_ENABLED_PROPERTY)).isEqualTo("false");
	}

	private void apply(Map<String, String> env) {
		this.postProcessor.apply(this.environment, env, false);
	}

	private Map<String, String> headers() {
		return Binder.get(this.environment)
			.bind("management.opentelemetry.tracing.export.otlp.headers", Bindable.mapOf(String.class, String.class))
			.orElse(Map.of());
	}

}
