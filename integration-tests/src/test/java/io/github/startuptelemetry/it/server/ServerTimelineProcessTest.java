package io.github.startuptelemetry.it.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Spans.assertContiguous;
import static io.github.startuptelemetry.it.support.Spans.durationMs;
import static io.github.startuptelemetry.it.support.Spans.only;
import static io.github.startuptelemetry.it.support.Spans.stageCount;
import static io.github.startuptelemetry.it.support.Spans.stages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/**
 * The built sample-server jar, started as its own JVM with the env contract, exporting over a
 * real OTLP/HTTP wire to an in-test receiver.
 */
class ServerTimelineProcessTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	private static final String PARENT_SPAN_ID = "00f067aa0ba902b7";

	private static final List<String> SERVER_STAGES = List.of("venv_setup", "interpreter_start", "main_start",
			"environment_prepared", "context_prepared", "beans_instantiated", "web_server_started",
			"context_refreshed", "application_started", "application_ready");

	@TempDir
	Path tmp;

	@RegisterExtension
	final OtlpReceiver receiver = new OtlpReceiver();

	@Test
	void spawnedServerExportsItsStagesAndSlowBeansUnderTheSupervisorSpan() throws Exception {
		long now = epochNs();
		long spawnNs = now - 250_000_000L;
		try (JavaProcess server = sampleServer().env("NEMO_GYM_STARTUP_SPAWN_NS", Long.toString(spawnNs))
			.env("NEMO_GYM_STARTUP_SETUP_DONE_NS", Long.toString(now))
			// not sampled upstream: the startup trace must be exported all the same
			.env("NEMO_GYM_STARTUP_TRACEPARENT", "00-" + TRACE_ID + "-" + PARENT_SPAN_ID + "-00")
			.env("TELEMETRY_STARTUP_SERVER_TYPE", "model")
			.start(this.tmp.resolve("server.log"))) {
			List<ReceivedSpan> spans = this.receiver.awaitSpans((all) -> stageCount(all) == 11
					&& all.stream().anyMatch((s) -> s.name().equals("gym.server.startup.step.sample.model.warmup")),
					TIMEOUT);
			ReceivedSpan root = only(spans, "gym.server.startup");
			assertThat(root.traceId()).isEqualTo(TRACE_ID);
			assertThat(root.parentSpanId()).isEqualTo(PARENT_SPAN_ID);
			assertThat(root.serviceName()).isEqualTo("sample-server");
			assertThat(root.attribute("nemo.gym.server.name")).isEqualTo("sample-server");
			assertThat(root.attribute("nemo.gym.server.type")).isEqualTo("model");
			assertThat(root.attribute("nemo.gym.server.worker")).isEqualTo("false");
			assertThat(root.attribute("process.pid")).isEqualTo(Long.toString(server.pid()));

			List<ReceivedSpan> stages = stages(spans, root);
			assertThat(stages).extracting(ReceivedSpan::name)
				.containsExactlyElementsOf(SERVER_STAGES.stream().map((s) -> "gym.server.startup." + s).toList());
			assertContiguous(stages, root);
			assertThat(stages.get(0).startNs()).isEqualTo(spawnNs);
			assertThat(stages.get(0).endNs()).isEqualTo(now);
			for (ReceivedSpan stage : stages) {
				assertThat(stage.traceId()).isEqualTo(TRACE_ID);
				assertThat(stage.attribute("nemo.gym.startup.stage")).isEqualTo(stage.name().substring(19));
				assertThat(stage.attribute("nemo.gym.server.name")).isEqualTo("sample-server");
			}
			// JVM counters: none before the JVM existed, all five on every stage from main_start on
			for (ReceivedSpan stage : stages.subList(0, 2)) {
				assertThat(stage.attribute("startup.jvm.cpu_ms")).as(stage.name()).isNull();
				assertThat(stage.attribute("startup.jvm.classes_loaded")).as(stage.name()).isNull();
			}
			for (ReceivedSpan stage : stages.subList(2, stages.size())) {
				assertThat(Double.parseDouble(stage.attribute("startup.jvm.cpu_ms"))).as(stage.name()).isNotNegative();
				assertThat(Long.parseLong(stage.attribute("startup.jvm.gc_ms"))).as(stage.name()).isNotNegative();
				assertThat(Long.parseLong(stage.attribute("startup.jvm.gc_count"))).as(stage.name()).isNotNegative();
				assertThat(Long.parseLong(stage.attribute("startup.jvm.jit_ms"))).as(stage.name()).isNotNegative();
				assertThat(Long.parseLong(stage.attribute("startup.jvm.classes_loaded"))).as(stage.name())
					.isNotNegative();
			}
			// the deliberately slow model loader shows in beans_instantiated, as a span of its own
			ReceivedSpan beansInstantiated = stages.get(5);
			assertThat(Long.parseLong(beansInstantiated.attribute("startup.jvm.classes_loaded"))).isPositive();
			// main_start counts from the JVM's start: a JVM loads hundreds of classes before main
			assertThat(Long.parseLong(stages.get(2).attribute("startup.jvm.classes_loaded"))).isGreaterThan(400);
			assertThat(durationMs(beansInstantiated)).isGreaterThanOrEqualTo(1500);
			// Spring's phases under the stage; the beans under singleton creation
			ReceivedSpan postProcess = only(spans, "gym.server.startup.step.spring.context.beans.post-process");
			ReceivedSpan singletons = only(spans, "gym.server.startup.step.startup.singletons");
			assertThat(postProcess.parentSpanId()).isEqualTo(beansInstantiated.spanId());
			assertThat(singletons.parentSpanId()).isEqualTo(beansInstantiated.spanId());
			assertThat(only(spans, "gym.server.startup.step.spring.context.config-classes.parse").parentSpanId())
				.isEqualTo(postProcess.spanId());
			ReceivedSpan modelLoader = only(spans, "gym.server.startup.bean.modelLoader");
			assertThat(modelLoader.parentSpanId()).isEqualTo(singletons.spanId());
			// what they cover and the reported remainder add up to the stage
			List<ReceivedSpan> phases = spans.stream()
				.filter((s) -> s.parentSpanId().equals(beansInstantiated.spanId()))
				.toList();
			double coveredMs = phases.stream().mapToDouble((s) -> (s.endNs() - s.startNs()) / 1e6).sum();
			double unattributedMs = Double.parseDouble(beansInstantiated.attribute("startup.unattributed_ms"));
			assertThat(unattributedMs).isNotNegative();
			assertThat(coveredMs + unattributedMs).isCloseTo((beansInstantiated.endNs() - beansInstantiated.startNs()) / 1e6,
					offset(0.01));
			// a bean bootstrapped on a background thread: under singleton creation, not in the model loader
			ReceivedSpan vocabulary = only(spans, "gym.server.startup.bean.vocabulary");
			assertThat(vocabulary.parentSpanId()).isEqualTo(singletons.spanId());
			assertThat(server.log()).containsPattern("Vocabulary loaded on thread (?!main)");
			assertThat(modelLoader.traceId()).isEqualTo(TRACE_ID);
			assertThat(modelLoader.attribute("nemo.gym.startup.bean.name")).isEqualTo("modelLoader");
			assertThat(modelLoader.attribute("nemo.gym.startup.bean.type"))
				.isEqualTo("io.github.startuptelemetry.sample.server.ModelLoader");
			assertThat(modelLoader.attribute("nemo.gym.startup.step")).isEqualTo("spring.beans.instantiate");
			assertThat(durationMs(modelLoader)).isBetween(1200L, 1800L);
			assertThat(modelLoader.startNs()).isGreaterThanOrEqualTo(beansInstantiated.startNs());
			assertThat(modelLoader.endNs()).isLessThanOrEqualTo(beansInstantiated.endNs());
			// the application's own startup step, inside the bean that ran it
			ReceivedSpan warmup = only(spans, "gym.server.startup.step.sample.model.warmup");
			ReceivedSpan modelWarmup = only(spans, "gym.server.startup.bean.modelWarmup");
			assertThat(warmup.parentSpanId()).isEqualTo(modelWarmup.spanId());
			assertThat(modelWarmup.parentSpanId()).isEqualTo(singletons.spanId());
			assertThat(warmup.attribute("nemo.gym.startup.step")).isEqualTo("sample.model.warmup");
			assertThat(server.log()).contains("Startup of 'sample-server' (model) took", "beans_instantiated=",
					" jvm: cpu=", " classes=", "[trace " + TRACE_ID + "]");
		}
	}

	@Test
	void serverStartedWithoutEnvIsItsOwnRoot() throws Exception {
		try (JavaProcess server = sampleServer().start(this.tmp.resolve("server.log"))) {
			List<ReceivedSpan> spans = this.receiver.awaitSpans((all) -> stageCount(all) == 9, TIMEOUT);
			ReceivedSpan root = only(spans, "gym.server.startup");
			assertThat(root.parentSpanId()).isEmpty();
			List<ReceivedSpan> stages = stages(spans, root);
			assertThat(stages).extracting(ReceivedSpan::name)
				.containsExactlyElementsOf(SERVER_STAGES.subList(2, SERVER_STAGES.size())
					.stream()
					.map((s) -> "gym.server.startup." + s)
					.toList());
			assertContiguous(stages, root);
		}
	}

	@Test
	void disabledByEnvRecordsNothingAndLoadsNoneOfTheStartersTelemetryClasses() throws Exception {
		Path classes = this.tmp.resolve("classes.log");
		try (JavaProcess server = sampleServer().env("TELEMETRY_ENABLED", "false")
			.jvmArgs("-Xlog:class+load=info:file=" + classes)
			.start(this.tmp.resolve("server.log"))) {
			server.awaitLog("Started SampleServerApplication", TIMEOUT);
			assertThat(server.log()).doesNotContain("Startup of '");
			List<String> ours = Files.readAllLines(classes)
				.stream()
				.filter((line) -> line.contains(" io.github.startuptelemetry.") && !line.contains(".sample."))
				.map((line) -> line.replaceAll(".* (io\\.github\\.startuptelemetry\\.\\S+) .*", "$1"))
				.toList();
			// the gates (the listener and the run listener that reports after ready), the switch they
			// ask, the environment post-processor that asks it too (and Boot 3's registration of it), the import filter that drops the
			// auto-configurations that cannot apply by name (so no condition of theirs loads), and the
			// do-nothing SupervisorStartup a launcher can still autowire: no timeline, no reporter, no
			// sampler, nothing that touches OpenTelemetry
			assertThat(ours).allSatisfy((name) -> assertThat(name).matches("io\\.github\\.startuptelemetry\\."
					+ "(server\\.(ServerStartupListener|ReadyReportRunListener)|lifecycle\\.(Boot3)?TelemetryEnvironment(PostProcessor|Defaults)|autoconfigure\\.internal\\.(TelemetrySwitch|TelemetryAutoConfigurationFilter)"
					+ "|supervisor\\.(SupervisorAutoConfiguration|SupervisorStartup|DisabledSupervisorStartup"
					+ "|ChildTelemetryEnvironment)(\\$\\$Lambda.*)?)"));
			assertThat(ours).contains("io.github.startuptelemetry.server.ServerStartupListener");
		}
	}

	private JavaProcess.Builder sampleServer() throws Exception {
		return JavaProcess.jar(SampleJars.server())
			.args("--server.port=" + Ports.free(), "--sample.model-loader.duration=1500ms",
					"--sample.model-loader.warmup=200ms",
					"--management.opentelemetry.tracing.export.otlp.endpoint=" + this.receiver.tracesEndpoint());
	}

	private static long epochNs() {
		Instant now = Instant.now();
		return now.getEpochSecond() * 1_000_000_000L + now.getNano();
	}

}
