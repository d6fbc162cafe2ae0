package io.github.startuptelemetry.export.internal;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which protocol each signal of the starter's own SDK goes over, and whether it can: NeMo Gym's
 * gRPC default in a NeMo process with a gRPC sender (OkHttp's is on the test class path, through
 * Boot's OpenTelemetry), OTLP/HTTP elsewhere, what is set always; gRPC set without a sender
 * exports nothing.
 */
class OtlpProtocolsTest {

	private static final ClassLoader WITH_SENDER = OtlpProtocolsTest.class.getClassLoader();

	private static final ClassLoader WITHOUT_SENDER = new ClassLoader(null) {
	};

	private static final Map<String, String> GYM = Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317",
			"NEMO_GYM_OTEL_ENABLED", "1", "NEMO_GYM_CONFIG_PATH", "java_server");

	@Test
	void aNemoProcessWithNoProtocolSpeaksGrpcWhereItCan() {
		ExportSettings settings = settings(GYM, WITH_SENDER);
		assertThat(settings.protocols().traces()).isEqualTo("grpc");
		assertThat(settings.protocols().metrics()).isEqualTo("grpc");
		assertThat(settings.protocols().defaultProtocol()).isEqualTo("grpc");
		assertThat(settings.protocols().nemoDefault()).isTrue();
		assertThat(settings.otlpTraces()).isTrue();
		assertThat(settings.exportsMetrics()).isTrue();
		assertThat(settings.unsendable()).isFalse();
		assertThat(settings.toString()).contains("traces over grpc, metrics over grpc (NeMo Gym's default");
	}

	@Test
	void withoutASenderItFallsBackToOtlpHttpAsNemoLensDoes() {
		ExportSettings settings = settings(GYM, WITHOUT_SENDER);
		assertThat(settings.protocols().traces()).isEqualTo("http/protobuf");
		assertThat(settings.protocols().defaultProtocol()).isEqualTo("http/protobuf");
		assertThat(settings.protocols().nemoFallback()).isTrue();
		assertThat(settings.exportsTraces()).isTrue();
		assertThat(settings.unsendable()).isFalse();
	}

	@Test
	void whatIsSetWinsSignalBySignal() {
		Map<String, String> env = new LinkedHashMap<>(GYM);
		env.put("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf");
		OtlpProtocols protocols = settings(env, WITH_SENDER).protocols();
		assertThat(protocols.traces()).isEqualTo("http/protobuf");
		assertThat(protocols.metrics()).isEqualTo("grpc");
		env.put("OTEL_EXPORTER_OTLP_PROTOCOL", "HTTP/PROTOBUF");
		env.remove("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL");
		protocols = settings(env, WITH_SENDER).protocols();
		assertThat(protocols.traces()).isEqualTo("http/protobuf");
		assertThat(protocols.metrics()).isEqualTo("http/protobuf");
		assertThat(protocols.nemoDefault()).isFalse();
	}

	@Test
	void outsideNemoTheDefaultIsOtlpHttp() {
		ExportSettings settings = settings(
				Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317", "NEMO_GYM_STARTUP_SPAWN_NS", "1"),
				WITH_SENDER);
		assertThat(settings.protocols().traces()).isEqualTo("http/protobuf");
		assertThat(settings.protocols().defaultProtocol()).isEqualTo("http/protobuf");
		assertThat(settings.protocols().nemoDefault()).isFalse();
	}

	@Test
	void grpcSetWithoutASenderExportsNothing() {
		ExportSettings settings = settings(
				Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
				WITHOUT_SENDER);
		assertThat(settings.unsendable()).isTrue();
		assertThat(settings.exportsTraces()).isFalse();
		assertThat(settings.exportsMetrics()).isFalse();
		assertThat(settings.exports()).isFalse();
		assertThat(settings(
				Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
				WITH_SENDER)
			.exportsTraces()).isTrue();
	}

	@Test
	void ourPropertyIsTheSettingToChange() {
		MockEnvironment environment = new MockEnvironment()
			.withProperty("telemetry.export.otlp.endpoint", "http://collector:4317")
			.withProperty("telemetry.export.otlp.protocol", "grpc");
		ExportSettings settings = ExportSettings.of(environment, GYM, WITHOUT_SENDER);
		assertThat(settings.unsendable()).isTrue();
		assertThat(settings.protocols().settingTo("http/protobuf"))
			.isEqualTo("telemetry.export.otlp.protocol=http/protobuf");
		MockEnvironment boot = new MockEnvironment()
			.withProperty("management.opentelemetry.tracing.export.otlp.endpoint", "http://collector:4317")
			.withProperty("management.opentelemetry.tracing.export.otlp.transport", "grpc");
		OtlpProtocols boots = ExportSettings.of(boot, Map.of(), WITH_SENDER).protocols();
		assertThat(boots.traces()).isEqualTo("grpc");
		assertThat(boots.settingTo("http/protobuf"))
			.isEqualTo("management.opentelemetry.tracing.export.otlp.transport=http");
	}

	private static ExportSettings settings(Map<String, String> env, ClassLoader classLoader) {
		return ExportSettings.of(new MockEnvironment(), env, classLoader);
	}

}
