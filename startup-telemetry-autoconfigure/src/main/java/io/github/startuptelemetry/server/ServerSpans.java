package io.github.startuptelemetry.server;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.timeline.internal.PlatformStages;
import io.github.startuptelemetry.tracing.internal.StartupSpans;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * A server's timeline as spans, after the fact, with explicit timestamps: the root
 * ({@code gym.server.startup}, or {@code .worker}) under the supervisor's span, a span per stage
 * (a platform's ahead of the process's), and the slow beans and steps under
 * {@code beans_instantiated}.
 */
final class ServerSpans {

	private ServerSpans() {
	}

	/**
	 * Export {@code timeline}'s spans; the root's context, or {@code null} when nothing was
	 * recorded (a no-op OpenTelemetry).
	 * @param platform the platform's stages ahead of the process's, or {@code null}
	 * @param failedStage the stage the startup failed in (the timeline's last), or {@code null}
	 * @param error what failed it, for the spans' status, or {@code null}
	 */
	static @Nullable SpanContext export(OpenTelemetry openTelemetry, String serverName, @Nullable String serverType,
			ServerStartupTimeline timeline, @Nullable PlatformStages platform, @Nullable String failedStage,
			@Nullable String error) {
		Tracer tracer = openTelemetry.getTracer(SpanNames.SCOPE);
		AttributesBuilder common = Attributes.builder()
			.put(StartupSpans.SERVER_NAME, serverName)
			.put(StartupSpans.SERVER_WORKER, timeline.worker())
			.put(StartupSpans.PROCESS_PID, ProcessHandle.current().pid());
		if (serverType != null) {
			common.put(StartupSpans.SERVER_TYPE, serverType);
		}
		Attributes attributes = common.build();
		Attributes rootAttributes = timeline.ignoredEnv().isEmpty() ? attributes
				: attributes.toBuilder().put(StartupSpans.IGNORED_ENV, timeline.ignoredEnv()).build();
		if (platform != null && !platform.rootAttributes().isEmpty()) {
			rootAttributes = StartupSpans.with(rootAttributes, platform.rootAttributes());
		}
		List<Stage> stages = (platform != null) ? platform.stages() : timeline.stages();
		String rootName = timeline.worker() ? SpanNames.WORKER_ROOT : SpanNames.SERVER_ROOT;
		long start = stages.isEmpty() ? timeline.startNs() : stages.get(0).startNs();
		Span root = StartupSpans.start(tracer, rootName, start, StartupSpans.parentContext(timeline.traceParent()),
				rootAttributes);
		Context rootContext = Context.root().with(root);
		for (Stage stage : stages) {
			// the bean spans hang from beans_instantiated, which says what of it they leave unexplained
			boolean beans = stage.name().equals(StageNames.BEANS_INSTANTIATED);
			Double unattributedMs = beans
					? (stage.durationNs() - StepTiming.coveredNs(timeline.steps(), stage.startNs(), stage.endNs()))
							/ 1_000_000.0
					: null;
			String stageError = (failedStage != null && stage.name().equals(failedStage)) ? errorText(error) : null;
			Attributes stageAttributes = (platform != null)
					? StartupSpans.with(attributes, platform.spanAttributes(stage.name())) : attributes;
			Span stageSpan = StartupSpans.stageSpan(tracer, stage, rootContext, rootName, stageAttributes,
					unattributedMs, stageError);
			if (beans) {
				StartupSpans.stepSpans(tracer, timeline.steps(), stageSpan, stage.startNs(), stage.endNs(), rootName,
						attributes);
			}
			if (platform != null) {
				exportNested(tracer, platform, stage, stageSpan, rootName, attributes);
			}
		}
		if (failedStage != null) {
			root.setAttribute(StartupSpans.OUTCOME, StartupOutcome.ERROR);
			root.setStatus(StatusCode.ERROR, errorText(error));
		}
		root.end(timeline.endNs(), TimeUnit.NANOSECONDS);
		return root.getSpanContext().isValid() ? root.getSpanContext() : null;
	}

	/** The platform's spans inside a stage's (an image pull in the pod's setup), named as stages are. */
	private static void exportNested(Tracer tracer, PlatformStages platform, Stage stage, Span stageSpan,
			String rootName, Attributes attributes) {
		for (PlatformStages.Nested nested : platform.nested()) {
			if (nested.parent().equals(stage.name())) {
				StartupSpans.stageSpan(tracer, nested.stage(), Context.root().with(stageSpan), rootName,
						StartupSpans.with(attributes, nested.attributes()), null, null);
			}
		}
	}

	private static String errorText(@Nullable String error) {
		return (error != null) ? error : StartupOutcome.ERROR;
	}

}
