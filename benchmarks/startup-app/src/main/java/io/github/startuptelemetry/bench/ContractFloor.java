package io.github.startuptelemetry.bench;

import java.lang.management.ManagementFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceId;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.SdkTracerProvider;

import org.springframework.boot.context.event.ApplicationContextInitializedEvent;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextRefreshedEvent;

/**
 * The floor of the starter's contract in this app, hand-written, for the startup benchmark's
 * "floor" variant ({@code BENCH_FLOOR=true}, baseline jar): what any implementation has to do
 * by the first healthy response, and nothing else. A {@code System.nanoTime()} mark at each
 * Boot event of a stage; at ready a sampled root span and 8 stage spans with explicit
 * timestamps, a flush of the tracer provider (so a server that dies right after ready keeps
 * them), and one stage histogram per stage with Gym's 14 boundaries. It exists to tell whether
 * the on path's target is reachable at all: it costs what the contract costs, not what the
 * starter adds. The baseline jar has no class of the starter, so the contract's names are
 * spelt out here; {@code context_initialized} stands in for {@code beans_instantiated}, which
 * no event marks (the starter marks it from a lifecycle bean).
 */
final class ContractFloor implements ApplicationListener<ApplicationEvent> {

	private static final String[] STAGES = { "main_start", "environment_prepared", "context_initialized",
			"context_prepared", "web_server_started", "context_refreshed", "application_started",
			"application_ready" };

	private static final double[] BOUNDARIES_MS = { 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 120000,
			300000, 600000, 1800000, 3600000 };

	private static final AttributeKey<String> SERVER_NAME = AttributeKey.stringKey("nemo.gym.server.name");

	private static final AttributeKey<Boolean> SERVER_WORKER = AttributeKey.booleanKey("nemo.gym.server.worker");

	private static final AttributeKey<Long> PROCESS_PID = AttributeKey.longKey("process.pid");

	private static final AttributeKey<String> STAGE = AttributeKey.stringKey("nemo.gym.startup.stage");

	private final long epochNs = System.currentTimeMillis() * 1_000_000L;

	private final long nanoTime = System.nanoTime();

	/** Epoch ns: the process's start, then the end of each stage. */
	private final long[] marks = new long[STAGES.length + 1];

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (event instanceof ApplicationStartingEvent) {
			this.marks[1] = now();
			// the JVM's start, as the starter takes it: ProcessHandle's start instant is cheaper but ≈ 0.86 s
			// off on this VM (boot-time skew); Micrometer's JVM metrics load these MXBean classes anyway
			this.marks[0] = ManagementFactory.getRuntimeMXBean().getStartTime() * 1_000_000L;
		}
		else if (event instanceof ApplicationEnvironmentPreparedEvent) {
			this.marks[2] = now();
		}
		else if (event instanceof ApplicationContextInitializedEvent) {
			this.marks[3] = now();
		}
		else if (event instanceof ApplicationPreparedEvent) {
			this.marks[4] = now();
		}
		else if (event instanceof WebServerInitializedEvent) {
			this.marks[5] = now();
		}
		else if (event instanceof ContextRefreshedEvent) {
			this.marks[6] = now();
		}
		else if (event instanceof ApplicationStartedEvent) {
			this.marks[7] = now();
		}
		else if (event instanceof ApplicationReadyEvent ready) {
			this.marks[8] = now();
			report(ready.getApplicationContext());
		}
	}

	private void report(ConfigurableApplicationContext context) {
		Tracer tracer = context.getBean(OpenTelemetry.class).getTracer("startup-telemetry");
		// a supervisor's traceparent: the root is sampled whatever Boot's ratio sampler says
		ThreadLocalRandom random = ThreadLocalRandom.current();
		SpanContext parent = SpanContext.createFromRemoteParent(TraceId.fromLongs(random.nextLong(), random.nextLong()),
				SpanId.fromLong(random.nextLong()), TraceFlags.getSampled(), TraceState.getDefault());
		Attributes attributes = Attributes.of(SERVER_NAME, "startup-app", SERVER_WORKER, false, PROCESS_PID,
				ProcessHandle.current().pid());
		Span root = tracer.spanBuilder("gym.server.startup")
			.setParent(Context.root().with(Span.wrap(parent)))
			.setStartTimestamp(this.marks[0], TimeUnit.NANOSECONDS)
			.setAllAttributes(attributes)
			.startSpan();
		Context rootContext = Context.root().with(root);
		for (int i = 0; i < STAGES.length; i++) {
			tracer.spanBuilder("gym.server.startup." + STAGES[i])
				.setParent(rootContext)
				.setStartTimestamp(this.marks[i], TimeUnit.NANOSECONDS)
				.setAllAttributes(attributes)
				.setAttribute(STAGE, STAGES[i])
				.startSpan()
				.end(this.marks[i + 1], TimeUnit.NANOSECONDS);
		}
		root.end(this.marks[STAGES.length], TimeUnit.NANOSECONDS);
		context.getBean(SdkTracerProvider.class).forceFlush();
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		for (int i = 0; i < STAGES.length; i++) {
			DistributionSummary.builder("gym.server.startup_stage_duration_ms")
				.baseUnit("ms")
				.tags("nemo.gym.server.name", "startup-app", "nemo.gym.server.worker", "false", "nemo.gym.startup.stage",
						STAGES[i])
				.serviceLevelObjectives(BOUNDARIES_MS)
				.register(registry)
				.record((this.marks[i + 1] - this.marks[i]) / 1e6);
		}
	}

	private long now() {
		return this.epochNs + (System.nanoTime() - this.nanoTime);
	}

}
