package io.github.startuptelemetry.it.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import io.github.startuptelemetry.it.support.ClassLoadLog;
import io.github.startuptelemetry.it.support.FirstResponse;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpGrpcReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.Spans;
import io.github.startuptelemetry.it.support.StarterLog;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * OTLP/gRPC where NeMo speaks it (issue 39): the plain web app with the starter and its gRPC
 * add-on ({@code plain-app-grpc.jar}) or without it ({@code plain-app-starter.jar}), as real JVMs
 * against a real OTLP/gRPC receiver (grpc-java's). Under a Gym-like environment (Gym's variables,
 * an endpoint, no protocol) a server with the add-on exports everything over gRPC, as a Python Gym
 * server would; without it, one WARN says what to do; OTLP/HTTP stays on the JDK's client.
 */
// its cases are independent processes, each with its own receiver and directory, that mostly wait
@Execution(ExecutionMode.CONCURRENT)
class GrpcExportProcessTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(120);

	/** What a Gym supervisor hands a server it spawns: its telemetry switch, the server's name, the fleet's group. */
	private static final Map<String, String> GYM_ENV = Map.of("NEMO_GYM_OTEL_ENABLED", "1", "NEMO_GYM_CONFIG_PATH",
			"java_server", "OTEL_SERVICE_NAME", "nemo-gym");

	/** A server's histogram (the other, {@code gym.server.startup_duration_ms}, is its supervisor's). */
	private static final String STAGE_HISTOGRAM = "gym.server.startup_stage_duration_ms";

	@TempDir
	Path tmp;

	@RegisterExtension
	final OtlpGrpcReceiver grpc = new OtlpGrpcReceiver();

	@Test
	void underAGymEnvironmentAServerWithTheAddOnExportsEveryStageAndItsHistogramOverGrpc() throws Exception {
		Path classes = this.tmp.resolve("classes.log");
		int port = Ports.free();
		long pid;
		String log;
		try (JavaProcess app = app(SampleJars.plainAppWithGrpc(), port).env(GYM_ENV)
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.grpc.endpoint())
			.jvmArgs(ClassLoadLog.jvmArg(classes))
			.args("--logging.level.io.github.startuptelemetry.export=debug")
			.start(this.tmp.resolve("app.log"))) {
			pid = app.pid();
			FirstResponse.await(app, PlainAppProcessTest.hello(port), TIMEOUT);
			this.grpc.awaitSpansNamed("gym.server.startup", 1, TIMEOUT);
			app.awaitLog("Startup of 'java_server'", TIMEOUT);
			// the histograms leave at the reader's period or, as here, when the server stops
			app.terminate();
			assertThat(app.awaitExit(TIMEOUT)).as("SIGTERM's exit code").isEqualTo(143);
			log = app.log();
		}
		List<ReceivedSpan> spans = Spans.ofProcess(this.grpc.spans(), pid);
		ReceivedSpan root = Spans.only(spans, "gym.server.startup");
		List<ReceivedSpan> stages = Spans.stages(spans, root);
		assertThat(stages).extracting((span) -> span.attribute("nemo.gym.startup.stage"))
			.containsExactlyElementsOf(PlainAppProcessTest.STAGES);
		Spans.assertContiguous(stages, root);
		assertThat(root.serviceName()).isEqualTo("nemo-gym/java_server");
		assertThat(log).contains("[trace " + root.traceId() + "]");
		assertThat(PlainAppProcessTest.stagePoints(this.grpc.metrics()))
			.extracting((point) -> PlainAppProcessTest.attributes(point).get("nemo.gym.startup.stage").getStringValue())
			.containsAll(PlainAppProcessTest.STAGES);
		// the resolved protocol, and why, in the debug log; nothing above INFO from the starter
		assertThat(log).contains("traces over grpc, metrics over grpc (NeMo Gym's default");
		assertThat(StarterLog.warnings(log)).isEmpty();
		assertThat(log).doesNotContain("Multiple HttpSenderProvider", "Multiple GrpcSenderProvider");
		assertThat(ClassLoadLog.read(classes).inPackage("io.opentelemetry.exporter.sender.okhttp.")).isNotEmpty();
	}

	/**
	 * The same environment without the add-on: the server falls back to OTLP/HTTP (as nemo-lens
	 * does without its gRPC exporter), which the gRPC receiver refuses, and one WARN says both
	 * fixes: never a bare {@code EOFException}, not one per signal.
	 */
	@Test
	void underAGymEnvironmentWithoutTheAddOnOneWarningSaysWhatToDo() throws Exception {
		String log = failingExport(app(SampleJars.plainAppWithStarter(), Ports.free()).env(GYM_ENV));
		assertOneWarningNamingBothFixes(log);
		assertThat(StarterLog.warnings(log).get(0)).contains("NeMo Gym's servers speak OTLP/gRPC here");
	}

	/** OTLP/HTTP said explicitly, to a gRPC receiver: its answer is recognised, said once. */
	@Test
	void otlpHttpToAGrpcReceiverIsOneWarningNamingBothFixes() throws Exception {
		String log = failingExport(
				app(SampleJars.plainAppWithStarter(), Ports.free()).env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"));
		assertOneWarningNamingBothFixes(log);
		assertThat(StarterLog.warnings(log).get(0)).contains("it answers like an OTLP/gRPC receiver");
	}

	@Test
	void grpcSetWithoutTheAddOnIsOneWarningAndNothingExported() throws Exception {
		int port = Ports.free();
		String log;
		try (JavaProcess app = app(SampleJars.plainAppWithStarter(), port)
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.grpc.endpoint())
			.env("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
			.start(this.tmp.resolve("app.log"))) {
			FirstResponse.await(app, PlainAppProcessTest.hello(port), TIMEOUT);
			app.awaitLog("Startup of 'plain-app'", TIMEOUT);
			app.terminate();
			assertThat(app.awaitExit(TIMEOUT)).as("SIGTERM's exit code").isEqualTo(143);
			log = app.log();
		}
		assertThat(StarterLog.warnings(log)).singleElement()
			.satisfies((line) -> assertThat(line).contains("OTEL_EXPORTER_OTLP_PROTOCOL asks for OTLP/gRPC",
					"no gRPC sender", "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "4318",
					"io.github.startuptelemetry:startup-telemetry-grpc"));
		assertThat(PlainAppProcessTest.summary(log)).endsWith("[trace not exported]");
		assertThat(log).doesNotContain("GrpcSenderProvider", "\tat ");
		assertThat(this.grpc.spans()).isEmpty();
		assertThat(this.grpc.metrics()).isEmpty();
	}

	/**
	 * The add-on's OkHttp registers an HTTP sender too; the starter's own SDK keeps OTLP/HTTP on
	 * the JDK's client all the same: no OkHttp class loads, and the SDK does not warn of two
	 * senders.
	 */
	@Test
	void withTheAddOnOtlpHttpStaysOnTheJdksClient() throws Exception {
		Path classes = this.tmp.resolve("classes.log");
		int port = Ports.free();
		long pid;
		String log;
		try (OtlpReceiver http = OtlpReceiver.start();
				JavaProcess app = app(SampleJars.plainAppWithGrpc(), port).env("OTEL_EXPORTER_OTLP_ENDPOINT", http.baseUrl())
					.jvmArgs(ClassLoadLog.jvmArg(classes))
					.start(this.tmp.resolve("app.log"))) {
			pid = app.pid();
			FirstResponse.await(app, PlainAppProcessTest.hello(port), TIMEOUT);
			http.awaitSpansNamed("gym.server.startup", 1, TIMEOUT);
			app.terminate();
			assertThat(app.awaitExit(TIMEOUT)).as("SIGTERM's exit code").isEqualTo(143);
			log = app.log();
			assertThat(Spans.stageCount(Spans.ofProcess(http.spans(), pid))).isEqualTo(PlainAppProcessTest.STAGES.size() + 1);
			assertThat(metricNames(http.metrics())).contains(STAGE_HISTOGRAM);
		}
		// (Kotlin's standard library is looked at all the same: Spring loads a few of its classes wherever it is present)
		ClassLoadLog loaded = ClassLoadLog.read(classes);
		assertThat(loaded.inPackage("okhttp3.")).as("OkHttp's classes").isEmpty();
		assertThat(loaded.inPackage("io.opentelemetry.exporter.sender.okhttp.")).as("OkHttp's senders").isEmpty();
		assertThat(loaded.inPackage("io.opentelemetry.exporter.sender.jdk.")).as("the JDK's sender").isNotEmpty();
		assertThat(log).doesNotContain("Multiple HttpSenderProvider");
		assertThat(StarterLog.warnings(log)).isEmpty();
	}

	/**
	 * A supervisor exporting over gRPC (an application with Boot's OpenTelemetry, whose OkHttp
	 * sender speaks it) hands {@code grpc} to the server it spawns, which has the add-on: one trace
	 * over gRPC, the supervisor's spans and the server's, and the server's histogram.
	 */
	@Test
	void aSupervisorHandsGrpcToAServerWithTheAddOn() throws Exception {
		String prefix = "--telemetry.supervisor.servers[0].";
		String log;
		try (JavaProcess supervisor = JavaProcess.jar(SampleJars.startupAppSupervisor())
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.grpc.endpoint())
			.env("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
			// Micrometer's OTLP registry (the supervisor's histogram) speaks OTLP/HTTP only
			.args("--server.port=" + Ports.free(), "--telemetry.supervisor.run-dir=" + this.tmp.resolve("run"),
					"--telemetry.supervisor.exit-when-ready=true", "--management.otlp.metrics.export.enabled=false",
					prefix + "name=grpc-server", prefix + "health-url=http://127.0.0.1:{port}/hello",
					prefix + "command[0]={java}", prefix + "command[1]=-XX:TieredStopAtLevel=1", prefix + "command[2]=-jar",
					prefix + "command[3]=" + SampleJars.plainAppWithGrpc(), prefix + "command[4]=--server.port={port}")
			.start(this.tmp.resolve("supervisor.log"))) {
			// its servers stopped, everything exported
			assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
			log = supervisor.log();
		}
		List<ReceivedSpan> spans = this.grpc.spans();
		ReceivedSpan fleet = Spans.only(spans, "gym.startup");
		ReceivedSpan handle = Spans.only(spans, "gym.startup.server");
		ReceivedSpan server = Spans.only(spans, "gym.server.startup");
		assertThat(List.of(handle.traceId(), server.traceId())).containsOnly(fleet.traceId());
		assertThat(server.parentSpanId()).isEqualTo(handle.spanId());
		assertThat(server.serviceName()).isEqualTo("grpc-server");
		assertThat(metricNames(this.grpc.metrics())).contains(STAGE_HISTOGRAM);
		assertThat(StarterLog.warnings(log)).isEmpty();
	}

	/**
	 * An export that cannot reach the gRPC receiver over HTTP: the receiver's endpoint, metrics
	 * every second, both signals' failures waited for (at DEBUG), then a stop.
	 */
	private String failingExport(JavaProcess.Builder builder) throws Exception {
		try (JavaProcess app = builder.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.grpc.endpoint())
			.env("OTEL_METRIC_EXPORT_INTERVAL", "1000")
			.env("TELEMETRY_SHUTDOWN_TIMEOUT", "2s")
			.args("--logging.level.io.github.startuptelemetry.export=debug")
			.start(this.tmp.resolve("app.log"))) {
			app.awaitLog("Could not export startup telemetry spans", TIMEOUT);
			app.awaitLog("Could not export startup telemetry metrics", TIMEOUT);
			app.terminate();
			assertThat(app.awaitExit(TIMEOUT)).as("SIGTERM's exit code").isEqualTo(143);
			return app.log();
		}
	}

	private void assertOneWarningNamingBothFixes(String log) {
		assertThat(StarterLog.warnings(log)).as(log)
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "4318",
					"io.github.startuptelemetry:startup-telemetry-grpc"));
		assertThat(log.lines().filter((line) -> line.contains(" WARN ") || line.contains(" ERROR ")))
			.noneMatch((line) -> line.contains("EOFException"));
		assertThat(log).doesNotContain("\tat ");
		assertThat(this.grpc.spans()).isEmpty();
	}

	private static JavaProcess.Builder app(Path jar, int port) {
		return JavaProcess.jar(jar).withoutEnv("SLURM_JOB_ID").args("--server.port=" + port);
	}

	static List<String> metricNames(List<ResourceMetrics> resources) {
		return resources.stream()
			.flatMap((resource) -> resource.getScopeMetricsList().stream())
			.flatMap((scope) -> scope.getMetricsList().stream())
			.map(Metric::getName)
			.distinct()
			.toList();
	}

}
