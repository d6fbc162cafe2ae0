package io.github.startuptelemetry.it.server;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.startuptelemetry.it.support.ClassLoadLog;
import io.github.startuptelemetry.it.support.FirstResponse;
import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.Http;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.Jdks;
import io.github.startuptelemetry.it.support.OtlpGrpcReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.Spans;
import io.github.startuptelemetry.it.support.StarterLog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The starter on each Spring Boot line it supports, as users have it: a plain web app and one with
 * the actuator and Boot's own OpenTelemetry, built on Boot 3.5, 4.0 and 4.1 (each with its own Boot
 * parent), on Java 17, 25 and 21 where found, against a real OTLP receiver. Beside it: Boot 4.1's
 * mapping of {@code OTEL_*} off, the gRPC add-on on 3.5 and 4.1, and fleets from a 3.5 and a 4.1 supervisor.
 */
// its cases are independent processes, each with its own receiver and directory, that mostly wait
@Execution(ExecutionMode.CONCURRENT)
class BootLinesProcessTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(120);

	/** What the apps expose over HTTP beside {@code /hello}: the startup's endpoint, and the environment's sources. */
	private static final String EXPOSED = "--management.endpoints.web.exposure.include=health,startuptimeline,env";

	/** Every bean and step a span (Spring's phases always have one). */
	private static final String EVERY_BEAN = "--telemetry.startup.bean-spans.threshold=0ms";

	@RegisterExtension
	final OtlpReceiver receiver = new OtlpReceiver();

	@TempDir
	Path tmp;

	/**
	 * Every line on every JDK and with each kind of app, in one start per (line, JDK): the kind
	 * alternates, so that each line runs both apps (on 17 and 25) and each JDK runs both kinds.
	 * Half the JVM starts of the full product, which CI's time budget cannot afford; Boot 4.0 on
	 * Java 17 is the rest of the suite's (BootAppProcessTest, PlainAppProcessTest), not repeated.
	 */
	static Stream<Arguments> matrix() {
		List<String> lines = List.of("3.5", "4.0", "4.1");
		List<String> jdks = List.of("17", "25", "21");
		List<Arguments> cases = new ArrayList<>();
		for (int line = 0; line < lines.size(); line++) {
			for (int jdk = 0; jdk < jdks.size(); jdk++) {
				if (!(lines.get(line).equals("4.0") && jdks.get(jdk).equals("17"))) {
					cases.add(Arguments.of(lines.get(line), ((line + jdk) % 2 == 0) ? "plain" : "otel", jdks.get(jdk)));
				}
			}
		}
		return cases.stream();
	}

	/**
	 * All eight stages, the full resource, bean spans, the histogram, the summary line; with Boot's
	 * OpenTelemetry, the application's SDK carrying the startup even at a sampling probability of 0,
	 * and the actuator endpoint; nothing above INFO from the starter, no word about HTTP senders
	 * (OpenTelemetry's warning for two of them, or 1.62's for the old setting's name).
	 */
	@ParameterizedTest(name = "Boot {0}, {1} app, Java {2}")
	@MethodSource("matrix")
	void everyLineOnEveryJdk(String line, String kind, String jdk) throws Exception {
		Path java = java(jdk);
		Run run = run(app(line, kind), kind.equals("otel"), (builder) -> builder.java(java));
		if (kind.equals("otel")) {
			assertThat(run.classes().inPackage("io.github.startuptelemetry.export.internal.OwnSdk"))
				.as("the application's SDK carries the startup: the starter built none").isEmpty();
			if (line.equals("4.1")) {
				assertThat(run.endpointSources()).as("Boot 4.1 maps OTEL_*, the starter not")
					.contains("openTelemetryEnvironmentVariables")
					.doesNotContain("startupTelemetryOtlpEnvironment");
			}
			else {
				assertThat(run.endpointSources()).as("the starter maps OTEL_* for Boot")
					.contains("startupTelemetryOtlpEnvironment");
			}
		}
	}

	/**
	 * Boot 4.1's mapping off, its own switch: the starter's takes over, with the same result as
	 * Boot's in {@link #everyLineOnEveryJdk} (all of it checked again), from its own source.
	 */
	@Test
	void onBoot41TheStartersMappingWhereBootsIsOff() throws Exception {
		Run run = run(app("4.1", "otel"), true,
				(builder) -> builder.args("--management.opentelemetry.map-environment-variables=false"));
		assertThat(run.endpointSources()).contains("startupTelemetryOtlpEnvironment")
			.doesNotContain("openTelemetryEnvironmentVariables");
	}

	/** The gRPC add-on on the lines whose OpenTelemetry is not 4.0's: 1.49 (OkHttp 4) and 1.62 (OkHttp 5). */
	@ParameterizedTest(name = "Boot {0}")
	@MethodSource("grpcLines")
	void theGrpcAddOnExportsOverGrpc(String line) throws Exception {
		try (OtlpGrpcReceiver grpc = OtlpGrpcReceiver.start();
				JavaProcess app = JavaProcess.jar(SampleJars.bootLine(line, "grpc"))
					.withoutEnv("SLURM_JOB_ID")
					.env("OTEL_EXPORTER_OTLP_ENDPOINT", grpc.endpoint())
					.env("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
					.args("--server.port=" + Ports.free())
					.start(this.tmp.resolve("app.log"))) {
			List<ReceivedSpan> spans = grpc.awaitSpansNamed("gym.server.startup", 1, TIMEOUT);
			ReceivedSpan root = Spans.only(Spans.ofProcess(spans, app.pid()), "gym.server.startup");
			app.awaitLog("Startup of 'plain-app'", TIMEOUT);
			assertThat(app.log()).contains("[trace " + root.traceId() + "]");
			assertThat(StarterLog.warnings(app.log())).isEmpty();
			assertThat(app.log()).doesNotContain("HttpSenderProvider", "GrpcSenderProvider");
		}
	}

	static Stream<String> grpcLines() {
		return Stream.of("3.5", "4.1");
	}

	/**
	 * A supervisor on Boot 3.5 (its OpenTelemetry and the fleet module) starts a server on 3.5 and
	 * one on 4.1; one on Boot 4.1 (its OpenTelemetry) a server on 3.5: one trace, each server's
	 * startup inside it, the report's rows. The first 3.5 server has the actuator alone, where Boot 3
	 * builds an OpenTelemetry SDK of its own from the starter's, without a tracer provider: its
	 * startup arrives only if the starter's own SDK carries it.
	 */
	@ParameterizedTest(name = "supervisor on Boot {0}")
	@MethodSource("fleets")
	void aFleetAcrossTheLines(String line, Map<String, Path> servers) throws Exception {
		Path report = this.tmp.resolve("report.json");
		List<String> args = new ArrayList<>(List.of("--server.port=" + Ports.free(),
				"--telemetry.supervisor.exit-when-ready=true", "--telemetry.supervisor.run-dir=" + this.tmp.resolve("run"),
				"--telemetry.supervisor.report.json=" + report));
		int index = 0;
		for (Map.Entry<String, Path> server : servers.entrySet()) {
			args.addAll(List.of(server(index++, server.getKey(), server.getValue())));
		}
		try (JavaProcess supervisor = JavaProcess.jar(SampleJars.bootLine(line, "supervisor"))
			.withoutEnv("SLURM_JOB_ID")
			.workingDir(this.tmp)
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			.args(args.toArray(String[]::new))
			.start(this.tmp.resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
			List<ReceivedSpan> spans = this.receiver.awaitSpans((all) -> Fleets.count(all, "gym.startup") == 1
					&& Fleets.count(all, "gym.server.startup") == servers.size(), TIMEOUT);
			ReceivedSpan root = Spans.only(spans, "gym.startup");
			Map<String, ReceivedSpan> rows = Fleets.byServer(spans, "gym.startup.server");
			assertThat(rows).containsOnlyKeys(servers.keySet());
			for (ReceivedSpan server : Spans.named(spans, "gym.server.startup")) {
				assertThat(server.traceId()).isEqualTo(root.traceId());
				assertThat(Spans.stages(spans, server)).extracting((span) -> span.attribute("nemo.gym.startup.stage"))
					.containsSubsequence(PlainAppProcessTest.STAGES);
			}
			assertThat(rows.values()).allSatisfy((row) -> assertThat(row.attribute("nemo.gym.startup.outcome"))
				.isEqualTo("ready"));
			assertThat(Files.readString(report)).contains(servers.keySet().stream().map((name) -> "\"" + name + "\"").toList());
			assertThat(StarterLog.warnings(supervisor.log())).isEmpty();
			assertThat(supervisor.log()).doesNotContain("HttpSenderProvider");
		}
	}

	static Stream<Arguments> fleets() {
		Map<String, Path> on35 = new java.util.LinkedHashMap<>();
		on35.put("boot35", SampleJars.bootLine("3.5", "actuator"));
		on35.put("boot41", SampleJars.bootLine("4.1", "plain"));
		return Stream.of(Arguments.of("3.5", on35), Arguments.of("4.1", Map.of("boot35", SampleJars.bootLine("3.5", "plain"))));
	}

	private static String[] server(int index, String name, Path jar) {
		String prefix = "--telemetry.supervisor.servers[" + index + "].";
		return new String[] { prefix + "name=" + name, prefix + "health-url=http://127.0.0.1:{port}/hello",
				prefix + "command[0]={java}", prefix + "command[1]=-XX:TieredStopAtLevel=1", prefix + "command[2]=-jar",
				prefix + "command[3]=" + jar, prefix + "command[4]=--server.port={port}" };
	}

	/** One start of {@code app}: to its first answer, its startup exported, stopped; what every line must show. */
	private Run run(App app, boolean actuator, java.util.function.UnaryOperator<JavaProcess.Builder> customize)
			throws Exception {
		Path classes = this.tmp.resolve("classes.log");
		int port = Ports.free();
		List<String> args = new ArrayList<>(List.of("--server.port=" + port, EVERY_BEAN));
		if (actuator) {
			// Boot's sampling at 0: the startup is sampled all the same
			args.addAll(List.of(EXPOSED, "--management.tracing.sampling.probability=0.0"));
		}
		long pid;
		String log;
		String timeline = null;
		String endpointSources = null;
		try (JavaProcess process = customize.apply(JavaProcess.jar(app.jar())
			.withoutEnv("SLURM_JOB_ID")
			.jvmArgs(ClassLoadLog.jvmArg(classes))
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			.args(args.toArray(String[]::new))).start(this.tmp.resolve("app.log"))) {
			pid = process.pid();
			FirstResponse.await(process, URI.create("http://127.0.0.1:" + port + "/hello"), TIMEOUT);
			this.receiver.awaitSpansNamed("gym.server.startup", 1, TIMEOUT);
			process.awaitLog("Startup of '" + app.name() + "'", TIMEOUT);
			if (actuator) {
				timeline = Http.get("http://127.0.0.1:" + port + "/actuator/startuptimeline");
				// Boot's traces URL, by this line's name: which source has it
				endpointSources = Http.get("http://127.0.0.1:" + port + "/actuator/env/" + (app.line().equals("3.5")
						? "management.otlp.tracing.endpoint" : "management.opentelemetry.tracing.export.otlp.endpoint"));
			}
			// the histograms leave when the server stops, whichever SDK or registry records them
			process.terminate();
			assertThat(process.awaitExit(TIMEOUT)).as("SIGTERM's exit code").isEqualTo(143);
			log = process.log();
		}
		List<ReceivedSpan> spans = Spans.ofProcess(this.receiver.spans(), pid);
		ReceivedSpan root = Spans.only(spans, "gym.server.startup");
		List<ReceivedSpan> stages = Spans.stages(spans, root);
		assertThat(stages).extracting((span) -> span.attribute("nemo.gym.startup.stage"))
			.containsExactlyElementsOf(PlainAppProcessTest.STAGES);
		Spans.assertContiguous(stages, root);
		assertThat(root.attribute("nemo.gym.server.name")).isEqualTo(app.name());
		// the resource as Gym's servers have theirs
		assertThat(root.serviceName()).isEqualTo(app.name());
		assertThat(root.resourceAttribute("host.name")).isNotBlank();
		assertThat(root.resourceAttribute("service.instance.id"))
			.isEqualTo(root.resourceAttribute("nemo.run.id") + "-rank0");
		assertThat(root.resourceValue("process.pid").getIntValue()).isEqualTo(pid);
		assertThat(root.resourceValue("nv.dl.rank").getValueCase()).isEqualTo(AnyValue.ValueCase.INT_VALUE);
		assertThat(root.resourceValue("nv.dl.world_size").getValueCase()).isEqualTo(AnyValue.ValueCase.INT_VALUE);
		assertThat(root.resourceAttribute("nv.dl.run_id")).isNotBlank();
		// bean and step spans
		assertThat(spans).extracting(ReceivedSpan::name)
			.contains("gym.server.startup.step.startup.singletons", "gym.server.startup.bean." + app.bean());
		// the histogram, Gym's shape, the worker a bool
		List<HistogramDataPoint> points = PlainAppProcessTest.stagePoints(this.receiver.metrics());
		assertThat(points).extracting((point) -> PlainAppProcessTest.attributes(point)
			.get("nemo.gym.startup.stage")
			.getStringValue()).containsAll(PlainAppProcessTest.STAGES);
		assertThat(points).allSatisfy((point) -> assertThat(
				PlainAppProcessTest.attributes(point).get("nemo.gym.server.worker").getValueCase())
			.isEqualTo(AnyValue.ValueCase.BOOL_VALUE));
		// the log line
		assertThat(log).contains("Startup of '" + app.name() + "' took ", "[trace " + root.traceId() + "]");
		assertThat(StarterLog.warnings(log)).as("the starter's lines above INFO").isEmpty();
		assertThat(log).doesNotContain("HttpSenderProvider");
		if (actuator) {
			assertThat(timeline).contains("\"stages\"", "web_server_started", "application_ready");
		}
		return new Run(ClassLoadLog.read(classes), endpointSources);
	}

	/** The line's application of this kind, and the name it reports under. */
	private static App app(String line, String kind) {
		if (line.equals("4.0")) {
			// the project's own line: the apps the other process tests run
			return kind.equals("plain") ? new App(line, SampleJars.plainAppWithStarter(), "plain-app", "plainApplication")
					: new App(line, SampleJars.startupApp(), "startup-app", "startupApplication");
		}
		return new App(line, SampleJars.bootLine(line, kind), "plain-app", "plainApplication");
	}

	/** The {@code java} of JDK {@code feature}: this one's for the tests' own, else one found; skips, saying so, without. */
	private static Path java(String feature) throws IOException {
		if (feature.equals(String.valueOf(Runtime.version().feature()))) {
			return Path.of(System.getProperty("java.home"), "bin", "java");
		}
		Path java = switch (feature) {
			case "21" -> Jdks.jdk21();
			case "25" -> Jdks.jdk25();
			default -> null;
		};
		if (java == null) {
			System.out.printf("!!! SKIPPED: no JDK %s on this machine (JDK%s_HOME, /usr/lib/jvm/*-%s*): "
					+ "the Boot lines are not tested on Java %s here%n", feature, feature, feature, feature);
		}
		assumeTrue(java != null, () -> "SKIPPED: no JDK " + feature + " (JDK" + feature + "_HOME, /usr/lib/jvm/*-"
				+ feature + "*)");
		return java;
	}

	/** @param bean the application's own bean, which gets a span at the threshold of 0 */
	private record App(String line, Path jar, String name, String bean) {
	}

	private record Run(ClassLoadLog classes, String endpointSources) {
	}

}
