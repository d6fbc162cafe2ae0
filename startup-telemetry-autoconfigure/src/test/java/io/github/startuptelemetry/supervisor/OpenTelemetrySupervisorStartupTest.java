package io.github.startuptelemetry.supervisor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.beans.factory.support.StaticListableBeanFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.timeline.internal.StageTimeline;
import io.github.startuptelemetry.timeline.internal.TraceParent;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.tracing.internal.StartupSpans;
import io.github.startuptelemetry.export.internal.StartupHistograms;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;

/** {@link OpenTelemetrySupervisorStartup} against the OpenTelemetry SDK's in-memory exporter. */
class OpenTelemetrySupervisorStartupTest {

	private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

	private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
		.setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(this.exporter)).build())
		.build();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private StageTimeline timeline = startedOneSecondAgo();

	@AfterEach
	void closeSdk() {
		this.sdk.close();
	}

	@Test
	void finishedStartupIsOneTraceWithTheSupervisorsStagesAndOneSpanPerServer() {
		SupervisorStartup startup = startup(Map.of());
		startup.beginTrace();
		this.timeline.mark("application_ready");
		Map<String, String> env0 = startup.serverEnv("model-0", "model", 0, 2);
		Map<String, String> env1 = startup.serverEnv("model-1", "model", 1, 2);
		startup.mark("spawn_servers");
		startup.serverReady("model-1");
		startup.serverReady("model-0");
		startup.finish();

		SpanData root = only(SpanNames.SUPERVISOR_ROOT);
		assertThat(root.getParentSpanContext().isValid()).isFalse();
		assertThat(root.getStartEpochNanos()).isEqualTo(this.timeline.startNs());
		assertThat(root.getAttributes().get(StartupSpans.OUTCOME)).isEqualTo("ready");
		assertThat(root.getAttributes().get(StartupSpans.PROCESS_PID)).isEqualTo(ProcessHandle.current().pid());
		assertThat(root.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
		assertThat(stageNames(root)).containsExactly("application_ready", "spawn_servers", "wait_for_servers");
		assertStagesCover(root);

		List<SpanData> servers = spans(SpanNames.SUPERVISOR_SERVER);
		assertThat(servers).extracting((s) -> s.getAttributes().get(StartupSpans.SERVER_NAME))
			.containsExactlyInAnyOrder("model-0", "model-1");
		for (SpanData server : servers) {
			assertThat(server.getParentSpanId()).isEqualTo(root.getSpanId());
			assertThat(server.getTraceId()).isEqualTo(root.getTraceId());
			assertThat(server.getAttributes().get(StartupSpans.SERVER_TYPE)).isEqualTo("model");
			assertThat(server.getAttributes().get(StartupSpans.OUTCOME)).isEqualTo("ready");
			assertThat(server.getEndEpochNanos()).isLessThanOrEqualTo(root.getEndEpochNanos());
		}
		// the root ends when the last server became ready
		assertThat(root.getEndEpochNanos()).isEqualTo(servers.stream().mapToLong(SpanData::getEndEpochNanos).max().getAsLong());
		SpanData model0 = server("model-0");
		assertThat(env0).containsEntry("NEMO_GYM_STARTUP_SPAWN_NS", Long.toString(model0.getStartEpochNanos()))
			.containsEntry("NEMO_GYM_STARTUP_TRACEPARENT", "00-" + root.getTraceId() + "-" + model0.getSpanId() + "-01")
			.containsEntry("TRACEPARENT", env0.get("NEMO_GYM_STARTUP_TRACEPARENT"));
		assertThat(TraceParent.parse(env1.get("TRACEPARENT")).orElseThrow().spanId())
			.isEqualTo(server("model-1").getSpanId());

		StartupReport report = startup.report().orElseThrow();
		assertThat(report.outcome()).isEqualTo("ready");
		assertThat(report.traceId()).isEqualTo(root.getTraceId());
		assertThat(report.servers()).extracting(ServerReport::name).containsExactly("model-0", "model-1");
		assertThat(report.endNs()).isEqualTo(root.getEndEpochNanos());
		assertThat(histogram("model-0", "ready").count()).isEqualTo(1);
		assertThat(histogram("model-1", "ready").count()).isEqualTo(1);
	}

	@Test
	void withoutTheStartupSpanGroupServersGetTheSpawnStampButNoTraceparent() {
		SupervisorStartup startup = new OpenTelemetrySupervisorStartup(this.sdk, this.timeline, null, Map.of(),
				List.of(), false);

		Map<String, String> env = startup.serverEnv("model-0", "model", 0, 1);

		assertThat(env).containsKey("NEMO_GYM_STARTUP_SPAWN_NS")
			.doesNotContainKeys("NEMO_GYM_STARTUP_TRACEPARENT", "TRACEPARENT");
	}

	@Test
	void serverEnvCarriesTheServersIdentityAndPropagatedSettingsButNeverOverwritesTheSupervisorsEnvironment() {
		ChildTelemetryEnvironment child = (name, type, rank, worldSize) -> Map.of("TELEMETRY_RUN_ID", "run-7",
				"OTEL_SERVICE_NAME", name + "/" + type + "/" + rank + "/" + worldSize, "TELEMETRY_RANK", "99");
		SupervisorStartup startup = new OpenTelemetrySupervisorStartup(this.sdk, this.timeline, child,
				Map.of("TELEMETRY_WORLD_SIZE", "8", "TRACEPARENT", "from-the-supervisors-own-env"), List.of(), true);

		Map<String, String> env = startup.serverEnv("model-1", "model", 1, 2);

		assertThat(env).containsEntry("TELEMETRY_STARTUP_SERVER_NAME", "model-1")
			.containsEntry("TELEMETRY_STARTUP_SERVER_TYPE", "model")
			.containsEntry("TELEMETRY_WORKER_GROUP", "model")
			.containsEntry("TELEMETRY_RANK", "1")
			.containsEntry("TELEMETRY_LOCAL_RANK", "1")
			.containsEntry("TELEMETRY_RUN_ID", "run-7")
			.containsEntry("OTEL_SERVICE_NAME", "model-1/model/1/2")
			.doesNotContainKey("TELEMETRY_WORLD_SIZE")
			.containsKey("NEMO_GYM_STARTUP_SPAWN_NS");
		// the wire contract is the supervisor's to set, whatever its own environment holds
		assertThat(TraceParent.parse(env.get("TRACEPARENT"))).isPresent();
		env.put("EXTRA", "mutable");
	}

	@Test
	void aFailingSettingsBeanOrTracerNeverFailsTheSupervisor() {
		ChildTelemetryEnvironment broken = (name, type, rank, worldSize) -> {
			throw new IllegalStateException("broken");
		};
		OpenTelemetry brokenTelemetry = new OpenTelemetry() {
			@Override
			public TracerProvider getTracerProvider() {
				throw new IllegalStateException("no tracer");
			}

			@Override
			public ContextPropagators getPropagators() {
				return ContextPropagators.noop();
			}
		};
		SupervisorStartup startup = new OpenTelemetrySupervisorStartup(brokenTelemetry, this.timeline, broken, Map.of(),
				List.of((row) -> {
					throw new IllegalStateException("broken metrics");
				}), true);
		assertThatNoException().isThrownBy(() -> {
			startup.beginTrace();
			assertThat(startup.serverEnv("a", "t")).containsEntry("TELEMETRY_STARTUP_SERVER_NAME", "a")
				.containsKey("NEMO_GYM_STARTUP_SPAWN_NS")
				.doesNotContainKey("TRACEPARENT");
			startup.serverReady("a");
			startup.finish();
		});
		assertThat(startup.report().orElseThrow().outcome()).isEqualTo("ready");
	}

	enum AbortFrom {

		NEW, TRACING, SPAWNED, ONE_READY, ALL_READY

	}

	@ParameterizedTest
	@EnumSource(AbortFrom.class)
	void abortClosesEveryOpenSpanWithErrorAndKeepsTheStagesCoveringTheStartup(AbortFrom from) {
		SupervisorStartup startup = startup(Map.of());
		if (from != AbortFrom.NEW) {
			startup.beginTrace();
			startup.mark("application_ready");
		}
		if (from.compareTo(AbortFrom.SPAWNED) >= 0) {
			startup.serverEnv("a", "model");
			startup.serverEnv("b", "model");
			startup.mark("spawn_servers");
		}
		if (from.compareTo(AbortFrom.ONE_READY) >= 0) {
			startup.serverReady("a");
		}
		if (from == AbortFrom.ALL_READY) {
			startup.serverReady("b");
		}

		startup.abort("crashed", new IllegalStateException("server 'b' exited with code 3"));

		SpanData root = only(SpanNames.SUPERVISOR_ROOT);
		assertThat(root.getAttributes().get(StartupSpans.OUTCOME)).isEqualTo("crashed");
		assertThat(root.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
		assertThat(root.getStatus().getDescription()).isEqualTo("server 'b' exited with code 3");
		assertThat(stageNames(root)).last().isEqualTo("unfinished");
		assertStagesCover(root);
		if (from.compareTo(AbortFrom.SPAWNED) >= 0) {
			assertThat(server("a").getAttributes().get(StartupSpans.OUTCOME))
				.isEqualTo((from == AbortFrom.SPAWNED) ? "crashed" : "ready");
			assertThat(server("b").getAttributes().get(StartupSpans.OUTCOME))
				.isEqualTo((from == AbortFrom.ALL_READY) ? "ready" : "crashed");
			assertThat(server("b").getStatus().getStatusCode())
				.isEqualTo((from == AbortFrom.ALL_READY) ? StatusCode.UNSET : StatusCode.ERROR);
			assertThat(histogram("b", (from == AbortFrom.ALL_READY) ? "ready" : "crashed").count()).isEqualTo(1);
		}
		else {
			assertThat(spans(SpanNames.SUPERVISOR_SERVER)).isEmpty();
		}
		assertThat(startup.report().orElseThrow().error()).isEqualTo("server 'b' exited with code 3");
	}

	@Test
	void secondCallsChangeNothing() {
		SupervisorStartup startup = startup(Map.of());
		Map<String, String> first = startup.serverEnv("a", "model");
		Map<String, String> again = startup.serverEnv("a", "model");
		startup.serverReady("a");
		startup.serverReady("a");
		startup.serverReady("unknown");
		startup.finish();
		List<SpanData> afterFinish = this.exporter.getFinishedSpanItems();
		StartupReport report = startup.report().orElseThrow();

		startup.finish();
		startup.abort("timeout", new IllegalStateException("too late"));
		startup.mark("too_late");
		startup.serverReady("a");
		startup.beginTrace();

		assertThat(again).isEqualTo(first);
		assertThat(this.exporter.getFinishedSpanItems()).isEqualTo(afterFinish);
		assertThat(spans(SpanNames.SUPERVISOR_SERVER)).hasSize(1);
		assertThat(startup.report()).contains(report);
		assertThat(histogram("a", "ready").count()).isEqualTo(1);
	}

	@Test
	void aServerIsReadyFromWhenItsReadinessWasReceivedNeverInTheFutureNorBeforeItsSpawn() {
		SupervisorStartup startup = startup(Map.of());
		startup.serverEnv("received", "model");
		startup.serverEnv("future", "model");
		startup.serverEnv("ancient", "model");
		long received = WallClock.nowNs();
		startup.serverReady("received", "callback", Double.NaN, Double.NaN, received);
		long beforeFuture = WallClock.nowNs();
		startup.serverReady("future", "callback", Double.NaN, Double.NaN, Long.MAX_VALUE);
		long afterFuture = WallClock.nowNs();
		startup.serverReady("ancient", "callback", Double.NaN, Double.NaN, 0);
		startup.finish();
		assertThat(server("received").getEndEpochNanos()).isEqualTo(received);
		assertThat(server("future").getEndEpochNanos()).isBetween(beforeFuture, afterFuture);
		assertThat(server("ancient").getEndEpochNanos()).isEqualTo(server("ancient").getStartEpochNanos());
	}

	@Test
	void finishingBeforeEveryServerIsReadyIsAnErrorAbort() {
		SupervisorStartup startup = startup(Map.of());
		startup.serverEnv("a", "model");
		startup.serverEnv("b", "model");
		startup.serverReady("a");
		startup.finish();
		SpanData root = only(SpanNames.SUPERVISOR_ROOT);
		assertThat(root.getAttributes().get(StartupSpans.OUTCOME)).isEqualTo("error");
		assertThat(root.getStatus().getDescription()).contains("[b]");
		assertThat(server("b").getAttributes().get(StartupSpans.OUTCOME)).isEqualTo("error");
		assertThat(server("a").getAttributes().get(StartupSpans.OUTCOME)).isEqualTo("ready");
	}

	@Test
	void aClaimedServerWhoseStepHasNotRunIsEndedReadyByFinishBeforeTheRootAndItsStepThenDoesNothing() {
		SupervisorStartup startup = startup(Map.of());
		startup.serverEnv("a", "model");
		long received = WallClock.nowNs();
		Runnable step = startup.claimReady("a", "callback", 1.5, 0.25, received);
		startup.serverReady("a", "probe", Double.NaN, Double.NaN, WallClock.nowNs());
		startup.finish();

		List<String> order = this.exporter.getFinishedSpanItems().stream().map(SpanData::getName).toList();
		assertThat(order.indexOf(SpanNames.SUPERVISOR_SERVER)).isNotNegative()
			.isLessThan(order.indexOf(SpanNames.SUPERVISOR_ROOT));
		SpanData a = server("a");
		assertThat(a.getEndEpochNanos()).isEqualTo(received);
		assertThat(a.getAttributes().get(StartupSpans.OUTCOME)).isEqualTo("ready");
		assertThat(a.getAttributes().get(StartupSpans.READINESS_SOURCE)).isEqualTo("callback");
		assertThat(a.getAttributes().get(StartupSpans.CLOCK_OFFSET_MS)).isEqualTo(1.5);
		assertThat(a.getAttributes().get(StartupSpans.CLOCK_UNCERTAINTY_MS)).isEqualTo(0.25);
		assertThat(only(SpanNames.SUPERVISOR_ROOT).getAttributes().get(StartupSpans.OUTCOME)).isEqualTo("ready");
		assertThat(startup.report().orElseThrow().servers()).singleElement()
			.satisfies((row) -> assertThat(row.endNs()).isEqualTo(received));
		List<SpanData> afterFinish = this.exporter.getFinishedSpanItems();

		step.run();
		assertThat(this.exporter.getFinishedSpanItems()).isEqualTo(afterFinish);
		assertThat(histogram("a", "ready").count()).isEqualTo(1);
	}

	@Test
	void aClaimedServerStaysReadyWhenTheStartupIsAbortedBeforeItsStepRan() {
		SupervisorStartup startup = startup(Map.of());
		startup.serverEnv("a", "model");
		startup.serverEnv("b", "model");
		Runnable step = startup.claimReady("a", "probe", Double.NaN, Double.NaN, WallClock.nowNs());
		startup.abort("crashed", new IllegalStateException("b crashed"));
		step.run();

		List<String> order = this.exporter.getFinishedSpanItems().stream()
			.map((span) -> span.getName() + ":" + span.getAttributes().get(StartupSpans.SERVER_NAME))
			.toList();
		assertThat(order.indexOf(SpanNames.SUPERVISOR_SERVER + ":a")).isNotNegative()
			.isLessThan(order.indexOf(SpanNames.SUPERVISOR_ROOT + ":null"));
		assertThat(server("a").getAttributes().get(StartupSpans.OUTCOME)).isEqualTo("ready");
		assertThat(server("a").getAttributes().get(StartupSpans.READINESS_SOURCE)).isEqualTo("probe");
		assertThat(server("b").getAttributes().get(StartupSpans.OUTCOME)).isEqualTo("crashed");
		assertThat(spans(SpanNames.SUPERVISOR_SERVER)).hasSize(2);
		assertThat(histogram("a", "ready").count()).isEqualTo(1);
		assertThat(histogram("b", "crashed").count()).isEqualTo(1);
	}

	@Test
	void aClaimOfAnUnknownOrSettledServerCountsNothingAndItsStepDoesNothing() {
		SupervisorStartup startup = startup(Map.of());
		startup.serverEnv("a", "model");
		startup.serverReady("a");
		Runnable again = startup.claimReady("a", "callback", Double.NaN, Double.NaN, WallClock.nowNs());
		Runnable unknown = startup.claimReady("unknown", "callback", Double.NaN, Double.NaN, WallClock.nowNs());
		again.run();
		unknown.run();
		startup.finish();

		assertThat(server("a").getAttributes().get(StartupSpans.READINESS_SOURCE)).isNull();
		assertThat(spans(SpanNames.SUPERVISOR_SERVER)).hasSize(1);
		assertThat(histogram("a", "ready").count()).isEqualTo(1);
	}

	/**
	 * A claimed server's step in progress on one thread (its listener held) while another
	 * finishes the startup: the finishing thread waits for it, so the server's span still ends
	 * before the root's, and the listener is told once.
	 */
	@Test
	void finishingWaitsForAClaimedServersStepInProgress() throws Exception {
		CountDownLatch inListener = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<String> told = new CopyOnWriteArrayList<>();
		SupervisorStartup startup = new OpenTelemetrySupervisorStartup(this.sdk, this.timeline, null, Map.of(),
				List.of((row) -> {
					told.add(row.name());
					inListener.countDown();
					awaitQuietly(release);
				}), true);
		startup.serverEnv("a", "model");
		Runnable step = startup.claimReady("a", "callback", Double.NaN, Double.NaN, WallClock.nowNs());
		Thread stepping = new Thread(step, "stepping");
		stepping.start();
		assertThat(inListener.await(30, TimeUnit.SECONDS)).isTrue();
		Thread finishing = new Thread(startup::finish, "finishing");
		finishing.start();
		// it blocks on the server's step, or, were it not to wait, ends the startup at once
		while (finishing.getState() != Thread.State.BLOCKED && finishing.getState() != Thread.State.TERMINATED) {
			Thread.onSpinWait();
		}
		boolean rootEndedWhileStepHeld = !spans(SpanNames.SUPERVISOR_ROOT).isEmpty();
		release.countDown();
		stepping.join(30_000);
		finishing.join(30_000);

		assertThat(rootEndedWhileStepHeld).isFalse();
		List<String> order = this.exporter.getFinishedSpanItems().stream().map(SpanData::getName).toList();
		assertThat(order.indexOf(SpanNames.SUPERVISOR_SERVER)).isNotNegative()
			.isLessThan(order.indexOf(SpanNames.SUPERVISOR_ROOT));
		assertThat(told).containsExactly("a");
		assertThat(startup.report().orElseThrow().outcome()).isEqualTo("ready");
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	enum Call {

		BEGIN, MARK, ENV, READY, FINISH, ABORT

	}

	/** All 720 orders of the six calls: one root, stages covering it, the outcome the order implies. */
	@Test
	void everyOrderOfEveryMethod() {
		for (List<Call> order : permutations(List.of(Call.values()))) {
			this.exporter.reset();
			this.timeline = startedOneSecondAgo();
			SupervisorStartup startup = startup(Map.of());
			String expected = null;
			boolean spawned = false;
			boolean ready = false;
			for (Call call : order) {
				switch (call) {
					case BEGIN -> startup.beginTrace();
					case MARK -> startup.mark("spawn_servers");
					case ENV -> {
						startup.serverEnv("a", "model");
						spawned |= expected == null;
					}
					case READY -> {
						startup.serverReady("a");
						ready |= spawned && expected == null;
					}
					case FINISH -> {
						startup.finish();
						expected = (expected != null) ? expected : (spawned && !ready) ? "error" : "ready";
					}
					case ABORT -> {
						startup.abort("timeout", null);
						expected = (expected != null) ? expected : "timeout";
					}
				}
			}
			SpanData root = only(SpanNames.SUPERVISOR_ROOT);
			assertThat(root.getAttributes().get(StartupSpans.OUTCOME)).as(order.toString()).isEqualTo(expected);
			assertThat(root.getStatus().getStatusCode()).as(order.toString())
				.isEqualTo("ready".equals(expected) ? StatusCode.UNSET : StatusCode.ERROR);
			assertStagesCover(root);
			assertThat(spans(SpanNames.SUPERVISOR_SERVER)).as(order.toString()).hasSize(spawned ? 1 : 0)
				.allSatisfy((server) -> {
					assertThat(server.getParentSpanId()).isEqualTo(root.getSpanId());
					assertThat(server.getEndEpochNanos()).isLessThanOrEqualTo(root.getEndEpochNanos());
				});
			assertThat(startup.report().orElseThrow().outcome()).isEqualTo(expected);
		}
	}

	/**
	 * 64 threads calling every method in a random order (seeded per repetition: the seed is in
	 * every failure message), all at once: nothing throws, and each span ends exactly once: one
	 * root, one span and one histogram record per server spawned, never a span exported twice,
	 * the stages still covering the root, and the report agreeing with it.
	 */
	@RepeatedTest(10)
	void sixtyFourThreadsCallingEveryMethodInRandomOrderEndEachSpanExactlyOnce(RepetitionInfo repetition)
			throws Exception {
		long seed = 0x5EED_0000L + repetition.getCurrentRepetition();
		SupervisorStartup startup = startup(Map.of());
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(64);
		try {
			List<Future<?>> calls = new ArrayList<>();
			for (int t = 0; t < 64; t++) {
				Random random = new Random(seed * 64 + t);
				calls.add(pool.submit(() -> {
					go.await();
					for (int i = 0; i < 20; i++) {
						callAtRandom(startup, random);
					}
					return null;
				}));
			}
			go.countDown();
			for (Future<?> call : calls) {
				call.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		// a run where no thread happened to end the startup: end it now
		startup.abort("interrupted", null);

		String seeded = "seed " + seed;
		SpanData root = only(SpanNames.SUPERVISOR_ROOT);
		String outcome = root.getAttributes().get(StartupSpans.OUTCOME);
		assertThat(outcome).as(seeded).isIn("ready", "error", "timeout", "crashed", "interrupted");
		assertThat(this.exporter.getFinishedSpanItems()).as(seeded)
			.extracting(SpanData::getSpanId)
			.doesNotHaveDuplicates();
		List<SpanData> servers = spans(SpanNames.SUPERVISOR_SERVER);
		assertThat(servers).as(seeded)
			.extracting((s) -> s.getAttributes().get(StartupSpans.SERVER_NAME))
			.doesNotHaveDuplicates();
		for (SpanData server : servers) {
			String name = server.getAttributes().get(StartupSpans.SERVER_NAME);
			assertThat(server.getParentSpanId()).as(seeded).isEqualTo(root.getSpanId());
			assertThat(server.getEndEpochNanos()).as(seeded).isLessThanOrEqualTo(root.getEndEpochNanos());
			assertThat(server.getAttributes().get(StartupSpans.OUTCOME)).as(seeded).isIn("ready", outcome);
			assertThat(this.registry.find(MetricNames.STARTUP_DURATION)
				.tag("nemo.gym.server.name", name)
				.summaries()).as(seeded).singleElement().satisfies((summary) -> assertThat(summary.count()).isEqualTo(1));
		}
		assertStagesCover(root);
		StartupReport report = startup.report().orElseThrow();
		assertThat(report.outcome()).as(seeded).isEqualTo(outcome);
		assertThat(report.servers()).as(seeded).hasSize(servers.size());
	}

	/** One call of any method; ending the startup is rarer, so that most runs race for a while first. */
	private static void callAtRandom(SupervisorStartup startup, Random random) {
		String server = "s" + random.nextInt(16);
		switch (random.nextInt(10)) {
			case 0 -> startup.beginTrace();
			case 1 -> startup.mark("stage-" + random.nextInt(4));
			case 2, 3, 4 -> startup.serverEnv(server, "model", Integer.parseInt(server.substring(1)), 16);
			case 5, 6 -> startup.serverReady(server);
			case 7 -> {
				// claimed now, its step run by this thread a moment later, racing whatever ends the startup
				Runnable step = startup.claimReady(server, "callback", Double.NaN, Double.NaN, WallClock.nowNs());
				startup.report();
				step.run();
			}
			case 8 -> {
				if (random.nextInt(8) == 0) {
					startup.finish();
				}
				else {
					startup.report();
				}
			}
			default -> {
				if (random.nextInt(8) == 0) {
					startup.abort(random.nextBoolean() ? "timeout" : "crashed", new IllegalStateException("random"));
				}
				else {
					startup.report();
				}
			}
		}
	}

	@Test
	void aServerThatWaitsForItsDependenciesHasTheWaitAsTheFirstStageOfItsSpanAndKeepsItsOwnSpawnToReady() {
		SupervisorStartup startup = startup(Map.of());
		startup.beginTrace();
		this.timeline.mark("application_ready");
		startup.serverEnv("config", "model");
		startup.serverWaiting("gateway", "model");
		startup.serverAttributes("gateway", Map.of("startup.dependency.conditions", List.of("config:ready")));
		startup.mark("spawn_servers");
		startup.serverReady("gateway");
		startup.serverReady("config");
		startup.serverWaiting("gateway", "model");
		Map<String, String> env = startup.serverEnv("gateway", "model", 0, 1);
		startup.serverReady("gateway");
		startup.finish();

		SpanData gateway = server("gateway");
		SpanData wait = only("gym.startup.server.waiting_for_dependencies");
		long spawnNs = Long.parseLong(env.get("NEMO_GYM_STARTUP_SPAWN_NS"));
		assertThat(wait.getParentSpanId()).isEqualTo(gateway.getSpanId());
		assertThat(wait.getAttributes().get(StartupSpans.STAGE)).isEqualTo("waiting_for_dependencies");
		assertThat(wait.getAttributes().get(StartupSpans.SERVER_NAME)).isEqualTo("gateway");
		assertThat(wait.getStartEpochNanos()).isEqualTo(gateway.getStartEpochNanos());
		assertThat(wait.getEndEpochNanos()).isEqualTo(spawnNs).isGreaterThanOrEqualTo(server("config").getEndEpochNanos());
		assertThat(gateway.getAttributes().get(StartupSpans.DEPENDENCY_WAIT_MS))
			.isEqualTo((spawnNs - gateway.getStartEpochNanos()) / 1e6);
		assertThat(gateway.getAttributes().get(AttributeKey.stringArrayKey("startup.dependency.conditions")))
			.containsExactly("config:ready");
		assertThat(gateway.getAttributes().get(StartupSpans.OUTCOME)).as("its early ready, unspawned, did not count")
			.isEqualTo("ready");
		assertThat(gateway.getEndEpochNanos()).isGreaterThanOrEqualTo(spawnNs);
		assertThat(env).containsEntry("NEMO_GYM_STARTUP_TRACEPARENT",
				"00-" + gateway.getTraceId() + "-" + gateway.getSpanId() + "-01");

		StartupReport report = startup.report().orElseThrow();
		assertThat(report.servers()).extracting(ServerReport::name).containsExactly("config", "gateway");
		ServerReport row = report.servers().get(1);
		assertThat(row.spawnNs()).isEqualTo(spawnNs);
		assertThat(row.spawned()).isTrue();
		assertThat(row.waiting()).hasValueSatisfying((waiting) -> assertThat(waiting.startNs())
			.isEqualTo(gateway.getStartEpochNanos()));
		assertThat(row.waitedNs()).isEqualTo(spawnNs - gateway.getStartEpochNanos());
		assertThat(histogram("gateway", "ready").totalAmount()).as("spawn→ready, its wait left out")
			.isEqualTo((gateway.getEndEpochNanos() - spawnNs) / 1e6);
	}

	@Test
	void aServerStillWaitingWhenTheStartupIsAbortedIsNeverSpawnedAndItsSpanSaysSo() {
		SupervisorStartup startup = startup(Map.of());
		startup.beginTrace();
		startup.serverEnv("config", "model");
		startup.serverWaiting("gateway", "model");
		startup.mark("spawn_servers");

		startup.abort("crashed", new IllegalStateException("Server 'config' exited with code 3"));

		SpanData gateway = server("gateway");
		assertThat(gateway.getAttributes().get(StartupSpans.OUTCOME)).isEqualTo("crashed");
		assertThat(gateway.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
		assertThat(gateway.getStatus().getDescription()).isEqualTo("not spawned: still waiting for its dependencies "
				+ "when the startup ended: Server 'config' exited with code 3");
		SpanData wait = only("gym.startup.server.waiting_for_dependencies");
		assertThat(wait.getStartEpochNanos()).isEqualTo(gateway.getStartEpochNanos());
		assertThat(wait.getEndEpochNanos()).isEqualTo(gateway.getEndEpochNanos());
		ServerReport row = startup.report().orElseThrow().servers().get(1);
		assertThat(row.name()).isEqualTo("gateway");
		assertThat(row.spawned()).isFalse();
		assertThat(row.spawnNs()).isEqualTo(row.endNs());
		assertThat(row.waitedNs()).isEqualTo(gateway.getEndEpochNanos() - gateway.getStartEpochNanos());
		assertThat(this.registry.find(MetricNames.STARTUP_DURATION).tag("nemo.gym.server.name", "gateway").summary())
			.as("a server never spawned had no startup to time")
			.isNull();
		assertThat(histogram("config", "crashed").count()).isEqualTo(1);
	}

	@Test
	void anAbortedFleetCarriesItsFailureOnceOnTheRootAndEachServerItsOwnBoundedReason() {
		SupervisorStartup startup = startup(Map.of());
		startup.beginTrace();
		int servers = 2000;
		List<String> names = new ArrayList<>();
		for (int i = 0; i < servers; i++) {
			names.add("model-" + i);
			startup.serverEnv("model-" + i, "model");
		}
		startup.mark("spawn_servers");
		startup.serverNotReady("model-7", "exited with code 3 before it was ready; last lines of its log:\n"
				+ "x".repeat(10_000));
		startup.serverNotReady("unknown", "changes nothing");
		// what a fleet's message was: every pending server by name, with its log (about 80 bytes each)
		String everyServer = "Not ready after 5000 ms: " + String.join(", ",
				names.stream().map((name) -> name + " (log /tmp/run/" + name + ".log)").toList());

		startup.abort("timeout", new IllegalStateException(everyServer));

		SpanData root = only(SpanNames.SUPERVISOR_ROOT);
		assertThat(root.getStatus().getDescription()).startsWith("Not ready after 5000 ms: model-0 (log ")
			.hasSizeLessThanOrEqualTo(StartupSpans.EXCEPTION_MAX_CHARS);
		assertThat(root.getEvents()).singleElement().satisfies((event) -> {
			assertThat(event.getName()).isEqualTo("exception");
			assertThat(event.getEpochNanos()).isEqualTo(root.getEndEpochNanos());
			assertThat(event.getAttributes().get(StartupSpans.EXCEPTION_TYPE))
				.isEqualTo(IllegalStateException.class.getName());
			assertThat(event.getAttributes().get(StartupSpans.EXCEPTION_MESSAGE)).startsWith("Not ready after")
				.hasSizeLessThanOrEqualTo(StartupSpans.EXCEPTION_MAX_CHARS);
			assertThat(event.getAttributes().get(StartupSpans.EXCEPTION_STACKTRACE))
				.startsWith(IllegalStateException.class.getName())
				.hasSizeLessThanOrEqualTo(StartupSpans.EXCEPTION_MAX_CHARS);
		});
		List<SpanData> spans = spans(SpanNames.SUPERVISOR_SERVER);
		assertThat(spans).hasSize(servers).allSatisfy((span) -> {
			assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
			assertThat(span.getStatus().getDescription()).hasSizeLessThanOrEqualTo(OpenTelemetrySupervisorStartup.REASON_MAX_CHARS);
			assertThat(span.getEvents()).as("the fleet's failure is the root's alone").isEmpty();
		});
		assertThat(server("model-7").getStatus().getDescription())
			.startsWith("exited with code 3 before it was ready; last lines of its log:\nxxx")
			.endsWith(" more characters)");
		assertThat(server("model-8").getStatus().getDescription()).as("the failure's first line, bounded")
			.startsWith("Not ready after 5000 ms: model-0 (log ")
			.hasSizeLessThanOrEqualTo(OpenTelemetrySupervisorStartup.HEADLINE_MAX_CHARS);
		long serverBytes = spans.stream().mapToLong((span) -> span.getStatus().getDescription().length()).sum();
		assertThat(serverBytes).as("linear in the fleet, not in its square")
			.isLessThan((long) servers * OpenTelemetrySupervisorStartup.REASON_MAX_CHARS);
		assertThat(startup.report().orElseThrow().error()).isEqualTo(root.getStatus().getDescription());
	}

	@Test
	void aFleetThatEndsAtOnceWaitsForItsSpansToLeaveSoThatABatchProcessorsDefaultQueueDropsNone() throws Exception {
		// the SDK as an application or the starter builds it: a batch processor with its default queue (2,048)
		GatedExporter gated = new GatedExporter();
		OpenTelemetrySdk batching = OpenTelemetrySdk.builder()
			.setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(BatchSpanProcessor.builder(gated).build()).build())
			.build();
		try {
			int servers = 3000;
			SupervisorStartup startup = new OpenTelemetrySupervisorStartup(batching, this.timeline, null, Map.of(),
					List.of(), true);
			startup.beginTrace();
			for (int i = 0; i < servers; i++) {
				startup.serverEnv("model-" + i, "model");
			}
			Thread aborting = new Thread(() -> startup.abort("timeout", new IllegalStateException("Not ready")));
			aborting.start();
			// an export is let through only while the fleet waits for it (or once the abort is over): a
			// startup that ended every span without waiting would find the queue full after 2,048
			while (aborting.isAlive()) {
				Thread.State state = aborting.getState();
				if (gated.waiting() && (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)) {
					gated.open();
				}
				Thread.onSpinWait();
			}
			gated.open();
			batching.getSdkTracerProvider().forceFlush().join(30, TimeUnit.SECONDS);
			assertThat(gated.exported(SpanNames.SUPERVISOR_SERVER)).isEqualTo(servers);
			assertThat(gated.exported(SpanNames.SUPERVISOR_ROOT)).isEqualTo(1);
		}
		finally {
			gated.open();
			batching.close();
		}
	}

	@Test
	void disabledReturnsAtOnceAndGivesAServerNoTelemetryVariables() {
		SupervisorStartup startup = new DisabledSupervisorStartup();
		startup.beginTrace();
		startup.mark("x");
		Map<String, String> env = startup.serverEnv("a", "model");
		startup.serverReady("a");
		startup.finish();
		startup.abort("timeout", null);
		assertThat(env).isEmpty();
		env.put("SERVER_PORT", "8080");
		assertThat(startup.report()).isEmpty();
	}

	/**
	 * An exporter whose exports wait until the test lets them through ({@link #open}): once open,
	 * every later export goes through at once.
	 */
	private static final class GatedExporter implements SpanExporter {

		private final CountDownLatch gate = new CountDownLatch(1);

		private final List<SpanData> exported = new CopyOnWriteArrayList<>();

		private volatile boolean waiting;

		@Override
		public CompletableResultCode export(Collection<SpanData> spans) {
			this.waiting = true;
			awaitQuietly(this.gate);
			this.waiting = false;
			this.exported.addAll(spans);
			return CompletableResultCode.ofSuccess();
		}

		boolean waiting() {
			return this.waiting;
		}

		void open() {
			this.gate.countDown();
		}

		long exported(String name) {
			return this.exported.stream().filter((span) -> span.getName().equals(name)).count();
		}

		@Override
		public CompletableResultCode flush() {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode shutdown() {
			return CompletableResultCode.ofSuccess();
		}

	}

	private SupervisorStartup startup(Map<String, String> processEnv) {
		MeterRegistry registry = this.registry;
		return new OpenTelemetrySupervisorStartup(this.sdk, this.timeline, null, processEnv,
				List.of(new SupervisorStartupMetrics(new StartupHistograms(() -> registry, () -> null))), true);
	}

	private DistributionSummary histogram(String server, String outcome) {
		return this.registry.get(MetricNames.STARTUP_DURATION)
			.tag("nemo.gym.server.name", server)
			.tag("nemo.gym.server.type", "model")
			.tag("nemo.gym.startup.outcome", outcome)
			.summary();
	}

	private List<SpanData> spans(String name) {
		return this.exporter.getFinishedSpanItems().stream().filter((span) -> span.getName().equals(name)).toList();
	}

	private SpanData only(String name) {
		List<SpanData> spans = spans(name);
		assertThat(spans).hasSize(1);
		return spans.get(0);
	}

	private SpanData server(String name) {
		return spans(SpanNames.SUPERVISOR_SERVER).stream()
			.filter((span) -> name.equals(span.getAttributes().get(StartupSpans.SERVER_NAME)))
			.findFirst()
			.orElseThrow();
	}

	private List<SpanData> stages(SpanData root) {
		return this.exporter.getFinishedSpanItems()
			.stream()
			.filter((span) -> span.getParentSpanId().equals(root.getSpanId())
					&& span.getName().startsWith(SpanNames.SUPERVISOR_ROOT + ".")
					&& !span.getName().equals(SpanNames.SUPERVISOR_SERVER))
			.sorted(Comparator.comparingLong(SpanData::getStartEpochNanos).thenComparingLong(SpanData::getEndEpochNanos))
			.toList();
	}

	private List<String> stageNames(SpanData root) {
		return stages(root).stream().map((span) -> span.getAttributes().get(StartupSpans.STAGE)).toList();
	}

	/**
	 * Each stage starts where the previous ended; together they cover the root exactly. (A
	 * startup finished before anything happened has neither stages nor length.)
	 */
	private void assertStagesCover(SpanData root) {
		List<SpanData> stages = stages(root);
		if (stages.isEmpty()) {
			assertThat(root.getEndEpochNanos()).isEqualTo(root.getStartEpochNanos());
			return;
		}
		assertThat(stages.get(0).getStartEpochNanos()).isEqualTo(root.getStartEpochNanos());
		for (int i = 1; i < stages.size(); i++) {
			assertThat(stages.get(i).getStartEpochNanos()).isEqualTo(stages.get(i - 1).getEndEpochNanos());
		}
		assertThat(stages.get(stages.size() - 1).getEndEpochNanos()).isEqualTo(root.getEndEpochNanos());
	}

	private static StageTimeline startedOneSecondAgo() {
		return new StageTimeline(WallClock.nowNs() - 1_000_000_000L);
	}

	private static <T> List<List<T>> permutations(List<T> items) {
		if (items.isEmpty()) {
			return List.of(List.of());
		}
		List<List<T>> all = new ArrayList<>();
		for (T first : items) {
			List<T> rest = new ArrayList<>(items);
			rest.remove(first);
			for (List<T> tail : permutations(rest)) {
				List<T> order = new ArrayList<>();
				order.add(first);
				order.addAll(tail);
				all.add(order);
			}
		}
		return all;
	}

}
