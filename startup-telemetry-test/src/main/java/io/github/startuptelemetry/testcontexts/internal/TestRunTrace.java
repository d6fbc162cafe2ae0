package io.github.startuptelemetry.testcontexts.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.export.internal.StartupExport;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.tracing.internal.StartupSpans;

/**
 * A test JVM's run as one trace, when an endpoint is configured as for a server ({@code OTEL_*},
 * {@code telemetry.export.*} as system properties): {@code startup.tests} from the JVM's start to
 * its run's end, and under it one {@code startup.tests.context} per context with its stages and
 * slow beans, explicit timestamps throughout. Loaded only where the OpenTelemetry API is.
 */
final class TestRunTrace {

	/** The service the spans are of, unless {@code spring.application.name} or {@code OTEL_SERVICE_NAME} says. */
	static final String SERVICE_NAME = "tests";

	private static final Duration BUDGET = Duration.ofSeconds(10);

	private TestRunTrace() {
	}

	/** Export {@code jvm}'s part of {@code report}; its trace id, or {@code null} when nothing was exported. */
	static @Nullable String export(TestReport report, TestJvm jvm) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addLast(new MapPropertySource("startup-telemetry-test", Map.of("spring.application.name", SERVICE_NAME)));
		StartupExport export = StartupExport.standalone(environment, System.getenv());
		if (!export.settings().exportsTraces()) {
			return null;
		}
		OpenTelemetry openTelemetry = export.tracing();
		if (openTelemetry == null) {
			return null;
		}
		String traceId = spans(openTelemetry, report, jvm);
		export.close(System.nanoTime() + BUDGET.toNanos());
		return traceId;
	}

	/** The spans of {@code jvm}'s contexts; the trace's id, or {@code null} from a no-op OpenTelemetry. */
	static @Nullable String spans(OpenTelemetry openTelemetry, TestReport report, TestJvm jvm) {
		Tracer tracer = openTelemetry.getTracer(SpanNames.SCOPE);
		Attributes common = Attributes.builder().put(StartupSpans.PROCESS_PID, jvm.pid()).build();
		Span root = StartupSpans.start(tracer, SpanNames.TESTS_ROOT, jvm.startNs(), Context.root(), common);
		boolean failed = false;
		for (TestContextReport context : report.contexts()) {
			if (context.pid() == jvm.pid()) {
				failed |= !context.ready();
				contextSpan(tracer, root, context, common);
			}
		}
		root.setAttribute(StartupSpans.OUTCOME, failed ? StartupOutcome.ERROR : StartupOutcome.READY);
		root.end(Math.max(jvm.endNs(), jvm.startNs()), TimeUnit.NANOSECONDS);
		return root.getSpanContext().isValid() ? root.getSpanContext().getTraceId() : null;
	}

	private static void contextSpan(Tracer tracer, Span root, TestContextReport context, Attributes common) {
		ServerTimeline timeline = context.timeline();
		Span span = StartupSpans.builder(tracer, SpanNames.TEST_CONTEXT, context.startNs(), Context.root().with(root),
				common)
			.setAttribute(StartupSpans.TEST_CONTEXT, context.name())
			.setAttribute(StartupSpans.TEST_CONTEXT_WHY, context.why().text())
			.setAttribute(StartupSpans.TEST_CLASSES, context.testClasses())
			.setAttribute(StartupSpans.OUTCOME, context.outcome())
			.startSpan();
		Context parent = Context.root().with(span);
		for (Stage stage : timeline.stages()) {
			boolean beans = stage.name().equals(StageNames.BEANS_INSTANTIATED);
			Double unattributedMs = beans ? timeline.unattributedNs().orElse(0) / 1_000_000.0 : null;
			Span stageSpan = StartupSpans.stageSpan(tracer, stage, parent, SpanNames.TEST_CONTEXT, common,
					unattributedMs);
			if (beans) {
				StartupSpans.stepSpans(tracer, timeline.steps(), stageSpan, stage.startNs(), stage.endNs(),
						SpanNames.TEST_CONTEXT, common);
			}
		}
		if (!context.ready()) {
			span.setStatus(StatusCode.ERROR, (context.error() != null) ? context.error() : StartupOutcome.ERROR);
		}
		span.end(context.readyNs(), TimeUnit.NANOSECONDS);
	}

}
