package io.github.startuptelemetry.lifecycle.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

class BootOtlpPropertiesTest {

	static Stream<Arguments> exports() {
		Map<String, String> special = new LinkedHashMap<>();
		special.put("authorization", "Bearer a+b/c=,d%e f");
		special.put("x-scope", "team=rl;region=eu");
		special.put("x-unicode", "café ☕");
		return Stream.of(Arguments.of("http://collector:4318/v1/traces", null, Map.of()),
				Arguments.of("https://gateway/otel/traces", null, Map.of()),
				Arguments.of("http://collector:4318/", "http", Map.of()),
				Arguments.of("http://collector:4317", "grpc", Map.of()),
				Arguments.of("http://collector:4317/v1/traces", "GRPC", Map.of("authorization", "Bearer x")),
				Arguments.of(" http://collector:4318/v1/traces ", null, special),
				Arguments.of("https://gateway/otel/traces", "http", special));
	}

	@ParameterizedTest
	@MethodSource("exports")
	void propertiesToEnvAndBackGiveTheSameSettings(String endpoint, String transport, Map<String, String> headers) {
		BootOtlpProperties.Export export = BootOtlpProperties.Export.fromProperties(endpoint, transport, headers);
		List<String> ignored = new ArrayList<>();
		BootOtlpProperties.Export back = BootOtlpProperties.fromEnv(export.toEnv(), ignored::add);
		assertThat(ignored).isEmpty();
		assertThat(back).isNotNull();
		assertThat(back.endpoint()).isEqualTo(endpoint.strip());
		assertThat(back.grpc()).isEqualTo("grpc".equalsIgnoreCase(transport));
		assertThat(back.headers()).containsExactlyEntriesOf(headers);
		assertThat(back.toProperties(true)).isEqualTo(export.toProperties(true));
	}

	@Test
	void aTracesUrlTravelsAsTheCollectorsBaseUrl() {
		assertThat(BootOtlpProperties.Export.fromProperties("http://c:4318/v1/traces", null, Map.of()).toEnv())
			.containsExactly(Map.entry("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"));
		assertThat(BootOtlpProperties.Export.fromProperties("https://gateway/otel/traces", null, Map.of()).toEnv())
			.containsExactly(Map.entry("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://gateway/otel/traces"));
		assertThat(BootOtlpProperties.Export.fromProperties("http://c:4317", "grpc", Map.of()).toEnv()).containsExactly(
				Map.entry("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4317"),
				Map.entry("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"));
	}

	@Test
	void headersTravelPercentEncoded() {
		Map<String, String> env = BootOtlpProperties.Export
			.fromProperties("http://c:4318/v1/traces", null, Map.of("authorization", "Bearer a,b"))
			.toEnv();
		assertThat(env).containsEntry("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20a%2Cb");
	}

	@Test
	void metricsExportWhereTheEnvNamesABaseUrl() {
		Map<String, String> base = BootOtlpProperties.Export.fromProperties("http://c:4318/v1/traces", null, Map.of())
			.toEnv();
		assertThat(BootOtlpProperties.metricsEndpointInEnv(base)).isTrue();
		Map<String, String> tracesOnly = BootOtlpProperties.Export
			.fromProperties("https://gateway/otel/traces", null, Map.of())
			.toEnv();
		assertThat(BootOtlpProperties.metricsEndpointInEnv(tracesOnly)).isFalse();
		assertThat(BootOtlpProperties.metricsEndpointInEnv(
				Map.of("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://m:4318/v1/metrics")))
			.isTrue();
	}

	/**
	 * No protocol in a NeMo process is gRPC where a gRPC sender is present (Boot's OpenTelemetry
	 * brings OkHttp's onto the test class path), as nemo-lens's default; without one, or outside
	 * NeMo, OTLP/HTTP. Gym's startup stamps alone do not make a NeMo process: our supervisor
	 * writes them too.
	 */
	@Test
	void theDefaultProtocolIsGrpcInANemoProcessThatCanSpeakIt() {
		ClassLoader withSender = getClass().getClassLoader();
		ClassLoader withoutSender = new ClassLoader(null) {
		};
		assertThat(BootOtlpProperties.grpcSenderPresent(withSender)).isTrue();
		assertThat(BootOtlpProperties.grpcSenderPresent(withoutSender)).isFalse();
		for (String variable : List.of("NEMO_GYM_CONFIG_PATH", "NEMO_GYM_CONFIG_DICT", "NEMO_GYM_OTEL_ENABLED",
				"NEMO_LENS_ENABLED")) {
			assertThat(BootOtlpProperties.defaultProtocol(Map.of(variable, "x"), withSender)).as(variable)
				.isEqualTo("grpc");
			assertThat(BootOtlpProperties.defaultProtocol(Map.of(variable, "x"), withoutSender)).isEqualTo("http/protobuf");
		}
		assertThat(BootOtlpProperties.defaultProtocol(Map.of("NEMO_GYM_STARTUP_SPAWN_NS", "1"), withSender))
			.isEqualTo("http/protobuf");
		assertThat(BootOtlpProperties.defaultProtocol(Map.of(), withSender)).isEqualTo("http/protobuf");
		Map<String, String> gym = Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4317", "NEMO_GYM_OTEL_ENABLED", "1");
		List<String> ignored = new ArrayList<>();
		assertThat(BootOtlpProperties.fromEnv(gym, "grpc", ignored::add).grpc()).isTrue();
		assertThat(BootOtlpProperties.fromEnv(gym, "grpc", ignored::add).endpoint()).isEqualTo("http://c:4317");
		Map<String, String> said = new LinkedHashMap<>(gym);
		said.put("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
		assertThat(BootOtlpProperties.fromEnv(said, "grpc", ignored::add).grpc()).isFalse();
		assertThat(ignored).isEmpty();
	}

	@Test
	void tracesUrlAppendsThePathOnce() {
		assertThat(BootOtlpProperties.tracesUrl("http://c:4318")).isEqualTo("http://c:4318/v1/traces");
		assertThat(BootOtlpProperties.tracesUrl("http://c:4318/")).isEqualTo("http://c:4318/v1/traces");
		assertThat(BootOtlpProperties.tracesUrl("http://c:4318/v1/traces")).isEqualTo("http://c:4318/v1/traces");
	}

	@Test
	void whatCannotBeUsedIsNamedNeverShown() {
		List<String> ignored = new ArrayList<>();
		assertThat(BootOtlpProperties.fromEnv(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"), ignored::add))
			.isNull();
		BootOtlpProperties.Export export = BootOtlpProperties.fromEnv(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318",
				"OTEL_EXPORTER_OTLP_HEADERS", "s3cr3t", "OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"), ignored::add);
		assertThat(export.headers()).isEmpty();
		assertThat(export.grpc()).isFalse();
		assertThat(ignored).containsExactly("OTEL_EXPORTER_OTLP_ENDPOINT: it is not an http or https URL",
				"OTEL_EXPORTER_OTLP_PROTOCOL: only http/protobuf and grpc are supported",
				"OTEL_EXPORTER_OTLP_HEADERS: entry 1 is not key=value");
		assertThat(BootOtlpProperties.Export.fromProperties("http://c:4318", null, Map.of("authorization", "s3cr3t"))
			.toString()).doesNotContain("s3cr3t");
	}

}
