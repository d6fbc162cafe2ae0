package io.github.startuptelemetry.it.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.FirstResponse;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.Spans;
import io.github.startuptelemetry.it.support.StarterLog;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring AOT, kept working on purpose (issue 38): with a JVM cache, Boot's recommended path to a
 * fast start. The plain app with the starter, processed at build time by Boot's
 * {@code process-aot} ({@code benchmarks/plain-app}: {@code plain-app-aot.jar}) and started with
 * {@code -Dspring.aot.enabled=true}, exports all eight stages and its bean spans to a real
 * OTLP/HTTP receiver; and the build's processing, which refreshes the context for AOT (creating
 * no bean) and closes it, logged nothing above INFO from the starter.
 */
class SpringAotProcessTest {

	private static final Duration TIMEOUT = PlainAppProcessTest.TIMEOUT;

	@TempDir
	Path tmp;

	@RegisterExtension
	final OtlpReceiver receiver = new OtlpReceiver();

	@Test
	void anAotProcessedAppExportsEveryStageAndItsBeanSpans() throws Exception {
		int port = Ports.free();
		long pid;
		String log;
		try (JavaProcess app = JavaProcess.jar(SampleJars.plainAppAot())
			.withoutEnv("SLURM_JOB_ID")
			.jvmArgs("-Dspring.aot.enabled=true")
			.args("--server.port=" + port)
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			// every bean a span, however fast this machine creates them: the test names the application's own
			.env("TELEMETRY_STARTUP_BEAN_SPANS_THRESHOLD", "0ms")
			.start(this.tmp.resolve("app.log"))) {
			pid = app.pid();
			FirstResponse.await(app, PlainAppProcessTest.hello(port), TIMEOUT);
			this.receiver.awaitSpansNamed("gym.server.startup", 1, TIMEOUT);
			app.terminate();
			assertThat(app.awaitExit(TIMEOUT)).as("SIGTERM's exit code").isEqualTo(143);
			log = app.log();
		}
		assertThat(log).as("started from the code Spring AOT generated").contains("Starting AOT-processed PlainApplication");
		List<ReceivedSpan> spans = Spans.ofProcess(this.receiver.spans(), pid);
		ReceivedSpan root = Spans.only(spans, "gym.server.startup");
		assertThat(root.serviceName()).isEqualTo("plain-app");
		List<ReceivedSpan> stages = Spans.stages(spans, root);
		assertThat(stages).extracting((span) -> span.attribute("nemo.gym.startup.stage"))
			.containsExactlyElementsOf(PlainAppProcessTest.STAGES);
		Spans.assertContiguous(stages, root);
		ReceivedSpan beans = stages.get(PlainAppProcessTest.STAGES.indexOf("beans_instantiated"));
		ReceivedSpan application = Spans.only(spans, "gym.server.startup.bean.plainApplication");
		assertThat(application.traceId()).isEqualTo(root.traceId());
		assertThat(application.attribute("nemo.gym.startup.bean.name")).isEqualTo("plainApplication");
		assertThat(application.startNs()).as("the bean's creation, within beans_instantiated")
			.isBetween(beans.startNs(), beans.endNs());
		assertThat(application.endNs()).isBetween(application.startNs(), beans.endNs());
		assertThat(Spans.named(spans, "gym.server.startup.step.startup.singletons")).hasSize(1);
		assertThat(log).contains("[trace " + root.traceId() + "]");
		assertThat(StarterLog.warnings(log)).as("the starter's lines above INFO").isEmpty();
	}

	@Test
	void theBuildsAotProcessingLoggedNothingAboveInfoFromTheStarter() throws Exception {
		String log = Files.readString(SampleJars.plainAppAotBuildLog());
		assertThat(log).as("the processing's own log").contains("Starting PlainApplication");
		assertThat(StarterLog.warnings(log)).as("the starter's lines above INFO").isEmpty();
		assertThat(log).doesNotContain(StarterLog.FAILED_DESTROY);
	}

}
