package io.github.startuptelemetry.export.internal;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One WARN that names both fixes where the protocol cannot work, whatever failed first, and the
 * failures it explains said at DEBUG only; what it does not explain (a collector that is down)
 * left to the signal's own log.
 */
@ExtendWith(OutputCaptureExtension.class)
class ProtocolAdviceTest {

	private static final ClassLoader WITHOUT_SENDER = new ClassLoader(null) {
	};

	/** The test class path: OkHttp's gRPC sender, through Boot's OpenTelemetry. */
	private static final ClassLoader WITH_SENDER = ProtocolAdviceTest.class.getClassLoader();

	/** The JDK's HTTP client, sent grpc-java's HTTP/2 GOAWAY for an HTTP/1.1 POST. */
	private static final Throwable GRPC_ANSWER = new UncheckedIOException(new IOException(
			"parsing HTTP/1.1 status line, receiving [\u0000\u0000\u0012\u0004...Unexpected HTTP/1.x request: POST /v1/traces ]",
			new EOFException("EOF reached while reading")));

	@Test
	void otlpHttpToAGrpcReceiverIsSaidOnceForAllSignals(CapturedOutput output) {
		ProtocolAdvice advice = advice(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:14317"));
		assertThat(advice.explains("spans", GRPC_ANSWER)).isTrue();
		assertThat(advice.explains("metrics", GRPC_ANSWER)).isTrue();
		assertThat(advice.explains("spans", new EOFException("EOF reached while reading"))).isTrue();
		assertThat(warnings(output)).singleElement()
			.satisfies((line) -> assertThat(line).contains("http://collector:14317 over OTLP/HTTP",
					"it answers like an OTLP/gRPC receiver", "OTLP/HTTP port (4318)",
					"OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf",
					"add io.github.startuptelemetry:startup-telemetry-grpc and set OTEL_EXPORTER_OTLP_PROTOCOL=grpc"));
	}

	@Test
	void aCollectorThatIsDownIsNotAProtocolMatter(CapturedOutput output) {
		ProtocolAdvice advice = advice(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"));
		assertThat(advice.explains("spans", new ConnectException("Connection refused"))).isFalse();
		assertThat(advice.explains("spans", null)).isFalse();
		assertThat(warnings(output)).isEmpty();
	}

	/** A connection closed unanswered is a gRPC receiver's doing only until an export got through. */
	@Test
	void aConnectionClosedAfterExportsGotThroughIsTheNetworks(CapturedOutput output) {
		ProtocolAdvice advice = advice(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:14318"));
		advice.reached();
		assertThat(advice.explains("spans", new IOException("HTTP/1.1 header parser received no bytes"))).isFalse();
		assertThat(advice.explains("spans", new EOFException("EOF reached while reading"))).isFalse();
		assertThat(advice.explains("spans", GRPC_ANSWER)).isTrue();
		assertThat(warnings(output)).hasSize(1);
	}

	@Test
	void grpcToAnHttpReceiverIsRecognisedByOkHttpsFrameError(CapturedOutput output) {
		ProtocolAdvice advice = advice(
				Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:14318", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
				WITH_SENDER);
		assertThat(advice.explains("spans", new IOException("FRAME_SIZE_ERROR: 4740180"))).isTrue();
		// the same error of an OTLP/HTTP export is no gRPC matter
		assertThat(advice(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:14318"))
			.explains("spans", new IOException("FRAME_SIZE_ERROR: 4740180"))).isFalse();
		assertThat(warnings(output)).singleElement()
			.satisfies((line) -> assertThat(line).contains("over OTLP/gRPC", "answers like an OTLP/HTTP receiver",
					"OTLP/gRPC port (4317)", "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf"));
	}

	@Test
	void theOtherProtocolsPortIsSaidBeforeAnythingIsSent(CapturedOutput output) {
		ProtocolAdvice advice = advice(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317"));
		advice.beforeExport();
		assertThat(advice.explains("spans", new EOFException("EOF reached while reading"))).isTrue();
		advice(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
				WITH_SENDER)
			.beforeExport();
		advice(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")).beforeExport();
		assertThat(warnings(output)).hasSize(2)
			.anySatisfy((line) -> assertThat(line).contains("port 4317 is OTLP/gRPC's"))
			.anySatisfy((line) -> assertThat(line).contains("port 4318 is OTLP/HTTP's"));
	}

	@Test
	void nemosGrpcDefaultWithoutASenderIsSaidUpFront(CapturedOutput output) {
		ProtocolAdvice advice = advice(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:14317",
				"NEMO_GYM_OTEL_ENABLED", "1"));
		advice.beforeExport();
		assertThat(advice.explains("metrics", GRPC_ANSWER)).isTrue();
		assertThat(warnings(output)).singleElement()
			.satisfies((line) -> assertThat(line).contains("NeMo Gym's servers speak OTLP/gRPC here",
					"OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "4318",
					"io.github.startuptelemetry:startup-telemetry-grpc"));
	}

	@Test
	void grpcSetWithoutASenderIsSaidWhenTheSettingsAreRead(CapturedOutput output) {
		ProtocolAdvice.settled(ExportSettings.of(new MockEnvironment(),
				Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
				WITHOUT_SENDER));
		assertThat(warnings(output)).singleElement()
			.satisfies((line) -> assertThat(line).contains("not exported to http://collector:4317",
					"OTEL_EXPORTER_OTLP_PROTOCOL asks for OTLP/gRPC", "no gRPC sender",
					"OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "4318",
					"io.github.startuptelemetry:startup-telemetry-grpc"));
	}

	private static ProtocolAdvice advice(Map<String, String> env) {
		return advice(env, WITHOUT_SENDER);
	}

	private static ProtocolAdvice advice(Map<String, String> env, ClassLoader classLoader) {
		return new ProtocolAdvice(ExportSettings.of(new MockEnvironment(), env, classLoader));
	}

	private static java.util.List<String> warnings(CapturedOutput output) {
		return output.getAll().lines().filter((line) -> line.contains("WARN")).toList();
	}

}
