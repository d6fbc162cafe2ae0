package io.github.startuptelemetry.it.lifecycle;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.Http;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Spans.ofProcess;
import static io.github.startuptelemetry.it.support.Spans.only;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a supervisor hands a server through env reaches it: servers configured with nothing but
 * the standard {@code OTEL_*} variables and their rank export to the supervisor's collector,
 * each with its own identity, and OTLP headers reach the collector without ever showing up in
 * the server's output.
 */
class EnvPropagationProcessTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	private static final String SECRET = "s3cr3t";

	@TempDir
	Path tmp;

	@RegisterExtension
	final OtlpReceiver receiver = new OtlpReceiver();

	@Test
	void serversConfiguredOnlyThroughEnvExportWithTheirRank() throws Exception {
		try (JavaProcess rank0 = sampleServer().env("TELEMETRY_RANK", "0")
			.env("TELEMETRY_WORLD_SIZE", "2")
			.env("TELEMETRY_RUN_ID", "run-42")
			.start(this.tmp.resolve("rank0.log"));
				JavaProcess rank1 = sampleServer().env("RANK", "1")
					.env("WORLD_SIZE", "2")
					.env("TELEMETRY_WORKER_GROUP", "model")
					.start(this.tmp.resolve("rank1.log"))) {
			List<ReceivedSpan> spans = this.receiver.awaitSpans(
					(all) -> ofProcess(all, rank0.pid()).stream().anyMatch((s) -> s.name().equals("gym.server.startup"))
							&& ofProcess(all, rank1.pid()).stream()
								.anyMatch((s) -> s.name().equals("gym.server.startup")),
					TIMEOUT);
			ReceivedSpan root0 = only(ofProcess(spans, rank0.pid()), "gym.server.startup");
			ReceivedSpan root1 = only(ofProcess(spans, rank1.pid()), "gym.server.startup");
			assertThat(root0.resourceAttribute("nv.dl.rank")).isEqualTo("0");
			assertThat(root1.resourceAttribute("nv.dl.rank")).isEqualTo("1");
			assertThat(root0.resourceAttribute("nv.dl.world_size")).isEqualTo("2");
			assertThat(root1.resourceAttribute("nv.dl.world_size")).isEqualTo("2");
			assertThat(root0.resourceAttribute("nemo.run.id")).isEqualTo("run-42");
			assertThat(root0.resourceAttribute("nv.dl.run_id")).isEqualTo("run-42");
			assertThat(root1.resourceAttribute("nemo.run.id")).matches("[0-9a-f]{12}");
			assertThat(root1.resourceAttribute("rl.worker_group")).isEqualTo("model");
			assertThat(root0.serviceName()).isEqualTo("sample-server");
			// typed as nemo-lens declares them, and Gym exports them: ints
			assertThat(root0.resourceValue("nv.dl.rank").getValueCase()).isEqualTo(AnyValue.ValueCase.INT_VALUE);
			assertThat(root1.resourceValue("nv.dl.rank").getIntValue()).isEqualTo(1);
			assertThat(root1.resourceValue("nv.dl.world_size").getIntValue()).isEqualTo(2);
			assertThat(root0.resourceValue("process.pid").getIntValue()).isEqualTo(rank0.pid());
		}
	}

	@Test
	void otelResourceAttributesThatLensTypesAsIntAreInts() throws Exception {
		try (JavaProcess server = sampleServer()
			.env("OTEL_RESOURCE_ATTRIBUTES", "nv.dl.local_rank=3,nv.gpu.index=+1,nv.dl.rank=x,nemo.run.id=007")
			.start(this.tmp.resolve("server.log"))) {
			ReceivedSpan root = only(this.receiver.awaitSpansNamed("gym.server.startup", 1, TIMEOUT),
					"gym.server.startup");
			assertThat(root.resourceValue("nv.dl.local_rank").getIntValue()).isEqualTo(3);
			assertThat(root.resourceValue("nv.gpu.index").getIntValue()).isEqualTo(1);
			assertThat(root.resourceValue("nv.dl.rank").getStringValue()).isEqualTo("x");
			assertThat(root.resourceValue("nemo.run.id").getStringValue()).isEqualTo("007");
		}
	}

	@Test
	void onSlurmTheJobIsOnTheResourceAsLensNamesIt() throws Exception {
		try (JavaProcess server = sampleServer().env("SLURM_JOB_ID", "4242")
			.env("SLURM_CLUSTER_NAME", "eos")
			.env("SLURM_NNODES", "2")
			.start(this.tmp.resolve("slurm.log"))) {
			ReceivedSpan root = only(this.receiver.awaitSpansNamed("gym.server.startup", 1, TIMEOUT),
					"gym.server.startup");
			assertThat(root.resourceValue("slurm.job.id").getStringValue()).isEqualTo("4242");
			assertThat(root.resourceValue("slurm.cluster.name").getStringValue()).isEqualTo("eos");
			assertThat(root.resourceValue("slurm.nnodes").getIntValue()).isEqualTo(2);
			assertThat(root.resourceValue("slurm.restart_count").getIntValue()).isZero();
			// Python: uuid.uuid5(uuid.NAMESPACE_URL, "nemo.lens.job/eos/4242")
			assertThat(root.resourceAttribute("nv.dl.job.uuid")).matches("[0-9a-f-]{36}");
			// and, with no run id given, the run is the job, as in Gym
			assertThat(root.resourceAttribute("nemo.run.id")).isEqualTo("4242");
		}
	}

	/**
	 * One server for two cases (a JVM start fewer): told no rank, it is rank 0 of a world of 1 as in
	 * Gym; and its OTLP headers reach the collector but none of its output.
	 */
	@Test
	void withoutAnyRankSettingAServerIsRankZeroOfAWorldOfOneAsInGymAndOtlpHeadersReachTheCollectorButNoOutput()
			throws Exception {
		int port = Ports.free();
		String endpointOutput;
		try (JavaProcess server = sampleServer(port).withoutEnv("RANK")
			.withoutEnv("WORLD_SIZE")
			.withoutEnv("LOCAL_RANK")
			.env("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer " + SECRET)
			.args("--debug", "--logging.level.io.github.startuptelemetry=trace")
			.start(this.tmp.resolve("server.log"))) {
			List<ReceivedSpan> spans = this.receiver.awaitSpansNamed("gym.server.startup", 1, TIMEOUT);
			// without any rank setting
			ReceivedSpan root = only(spans, "gym.server.startup");
			assertThat(root.resourceValue("nv.dl.rank").getValueCase()).isEqualTo(AnyValue.ValueCase.INT_VALUE);
			assertThat(root.resourceValue("nv.dl.rank").getIntValue()).isZero();
			assertThat(root.resourceValue("nv.dl.world_size").getValueCase())
				.isEqualTo(AnyValue.ValueCase.INT_VALUE);
			assertThat(root.resourceValue("nv.dl.world_size").getIntValue()).isEqualTo(1);
			// Gym never sets it
			assertThat(root.resourceValue("nv.dl.local_rank")).isNull();
			// the OTLP headers
			assertThat(spans).allSatisfy((span) -> assertThat(span.authorization()).isEqualTo("Bearer " + SECRET));
			endpointOutput = Http.get("http://127.0.0.1:" + port + "/actuator/startuptimeline");
			assertThat(endpointOutput).contains("\"beanSpans\"");
			// stopping publishes the metrics once more, so they are checked too
			server.terminate();
			server.awaitExit(TIMEOUT);
			assertThat(server.log()).contains("Startup of 'sample-server'").doesNotContain(SECRET);
		}
		assertThat(endpointOutput).doesNotContain(SECRET);
		List<ReceivedSpan> spans = this.receiver.spans();
		assertThat(spans).allSatisfy((span) -> {
			assertThat(span.span().getAttributesList().toString()).doesNotContain(SECRET);
			assertThat(span.resource().toString()).doesNotContain(SECRET);
		});
		List<ResourceMetrics> metrics = this.receiver.metrics();
		assertThat(metrics).isNotEmpty()
			.allSatisfy((resourceMetrics) -> assertThat(resourceMetrics.toString()).doesNotContain(SECRET));
	}

	/** The sample server, told nothing about telemetry but the standard OTLP endpoint variable. */
	private JavaProcess.Builder sampleServer() throws Exception {
		return sampleServer(Ports.free());
	}

	private JavaProcess.Builder sampleServer(int port) {
		return JavaProcess.jar(SampleJars.server())
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			.args("--server.port=" + port, "--sample.model-loader.duration=100ms",
					"--sample.model-loader.warmup=10ms");
	}

}
