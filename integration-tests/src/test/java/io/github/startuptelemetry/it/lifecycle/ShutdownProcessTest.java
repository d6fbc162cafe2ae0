package io.github.startuptelemetry.it.lifecycle;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.BlackHoleCollector;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Spans.named;
import static io.github.startuptelemetry.it.support.Spans.only;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server told to stop (SIGTERM) with 3000 spans queued for export exits within
 * {@code telemetry.shutdown-timeout} whatever the collector does, and loses nothing when the
 * collector is healthy. Plain Boot 4.0.7 needs ~10 s against a collector that never answers.
 * The two cases that assert the exit time run alone (integration-tests/pom.xml); the healthy
 * collector's asserts no time, so it runs beside the other classes.
 */
class ShutdownProcessTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	private static final int BURST = 3000;

	/** Generous: the budget is 2 s, plain Boot needs 10 s or more. */
	private static final Duration EXIT_BOUND = Duration.ofSeconds(5);

	@TempDir
	Path tmp;

	@Test
	@Tag("alone") // integration-tests/pom.xml: it asserts a time
	void exitsWithinTheBudgetAgainstACollectorThatNeverAnswers() throws Exception {
		try (BlackHoleCollector blackHole = BlackHoleCollector.start();
				JavaProcess server = burstingServer(blackHole.baseUrl()).start(this.tmp.resolve("server.log"))) {
			server.awaitLog("Queued " + BURST + " spans", TIMEOUT);
			blackHole.awaitConnection(TIMEOUT);
			assertExitsWithinBound(server, "black hole");
			assertThat(server.log()).contains("Telemetry shutdown abandoned after telemetry.shutdown-timeout");
		}
	}

	@Test
	@Tag("alone") // integration-tests/pom.xml: it asserts a time
	void exitsWithinTheBudgetWhenTheCollectorRefusesConnections() throws Exception {
		try (JavaProcess server = burstingServer(BlackHoleCollector.refusingBaseUrl())
			.start(this.tmp.resolve("server.log"))) {
			server.awaitLog("Queued " + BURST + " spans", TIMEOUT);
			assertExitsWithinBound(server, "connection refused");
			assertThat(server.log()).contains("Telemetry shutdown abandoned after telemetry.shutdown-timeout");
		}
	}

	@Test
	void flushesEverythingToAHealthyCollector() throws Exception {
		try (OtlpReceiver receiver = OtlpReceiver.start();
				JavaProcess server = burstingServer(receiver.baseUrl())
					// only the shutdown flush sends the last, partial batch
					.args("--management.opentelemetry.tracing.export.schedule-delay=1h")
					.start(this.tmp.resolve("server.log"))) {
			server.awaitLog("Queued " + BURST + " spans", TIMEOUT);
			long start = System.nanoTime();
			server.terminate();
			server.awaitExit(TIMEOUT);
			long tookMs = (System.nanoTime() - start) / 1_000_000;
			System.out.println("healthy collector: exit " + tookMs + " ms after SIGTERM");
			List<ReceivedSpan> spans = receiver.spans();
			assertThat(named(spans, "sample.burst")).hasSize(BURST);
			ReceivedSpan root = only(spans, "gym.server.startup");
			assertThat(spans.stream().filter((s) -> s.parentSpanId().equals(root.spanId())))
				.extracting(ReceivedSpan::name)
				.contains("gym.server.startup.beans_instantiated", "gym.server.startup.application_ready")
				.hasSize(8);
			assertThat(server.log()).doesNotContain("Telemetry shutdown abandoned");
		}
	}

	/** SIGTERM, then the one timing assertion of the suite: the JVM is gone within the bound. */
	private static void assertExitsWithinBound(JavaProcess server, String collector) throws InterruptedException {
		long start = System.nanoTime();
		server.terminate();
		server.awaitExit(TIMEOUT);
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		System.out.println(collector + ": exit " + took.toMillis() + " ms after SIGTERM");
		assertThat(took).as("exit after SIGTERM").isLessThan(EXIT_BOUND);
	}

	/**
	 * A server exporting traces and metrics to {@code collector} that queues {@value #BURST}
	 * spans once ready, with a 2 s shutdown budget.
	 */
	private static JavaProcess.Builder burstingServer(String collector) throws Exception {
		return JavaProcess.jar(SampleJars.server())
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", collector)
			.args("--server.port=" + Ports.free(), "--sample.model-loader.duration=100ms",
					"--sample.model-loader.warmup=10ms", "--telemetry.shutdown-timeout=2s",
					"--sample.span-burst=" + BURST, "--management.tracing.sampling.probability=1.0",
					"--management.opentelemetry.tracing.export.max-queue-size=" + (2 * BURST));
	}

}
