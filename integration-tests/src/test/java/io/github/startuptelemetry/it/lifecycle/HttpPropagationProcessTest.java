package io.github.startuptelemetry.it.lifecycle;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.Http;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Spans.ofProcess;
import static io.github.startuptelemetry.it.support.Spans.only;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trace context crosses HTTP between two real servers (NeMo RL's
 * {@code instrument_aiohttp_client}): server A calls server B through Boot's
 * {@code RestClient.Builder} from inside a span, and B continues A's trace.
 */
class HttpPropagationProcessTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	@TempDir
	Path tmp;

	@Test
	void aCallThroughBootsRestClientContinuesTheCallersTrace() throws Exception {
		int portA = Ports.free();
		int portB = Ports.free();
		try (OtlpReceiver receiver = OtlpReceiver.start();
				JavaProcess a = server(receiver, portA).start(this.tmp.resolve("a.log"));
				JavaProcess b = server(receiver, portB).start(this.tmp.resolve("b.log"))) {
			a.awaitLog("Startup of 'sample-server'", TIMEOUT);
			b.awaitLog("Startup of 'sample-server'", TIMEOUT);
			String answer = Http
				.get("http://127.0.0.1:" + portA + "/relay?url=http://127.0.0.1:" + portB + "/predict?prompt=hi");
			assertThat(answer).contains("\"completion\":\"HI\"");

			Predicate<ReceivedSpan> serverSpan = (s) -> s.kind() == SpanKind.SPAN_KIND_SERVER;
			Predicate<ReceivedSpan> clientSpan = (s) -> s.kind() == SpanKind.SPAN_KIND_CLIENT;
			// the relay span ends after its client span, so it may come in a later batch: wait for all three
			List<ReceivedSpan> spans = receiver.awaitSpans(
					(all) -> ofProcess(all, b.pid()).stream().anyMatch(serverSpan)
							&& ofProcess(all, a.pid()).stream().anyMatch(clientSpan)
							&& ofProcess(all, a.pid()).stream().anyMatch((s) -> s.name().equals("sample.relay")),
					TIMEOUT);
			ReceivedSpan relay = only(ofProcess(spans, a.pid()), "sample.relay");
			ReceivedSpan call = ofProcess(spans, a.pid()).stream().filter(clientSpan).findFirst().orElseThrow();
			ReceivedSpan predict = ofProcess(spans, b.pid()).stream().filter(serverSpan).findFirst().orElseThrow();
			assertThat(call.parentSpanId()).isEqualTo(relay.spanId());
			assertThat(predict.traceId()).isEqualTo(relay.traceId());
			assertThat(predict.parentSpanId()).isEqualTo(call.spanId());
		}
	}

	/** A sample server exporting everything (sampling 1.0) to the receiver. */
	private static JavaProcess.Builder server(OtlpReceiver receiver, int port) {
		return JavaProcess.jar(SampleJars.server())
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.baseUrl())
			.args("--server.port=" + port, "--sample.model-loader.duration=100ms",
					"--sample.model-loader.warmup=10ms", "--management.tracing.sampling.probability=1.0");
	}

}
