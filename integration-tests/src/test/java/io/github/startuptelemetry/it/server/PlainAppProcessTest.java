package io.github.startuptelemetry.it.server;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.BlackHoleCollector;
import io.github.startuptelemetry.it.support.ClassLoadLog;
import io.github.startuptelemetry.it.support.DefaultCollectorPort;
import io.github.startuptelemetry.it.support.FirstResponse;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.PreloadList;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.Spans;
import io.github.startuptelemetry.it.support.StarterLog;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The price of admission (issue 22): a plain Boot web app (the web starter and one controller; no
 * actuator, no Micrometer, no tracing, no Boot OpenTelemetry) with only the starter added, as a
 * real JVM against a real OTLP/HTTP receiver. It exports everything the contract has, loads none
 * of Boot's telemetry, sends nothing when nothing is configured, and says a dead collector once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PlainAppProcessTest {

	static final Duration TIMEOUT = Duration.ofSeconds(120);

	/** A plain web server's own stages, without a supervisor's env. */
	static final List<String> STAGES = List.of("main_start", "environment_prepared", "context_prepared",
			"beans_instantiated", "web_server_started", "context_refreshed", "application_started",
			"application_ready");

	static final List<Double> BOUNDARIES = List.of(100.0, 250.0, 500.0, 1000.0, 2500.0, 5000.0, 10000.0, 30000.0,
			60000.0, 120000.0, 300000.0, 600000.0, 1800000.0, 3600000.0);

	/** Packages of what the starter no longer brings: none of their classes may load. */
	static final List<String> NOT_BROUGHT = List.of("org.springframework.boot.actuate.", "io.micrometer.tracing.",
			"io.micrometer.core.", "org.springframework.boot.opentelemetry.", "org.springframework.boot.micrometer.",
			"okhttp3.", "kotlin.");

	@TempDir
	Path tmp;

	/** The off app and the plain one, started once for {@link #offLoadsAHandfulOfOurClassesNoSdkClassAndSaysNothingForSeventySeconds}. */
	private static JavaProcess off;

	private static JavaProcess plain;

	private static Path offClasses;

	private static long offReady;

	@RegisterExtension
	final OtlpReceiver receiver = new OtlpReceiver();

	@Test
	void exportsEveryStageTheResourceAndTheHistogramAndLoadsNoneOfBootsTelemetry() throws Exception {
		Path classes = this.tmp.resolve("classes.log");
		int port = Ports.free();
		long pid;
		String log;
		try (JavaProcess app = plainApp(port).jvmArgs(ClassLoadLog.jvmArg(classes))
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			.start(this.tmp.resolve("app.log"))) {
			pid = app.pid();
			FirstResponse.await(app, hello(port), TIMEOUT);
			this.receiver.awaitSpansNamed("gym.server.startup", 1, TIMEOUT);
			app.awaitLog("Startup of 'plain-app'", TIMEOUT);
			app.terminate();
			assertThat(app.awaitExit(TIMEOUT)).as("SIGTERM's exit code").isEqualTo(143);
			log = app.log();
		}
		List<ReceivedSpan> spans = Spans.ofProcess(this.receiver.spans(), pid);
		ReceivedSpan root = Spans.only(spans, "gym.server.startup");
		List<ReceivedSpan> stages = Spans.stages(spans, root);
		assertThat(stages).extracting((span) -> span.attribute("nemo.gym.startup.stage"))
			.containsExactlyElementsOf(STAGES);
		Spans.assertContiguous(stages, root);
		assertThat(root.attribute("nemo.gym.server.name")).isEqualTo("plain-app");
		assertThat(log).contains("[trace " + root.traceId() + "]");
		assertThat(oursOrBrought(summary(log))).as("the off test's filter knows the starter's lines").isTrue();
		// the resource as Gym's servers have theirs
		assertThat(root.serviceName()).isEqualTo("plain-app");
		assertThat(root.resourceValue("nv.dl.rank").getIntValue()).isZero();
		assertThat(root.resourceValue("nv.dl.world_size").getValueCase()).isEqualTo(AnyValue.ValueCase.INT_VALUE);
		assertThat(root.resourceValue("process.pid").getIntValue()).isEqualTo(pid);
		assertThat(root.resourceAttribute("host.name")).isNotBlank();
		assertThat(root.resourceAttribute("service.instance.id"))
			.isEqualTo(root.resourceAttribute("nemo.run.id") + "-rank0");
		// the stage histogram, on an OpenTelemetry meter: Gym's shape, the worker a bool
		List<HistogramDataPoint> points = stagePoints(this.receiver.metrics());
		assertThat(points).extracting((point) -> attributes(point).get("nemo.gym.startup.stage").getStringValue())
			.containsAll(STAGES);
		assertThat(points).allSatisfy((point) -> {
			assertThat(point.getExplicitBoundsList()).isEqualTo(BOUNDARIES);
			assertThat(attributes(point).get("nemo.gym.server.worker").getValueCase())
				.isEqualTo(AnyValue.ValueCase.BOOL_VALUE);
			assertThat(attributes(point).get("nemo.gym.server.name").getStringValue()).isEqualTo("plain-app");
		});
		assertThat(this.receiver.metrics()).allSatisfy((resource) -> assertThat(
				resource.getResource().getAttributesList().stream().filter((kv) -> kv.getKey().equals("nv.dl.rank")))
			.singleElement()
			.satisfies((kv) -> assertThat(kv.getValue().getValueCase()).isEqualTo(AnyValue.ValueCase.INT_VALUE)));
		// nothing of what the starter no longer forces on a server
		ClassLoadLog loaded = ClassLoadLog.read(classes);
		for (String notBrought : NOT_BROUGHT) {
			assertThat(loaded.inPackage(notBrought)).as("classes of " + notBrought).isEmpty();
		}
	}

	/**
	 * The starter's classes are loaded off the startup's thread ({@code StartupClassPreload}):
	 * its list, but for the classes only Boot's OpenTelemetry needs, must be what a plain server
	 * loads on its way to ready, no more, no less ({@link PreloadList#assertCovers}).
	 */
	@Test
	void thePreloadListsWhatAPlainServerLoadsOnItsWayToReady() throws Exception {
		Path classes = this.tmp.resolve("classes.log");
		int port = Ports.free();
		String log;
		try (JavaProcess app = plainApp(port).jvmArgs(ClassLoadLog.jvmArg(classes))
			.env("TELEMETRY_STARTUP_PRELOAD", "false")
			.start(this.tmp.resolve("app.log"))) {
			FirstResponse.await(app, hello(port), TIMEOUT);
			app.awaitLog("Startup of 'plain-app'", TIMEOUT);
			log = app.log();
		}
		PreloadList.assertCovers(classes, log, PreloadList.plain(), PreloadList.plain());
	}

	@Test
	void aServerTerminatedRightAfterReadyStillExportsEverySpan() throws Exception {
		int port = Ports.free();
		long pid;
		try (JavaProcess app = plainApp(port).env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			.start(this.tmp.resolve("app.log"))) {
			pid = app.pid();
			FirstResponse.await(app, hello(port), TIMEOUT);
			// the scenario, not a wait for anything: an orchestrator's SIGTERM 50 ms after the first answer
			app.process().waitFor(50, TimeUnit.MILLISECONDS);
			app.terminate();
			assertThat(app.awaitExit(TIMEOUT)).as(app.log()).isEqualTo(143);
		}
		// everything was flushed before the JVM exited: no waiting for it here
		List<ReceivedSpan> spans = Spans.ofProcess(this.receiver.spans(), pid);
		ReceivedSpan root = Spans.only(spans, "gym.server.startup");
		assertThat(Spans.stages(spans, root)).extracting((span) -> span.attribute("nemo.gym.startup.stage"))
			.containsExactlyElementsOf(STAGES);
	}

	@Test
	void withNoEndpointNothingIsSentAndTheLineSaysTheTraceWasNotExported() throws Exception {
		int port = Ports.free();
		try (DefaultCollectorPort defaultPort = DefaultCollectorPort.listen();
				JavaProcess app = plainApp(port).start(this.tmp.resolve("app.log"))) {
			FirstResponse.await(app, hello(port), TIMEOUT);
			app.awaitLog("Startup of 'plain-app'", TIMEOUT);
			app.terminate();
			assertThat(app.awaitExit(TIMEOUT)).as("SIGTERM's exit code").isEqualTo(143);
			// other processes on a shared machine may send there: only this one's connections count
			assertThat(defaultPort.connectionsFrom(app.pid()))
				.as("connections to the default OTLP port 4318 from the app (all, by pid: %s)", defaultPort.owners())
				.isZero();
			assertThat(summary(app.log())).endsWith("[trace not exported]");
		}
	}

	@Test
	void aCollectorThatRefusesConnectionsCostsOneWarningPerSignalAndNoStackTrace() throws Exception {
		int port = Ports.free();
		try (JavaProcess app = plainApp(port).env("OTEL_EXPORTER_OTLP_ENDPOINT", BlackHoleCollector.refusingBaseUrl())
			.env("TELEMETRY_SHUTDOWN_TIMEOUT", "2s")
			// the standard setting, honoured: metrics every second (the SDK's default is a minute), each export failing
			.env("OTEL_METRIC_EXPORT_INTERVAL", "1000")
			.start(this.tmp.resolve("app.log"))) {
			FirstResponse.await(app, hello(port), TIMEOUT);
			app.awaitLog("Could not export startup telemetry spans", TIMEOUT);
			app.awaitLog("Could not export startup telemetry metrics", TIMEOUT);
			app.terminate();
			assertThat(app.awaitExit(TIMEOUT)).as("SIGTERM's exit code").isEqualTo(143);
			String log = app.log();
			assertThat(count(log, "Could not export startup telemetry spans")).as(log).isOne();
			assertThat(count(log, "Could not export startup telemetry metrics")).as(log).isOne();
			assertThat(log.lines().filter((line) -> line.contains("Could not export startup telemetry")))
				.allSatisfy((line) -> assertThat(line).contains(" WARN "));
			assertThat(log).doesNotContain(" ERROR ", "\tat ", "Exception:");
		}
	}

	/**
	 * Off, the starter is all but absent: a handful of its gate classes, no SDK class, not a line
	 * at INFO or above from it or from anything it brought in 70 s of running (past the minute at
	 * which a metrics registry pushes), and the application's log lines as they are without it.
	 * The off app and the plain one start before the other tests, which run during those 70 s
	 * (this test is the last), so that the class costs the 70 s once, not on top of the others.
	 */
	@Test
	@Order(Integer.MAX_VALUE)
	void offLoadsAHandfulOfOurClassesNoSdkClassAndSaysNothingForSeventySeconds() throws Exception {
		long left = offReady + TimeUnit.SECONDS.toNanos(70) - System.nanoTime();
		// the scenario, not a wait for anything: 70 s of an idle server's life since its first answer
		assertThat(off.process().waitFor(Math.max(left, 0), TimeUnit.NANOSECONDS)).as("still running").isFalse();
		String offLog = off.log();
		assertThat(offLog.lines().filter(PlainAppProcessTest::infoOrAbove).filter(PlainAppProcessTest::oursOrBrought))
			.as("lines at INFO or above from the starter or what it brought").isEmpty();
		assertThat(shape(started(offLog))).as("the application's log lines keep their format")
			.isEqualTo(shape(started(plain.log())));
		off.close();
		ClassLoadLog loaded = ClassLoadLog.read(offClasses);
		List<String> ours = loaded.inPackage("io.github.startuptelemetry.")
			.stream()
			.filter((name) -> !name.startsWith("io.github.startuptelemetry.bench."))
			.toList();
		assertThat(ours).as("classes of ours").hasSizeLessThanOrEqualTo(10);
		assertThat(loaded.inPackage("io.opentelemetry.sdk.")).as("OpenTelemetry SDK classes").isEmpty();
	}

	@BeforeAll
	static void startTheOffAppAndThePlainOne(@TempDir Path dir) throws Exception {
		offClasses = dir.resolve("off-classes.log");
		int offPort = Ports.free();
		int plainPort = Ports.free();
		off = JavaProcess.jar(SampleJars.plainAppWithStarter())
			.withoutEnv("SLURM_JOB_ID")
			.args("--server.port=" + offPort)
			.jvmArgs(ClassLoadLog.jvmArg(offClasses))
			.env("TELEMETRY_ENABLED", "false")
			.start(dir.resolve("off.log"));
		plain = JavaProcess.jar(SampleJars.plainApp()).args("--server.port=" + plainPort).start(dir.resolve("plain.log"));
		FirstResponse.await(off, hello(offPort), TIMEOUT);
		offReady = System.nanoTime();
		FirstResponse.await(plain, hello(plainPort), TIMEOUT);
	}

	@AfterAll
	static void stopTheOffAppAndThePlainOne() throws Exception {
		try (JavaProcess offApp = off; JavaProcess plainApp = plain) {
			// closed, whichever of them started
		}
	}

	@Test
	void aStartupThatFailsOnATakenPortSaysWhereAndExportsWhatItReachedAsAnError() throws Exception {
		try (ServerSocket taken = new ServerSocket(0)) {
			assertFailedStartup(plainApp(taken.getLocalPort()), "web_server_started",
					List.of("main_start", "environment_prepared", "context_prepared", "beans_instantiated"));
		}
	}

	@Test
	void aStartupThatFailsInABeanSaysWhereAndExportsWhatItReachedAsAnError() throws Exception {
		assertFailedStartup(plainApp(Ports.free()).args("--plain.fail-in-bean=true"), "beans_instantiated",
				List.of("main_start", "environment_prepared", "context_prepared"));
	}

	private void assertFailedStartup(JavaProcess.Builder app, String failedIn, List<String> reached)
			throws Exception {
		long pid;
		String log;
		try (JavaProcess process = app.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			.env("TELEMETRY_SHUTDOWN_TIMEOUT", "5s")
			.start(this.tmp.resolve("app.log"))) {
			pid = process.pid();
			assertThat(process.awaitExit(TIMEOUT)).isOne();
			log = process.log();
		}
		String line = log.lines().filter((l) -> l.contains("Startup of 'plain-app' failed in ")).findFirst().orElseThrow(
				() -> new AssertionError("no failed-startup line:\n" + log));
		assertThat(line).contains(" INFO ", "failed in " + failedIn + " after ", failedIn + "=");
		reached.forEach((stage) -> assertThat(line).contains(" " + stage + "="));
		// nothing from the starter above INFO: Boot reports the failure, not its shutdown's troubles (issue 38)
		assertThat(StarterLog.warnings(log)).as("the starter's lines above INFO").isEmpty();
		assertThat(log).doesNotContain(StarterLog.FAILED_DESTROY);
		// exported before the JVM exited
		List<ReceivedSpan> spans = Spans.ofProcess(this.receiver.spans(), pid);
		ReceivedSpan root = Spans.only(spans, "gym.server.startup");
		assertThat(root.isError()).isTrue();
		assertThat(root.attribute("nemo.gym.startup.outcome")).isEqualTo("error");
		assertThat(line).contains("[trace " + root.traceId() + "]");
		List<ReceivedSpan> stages = Spans.stages(spans, root);
		List<String> expected = new java.util.ArrayList<>(reached);
		expected.add(failedIn);
		assertThat(stages).extracting((span) -> span.attribute("nemo.gym.startup.stage"))
			.containsExactlyElementsOf(expected);
		Spans.assertContiguous(stages, root);
		assertThat(stages).filteredOn(ReceivedSpan::isError)
			.extracting((span) -> span.attribute("nemo.gym.startup.stage"))
			.containsExactly(failedIn);
	}

	private JavaProcess.Builder plainApp(int port) {
		return JavaProcess.jar(SampleJars.plainAppWithStarter()).withoutEnv("SLURM_JOB_ID").args("--server.port=" + port);
	}

	static URI hello(int port) {
		return URI.create("http://127.0.0.1:" + port + "/hello");
	}

	static String summary(String log) {
		return log.lines().filter((line) -> line.contains("Startup of '")).findFirst().orElseThrow();
	}

	static long count(String log, String text) {
		return log.lines().filter((line) -> line.contains(text)).count();
	}

	static List<HistogramDataPoint> stagePoints(List<ResourceMetrics> resources) {
		return resources.stream()
			.flatMap((resource) -> resource.getScopeMetricsList().stream())
			.flatMap((scope) -> scope.getMetricsList().stream())
			.filter((metric) -> metric.getName().equals("gym.server.startup_stage_duration_ms"))
			.peek((metric) -> assertThat(metric.getDataCase()).isEqualTo(Metric.DataCase.HISTOGRAM))
			.peek((metric) -> assertThat(metric.getUnit()).isEqualTo("ms"))
			.flatMap((metric) -> metric.getHistogram().getDataPointsList().stream())
			.toList();
	}

	static Map<String, AnyValue> attributes(HistogramDataPoint point) {
		return point.getAttributesList().stream().collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue));
	}

	/** A log line's prefix up to its message, digits replaced: what its format makes of it. */
	static String shape(String line) {
		String prefix = line.substring(0, line.indexOf(" : ") + 3);
		Matcher matcher = Pattern.compile("[0-9]+").matcher(prefix);
		return matcher.replaceAll("0");
	}

	static String started(String log) {
		return log.lines().filter((line) -> line.contains("Started PlainApplication in ")).findFirst().orElseThrow();
	}

	static boolean infoOrAbove(String line) {
		return line.contains(" INFO ") || line.contains(" WARN ") || line.contains(" ERROR ");
	}

	/** A line whose logger is the starter's ({@code i.g.s.}, but not the app's own) or OpenTelemetry's. */
	static boolean oursOrBrought(String line) {
		int logger = line.indexOf("] ", line.indexOf("] [") + 3);
		String rest = (logger >= 0) ? line.substring(logger + 2).strip() : line;
		return (rest.startsWith("i.g.s.") && !rest.startsWith("i.g.s.bench.")) || rest.startsWith("i.o.")
				|| rest.startsWith("io.opentelemetry.") || rest.startsWith("io.github.startuptelemetry.");
	}

}
