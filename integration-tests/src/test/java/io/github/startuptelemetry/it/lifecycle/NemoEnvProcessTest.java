package io.github.startuptelemetry.it.lifecycle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.startuptelemetry.it.support.Http;
import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Spans.only;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * NeMo Gym's and nemo-lens's switches reach a Java server: told {@code NEMO_GYM_OTEL_ENABLED=0}
 * (or, through the fallback, {@code NEMO_LENS_ENABLED=false}) by the env, as a Gym supervisor
 * tells its servers, a server with an endpoint exports nothing, neither spans nor metrics, and
 * still serves.
 */
class NemoEnvProcessTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	@TempDir
	Path tmp;

	@RegisterExtension
	final OtlpReceiver receiver = new OtlpReceiver();

	@ParameterizedTest
	@CsvSource({ "NEMO_GYM_OTEL_ENABLED, 0", "NEMO_LENS_ENABLED, false" })
	void nemoSwitchOffMeansNothingIsExported(String variable, String value) throws Exception {
		int port = Ports.free();
		try (JavaProcess server = JavaProcess.jar(SampleJars.server())
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			.env(variable, value)
			.args("--server.port=" + port, "--sample.model-loader.duration=100ms",
					"--sample.model-loader.warmup=10ms")
			.start(this.tmp.resolve("server.log"))) {
			server.awaitLog("Started ", TIMEOUT);
			assertThat(Http.get("http://127.0.0.1:" + port + "/actuator/health")).contains("UP");
			// stopping would flush what was recorded
			server.terminate();
			server.awaitExit(TIMEOUT);
			assertThat(server.log()).doesNotContain("Startup of 'sample-server'");
		}
		assertThat(this.receiver.spans()).isEmpty();
		assertThat(this.receiver.metrics()).isEmpty();
	}

	@Test
	void withoutTheStartupSpanGroupStartupSpansAreDroppedButMetricsAndTheAppStay() throws Exception {
		int port = Ports.free();
		try (JavaProcess server = JavaProcess.jar(SampleJars.server())
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			.env("NEMO_GYM_OTEL_SPAN_GROUPS", "per_rollout")
			// a NeMo process speaks gRPC unless told otherwise, as Gym's servers do; this receiver is HTTP
			.env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
			.args("--server.port=" + port, "--sample.model-loader.duration=100ms",
					"--sample.model-loader.warmup=10ms")
			.start(this.tmp.resolve("groups.log"))) {
			server.awaitLog("Startup of 'sample-server'", TIMEOUT);
			assertThat(Http.get("http://127.0.0.1:" + port + "/actuator/health")).contains("UP");
			server.terminate();
			server.awaitExit(TIMEOUT);
		}
		assertThat(this.receiver.spans()).noneMatch((span) -> span.name().startsWith("gym."));
		assertThat(this.receiver.metrics().toString()).contains("gym.server.startup_stage_duration_ms");
	}

	@Test
	void withoutTheStartupSpanGroupASupervisorHandsItsServersNoTraceparentAsGymDoes() throws Exception {
		Path env = this.tmp.resolve("server.env");
		try (JavaProcess supervisor = JavaProcess.jar(SampleJars.startupAppSupervisor())
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			.env("NEMO_GYM_OTEL_SPAN_GROUPS", "per_rollout")
			.env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
			.args("--server.port=" + Ports.free(), "--telemetry.supervisor.run-dir=" + this.tmp.resolve("run"))
			.args(Fleets.envDump(env))
			.start(this.tmp.resolve("supervisor.log"))) {
			supervisor.awaitFile(env, TIMEOUT);
			List<String> variables = Files.readAllLines(env)
				.stream()
				.map((line) -> line.substring(0, Math.max(0, line.indexOf('='))))
				.toList();
			// Gym's server_env: the spawn stamp always, the traceparent only with the group on
			assertThat(variables).contains("NEMO_GYM_STARTUP_SPAWN_NS", "TELEMETRY_STARTUP_SERVER_NAME")
				.doesNotContain("NEMO_GYM_STARTUP_TRACEPARENT", "TRACEPARENT");
		}
	}

	@Test
	void underAGymSupervisorAJavaServerIsNamedAsAGymServerIs() throws Exception {
		try (JavaProcess server = JavaProcess.jar(SampleJars.server())
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			.env("NEMO_GYM_OTEL_ENABLED", "1")
			.env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
			.env("OTEL_SERVICE_NAME", "nemo-gym")
			.env("NEMO_GYM_CONFIG_PATH", "java_server")
			// Gym's whole configuration, as its env.py hands it to every server it spawns
			.env("NEMO_GYM_CONFIG_DICT", """
					java_server:
					  responses_api_models:
					    java_model:
					      entrypoint: app.py
					      port: 8001
					math:
					  resources_servers:
					    math:
					      entrypoint: app.py
					""")
			.args("--server.port=" + Ports.free(), "--sample.model-loader.duration=100ms",
					"--sample.model-loader.warmup=10ms")
			.start(this.tmp.resolve("gym-child.log"))) {
			ReceivedSpan root = only(this.receiver.awaitSpansNamed("gym.server.startup", 1, TIMEOUT),
					"gym.server.startup");
			assertThat(root.serviceName()).isEqualTo("nemo-gym/java_server");
			assertThat(root.resourceAttribute("nemo.gym.service_group")).isEqualTo("nemo-gym");
			assertThat(root.attribute("nemo.gym.server.name")).isEqualTo("java_server");
			// the type a Python server of Gym's would report: where Gym's configuration nests it
			assertThat(root.attribute("nemo.gym.server.type")).isEqualTo("responses_api_models");
			// the resource as Gym's servers have it
			assertThat(root.resourceAttribute("host.name")).isNotBlank();
			assertThat(root.resourceAttribute("service.instance.id")).endsWith("-rank0");
		}
	}

}
