package io.github.startuptelemetry.it.supervisor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Fleets.TIMEOUT;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static io.github.startuptelemetry.it.support.Spans.only;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * OTLP headers are secrets: the supervisor's own and one set in a server's {@code env} both do
 * their job (they reach the collector with each process's spans), and neither shows up in
 * anything the supervisor writes: its console output at debug and trace level, the per-server
 * log files it opens, the HTML report.
 */
class SupervisorSecretsProcessTest {

	private static final String SERVER_SECRET = "s3cr3t-server-9f2c";

	private static final String SUPERVISOR_SECRET = "s3cr3t-supervisor-41ab";

	@TempDir
	Path tmp;

	@RegisterExtension
	final OtlpReceiver receiver = new OtlpReceiver();

	@Test
	void otlpHeadersReachTheCollectorButNothingTheSupervisorWrites() throws Exception {
		Path runDir = this.tmp.resolve("run");
		// the standard variables, which Boot's own export properties would override as a unit
		try (JavaProcess supervisor = JavaProcess.jar(SampleJars.supervisor())
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			.env("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer " + SUPERVISOR_SECRET)
			.args(server(0, "model", "{java}", "-XX:TieredStopAtLevel=1", "-jar", SampleJars.server().toString(),
					"--server.port={port}", "--sample.model-loader.duration=100ms"))
			.args("--telemetry.supervisor.servers[0].env[OTEL_EXPORTER_OTLP_HEADERS]=authorization=Bearer " + SERVER_SECRET,
					"--telemetry.supervisor.run-dir=" + runDir,
					"--telemetry.supervisor.report.html=" + this.tmp.resolve("startup-report.html"),
					"--telemetry.supervisor.report.json=" + this.tmp.resolve("startup-report.json"),
					"--telemetry.supervisor.exit-when-ready=true", "--debug",
					"--logging.level.io.github.startuptelemetry=trace")
			.start(this.tmp.resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
			List<ReceivedSpan> spans = this.receiver.awaitSpans((all) -> Fleets.count(all, "gym.startup") == 1
					&& Fleets.count(all, "gym.server.startup") == 1, TIMEOUT);
			assertThat(only(spans, "gym.startup").authorization()).isEqualTo("Bearer " + SUPERVISOR_SECRET);
			assertThat(only(spans, "gym.server.startup").authorization()).isEqualTo("Bearer " + SERVER_SECRET);

			assertThat(supervisor.log()).contains("Startup ready after").doesNotContain(SERVER_SECRET, SUPERVISOR_SECRET);
			List<Path> written;
			try (Stream<Path> files = Files.walk(this.tmp)) {
				written = files.filter(Files::isRegularFile).filter((f) -> !f.equals(this.tmp.resolve("supervisor.log"))).toList();
			}
			assertThat(written)
				.contains(runDir.resolve("model.log"), this.tmp.resolve("startup-report.html"),
						this.tmp.resolve("startup-report.json"))
				.allSatisfy((file) -> assertThat(file).content().doesNotContain(SERVER_SECRET, SUPERVISOR_SECRET));
			assertThat(spans).allSatisfy((span) -> {
				assertThat(span.span().getAttributesList().toString()).doesNotContain(SERVER_SECRET, SUPERVISOR_SECRET);
				assertThat(span.resource().toString()).doesNotContain(SERVER_SECRET, SUPERVISOR_SECRET);
			});
		}
	}

}
