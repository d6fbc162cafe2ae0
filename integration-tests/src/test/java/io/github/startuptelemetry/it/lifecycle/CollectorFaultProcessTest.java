package io.github.startuptelemetry.it.lifecycle;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.github.startuptelemetry.it.support.BlackHoleCollector;
import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Fleets.TIMEOUT;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fleet whose collector misbehaves, every way a collector does: the server still gets ready
 * and, told to stop, stops within its 2 s shutdown budget (the supervisor would kill it after
 * 8 s, and says so; plain Boot needs 10-20 s against a collector that never answers), and the
 * supervisor still reports the startup and exits. The four collectors' fleets run at once: each
 * is a supervisor and a server of its own, with its own collector and directory, and most of
 * their time is waiting (on a shutdown budget, a slow answer).
 */
@Execution(ExecutionMode.CONCURRENT)
class CollectorFaultProcessTest {

	@TempDir
	Path tmp;

	@ParameterizedTest
	@EnumSource(Collector.class)
	void theFleetGetsReadyAndStopsInTimeAndTheSupervisorStillReports(Collector collector) throws Exception {
		try (Running running = collector.start();
				JavaProcess supervisor = JavaProcess.jar(SampleJars.supervisor())
					.env("OTEL_EXPORTER_OTLP_ENDPOINT", running.baseUrl())
					.env("TELEMETRY_SHUTDOWN_TIMEOUT", "2s")
					.args(server(0, "model", "{java}", "-XX:TieredStopAtLevel=1", "-jar", SampleJars.server().toString(),
							"--server.port={port}", "--sample.model-loader.duration=100ms"))
					.args("--telemetry.supervisor.exit-when-ready=true", "--telemetry.supervisor.stop-timeout=8s",
							"--telemetry.supervisor.run-dir=" + this.tmp.resolve("run"))
					.start(this.tmp.resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
			assertThat(supervisor.log()).contains("Startup ready after", "Stopping 1 server(s)")
				.doesNotContain("were killed");
			assertThat(this.tmp.resolve("run/model.log")).content().contains("Startup of 'model'");
			running.assertExportsArrived();
			if (collector == Collector.BLACK_HOLE) {
				// the one collector certain to hold a flush up: the budget cut it short, in both
				assertThat(supervisor.log()).contains("Telemetry shutdown abandoned after telemetry.shutdown-timeout");
				assertThat(this.tmp.resolve("run/model.log")).content()
					.contains("Telemetry shutdown abandoned after telemetry.shutdown-timeout");
			}
		}
	}

	/** How the collector misbehaves. */
	enum Collector {

		/** Accepts connections and never answers. */
		BLACK_HOLE,

		/** Nothing listens: every connection is refused. */
		REFUSING,

		/** Answers every export 500. */
		ERROR_500,

		/** Answers every export, 3 s late. */
		SLOW_3S;

		Running start() throws IOException {
			return switch (this) {
				case BLACK_HOLE -> {
					BlackHoleCollector blackHole = BlackHoleCollector.start();
					yield new Running(blackHole.baseUrl(), blackHole, () -> blackHole.awaitConnection(TIMEOUT));
				}
				case REFUSING -> new Running(BlackHoleCollector.refusingBaseUrl(), () -> {
				}, () -> {
				});
				case ERROR_500 -> received(OtlpReceiver.answering(500, Duration.ZERO));
				case SLOW_3S -> received(OtlpReceiver.answering(200, Duration.ofSeconds(3)));
			};
		}

	}

	/** A collector that keeps what arrives: both processes' startup spans reached it. */
	private static Running received(OtlpReceiver receiver) {
		return new Running(receiver.baseUrl(), receiver, () -> receiver.awaitSpans(
				(spans) -> Fleets.count(spans, "gym.startup") == 1 && Fleets.count(spans, "gym.server.startup") == 1,
				TIMEOUT));
	}

	/** A collector while it runs, and the proof that the exports did go to it. */
	record Running(String baseUrl, AutoCloseable collector, Arrival arrival) implements AutoCloseable {

		void assertExportsArrived() throws Exception {
			this.arrival.check();
		}

		@Override
		public void close() throws Exception {
			this.collector.close();
		}

	}

	@FunctionalInterface
	interface Arrival {

		void check() throws Exception;

	}

}
