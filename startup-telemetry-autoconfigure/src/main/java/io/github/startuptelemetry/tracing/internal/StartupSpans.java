package io.github.startuptelemetry.tracing.internal;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.internal.BoundedText;
import io.github.startuptelemetry.timeline.internal.TraceParent;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * The one way a timeline becomes spans: after the fact, with explicit timestamps, because
 * telemetry is only initialised partway through startup. The span and attribute names are the
 * contract's ({@link SpanNames}, {@link SpanAttributes}); here they get their OpenTelemetry types.
 */
public final class StartupSpans {

	public static final AttributeKey<String> SERVER_NAME = AttributeKey.stringKey(SpanAttributes.SERVER_NAME);

	public static final AttributeKey<String> SERVER_TYPE = AttributeKey.stringKey(SpanAttributes.SERVER_TYPE);

	public static final AttributeKey<Boolean> SERVER_WORKER = AttributeKey.booleanKey(SpanAttributes.SERVER_WORKER);

	public static final AttributeKey<String> STAGE = AttributeKey.stringKey(SpanAttributes.STAGE);

	public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey(SpanAttributes.OUTCOME);

	public static final AttributeKey<Long> PROCESS_PID = AttributeKey.longKey(SpanAttributes.PROCESS_PID);

	public static final AttributeKey<String> STEP = AttributeKey.stringKey(SpanAttributes.STEP);

	public static final AttributeKey<String> BEAN_NAME = AttributeKey.stringKey(SpanAttributes.BEAN_NAME);

	public static final AttributeKey<String> BEAN_TYPE = AttributeKey.stringKey(SpanAttributes.BEAN_TYPE);

	public static final AttributeKey<Double> SELF_MS = AttributeKey.doubleKey(SpanAttributes.SELF_MS);

	public static final AttributeKey<List<String>> IGNORED_ENV = AttributeKey
		.stringArrayKey(SpanAttributes.IGNORED_ENV);

	public static final AttributeKey<String> READINESS_SOURCE = AttributeKey
		.stringKey(SpanAttributes.READINESS_SOURCE);

	public static final AttributeKey<Double> CLOCK_OFFSET_MS = AttributeKey.doubleKey(SpanAttributes.CLOCK_OFFSET_MS);

	public static final AttributeKey<Double> CLOCK_UNCERTAINTY_MS = AttributeKey
		.doubleKey(SpanAttributes.CLOCK_UNCERTAINTY_MS);

	public static final AttributeKey<Double> JVM_CPU_MS = AttributeKey.doubleKey(SpanAttributes.JVM_CPU_MS);

	public static final AttributeKey<Long> JVM_GC_MS = AttributeKey.longKey(SpanAttributes.JVM_GC_MS);

	public static final AttributeKey<Long> JVM_GC_COUNT = AttributeKey.longKey(SpanAttributes.JVM_GC_COUNT);

	public static final AttributeKey<Long> JVM_JIT_MS = AttributeKey.longKey(SpanAttributes.JVM_JIT_MS);

	public static final AttributeKey<Long> JVM_CLASSES_LOADED = AttributeKey
		.longKey(SpanAttributes.JVM_CLASSES_LOADED);

	public static final AttributeKey<Double> UNATTRIBUTED_MS = AttributeKey.doubleKey(SpanAttributes.UNATTRIBUTED_MS);

	public static final AttributeKey<Double> DEPENDENCY_WAIT_MS = AttributeKey
		.doubleKey(SpanAttributes.DEPENDENCY_WAIT_MS);

	public static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey(SpanAttributes.EXCEPTION_TYPE);

	public static final AttributeKey<String> EXCEPTION_MESSAGE = AttributeKey
		.stringKey(SpanAttributes.EXCEPTION_MESSAGE);

	public static final AttributeKey<String> EXCEPTION_STACKTRACE = AttributeKey
		.stringKey(SpanAttributes.EXCEPTION_STACKTRACE);

	/** The longest message and stack trace an exception event carries. */
	public static final int EXCEPTION_MAX_CHARS = 8192;

	public static final AttributeKey<String> TEST_CONTEXT = AttributeKey.stringKey(SpanAttributes.TEST_CONTEXT);

	public static final AttributeKey<String> TEST_CONTEXT_WHY = AttributeKey.stringKey(SpanAttributes.TEST_CONTEXT_WHY);

	public static final AttributeKey<List<String>> TEST_CLASSES = AttributeKey
		.stringArrayKey(SpanAttributes.TEST_CLASSES);

	private StartupSpans() {
	}

	/** A remote parent from a traceparent, or the root context without one. */
	public static Context parentContext(TraceParent parent) {
		if (parent == null) {
			return Context.root();
		}
		SpanContext remote = SpanContext.createFromRemoteParent(parent.traceId(), parent.spanId(),
				TraceFlags.fromByte((byte) parent.flags()), TraceState.getDefault());
		return Context.root().with(Span.wrap(remote));
	}

	public static Span start(Tracer tracer, String name, long startNs, Context parent, Attributes attributes) {
		return builder(tracer, name, startNs, parent, attributes).startSpan();
	}

	/**
	 * A span not started yet, for a caller with a few attributes of its own: set on the builder,
	 * they cost no {@link Attributes} copy per span.
	 */
	public static SpanBuilder builder(Tracer tracer, String name, long startNs, Context parent,
			Attributes attributes) {
		return tracer.spanBuilder(name)
			.setParent(parent)
			.setStartTimestamp(startNs, TimeUnit.NANOSECONDS)
			.setAllAttributes(attributes);
	}

	/**
	 * {@code attributes} and {@code extra}, whose values are {@code String}, {@code Long},
	 * {@code Double} or {@code Boolean} (anything else as its string); {@code attributes} itself
	 * when there is nothing extra.
	 */
	public static Attributes with(Attributes attributes, Map<String, Object> extra) {
		if (extra.isEmpty()) {
			return attributes;
		}
		AttributesBuilder builder = attributes.toBuilder();
		for (Map.Entry<String, Object> entry : extra.entrySet()) {
			Object value = entry.getValue();
			if (value instanceof Long number) {
				builder.put(AttributeKey.longKey(entry.getKey()), number);
			}
			else if (value instanceof Double number) {
				builder.put(AttributeKey.doubleKey(entry.getKey()), number);
			}
			else if (value instanceof Boolean bool) {
				builder.put(AttributeKey.booleanKey(entry.getKey()), bool);
			}
			else if (value != null) {
				builder.put(AttributeKey.stringKey(entry.getKey()), value.toString());
			}
		}
		return builder.build();
	}

	/**
	 * The exception event {@code Span.recordException} would add, at {@code atNs}, its message
	 * and stack trace each capped at {@value #EXCEPTION_MAX_CHARS} characters: a failure whose
	 * message grows with a fleet (every pending server named) stays one bounded event.
	 */
	public static void recordException(Span span, Throwable error, long atNs) {
		StringWriter trace = new StringWriter();
		error.printStackTrace(new PrintWriter(trace));
		String message = error.getMessage();
		AttributesBuilder attributes = Attributes.builder().put(EXCEPTION_TYPE, error.getClass().getName());
		if (message != null) {
			attributes.put(EXCEPTION_MESSAGE, BoundedText.cap(message, EXCEPTION_MAX_CHARS));
		}
		attributes.put(EXCEPTION_STACKTRACE, BoundedText.cap(trace.toString(), EXCEPTION_MAX_CHARS));
		span.addEvent(SpanNames.EXCEPTION_EVENT, attributes.build(), atNs, TimeUnit.NANOSECONDS);
	}

	/** The JVM counters of a stage, each only if the JVM offers it. */
	private static void putCounters(SpanBuilder span, JvmCounters jvm) {
		if (jvm.cpuNs() >= 0) {
			span.setAttribute(JVM_CPU_MS, jvm.cpuMs());
		}
		if (jvm.gcMs() >= 0) {
			span.setAttribute(JVM_GC_MS, jvm.gcMs());
		}
		if (jvm.gcCount() >= 0) {
			span.setAttribute(JVM_GC_COUNT, jvm.gcCount());
		}
		if (jvm.jitMs() >= 0) {
			span.setAttribute(JVM_JIT_MS, jvm.jitMs());
		}
		if (jvm.classesLoaded() >= 0) {
			span.setAttribute(JVM_CLASSES_LOADED, jvm.classesLoaded());
		}
	}

	/**
	 * One ended child span {@code <prefix>.<stage>} per stage, under {@code parent}; returned
	 * in stage order, for children of their own.
	 */
	public static List<Span> stageSpans(Tracer tracer, List<Stage> stages, Span parent, String prefix,
			Attributes attributes) {
		Context parentContext = Context.root().with(parent);
		List<Span> spans = new ArrayList<>(stages.size());
		for (Stage stage : stages) {
			spans.add(stageSpan(tracer, stage, parentContext, prefix, attributes, null));
		}
		return spans;
	}

	/**
	 * The ended span {@code <prefix>.<stage>} of one stage, with {@code attributes}, the stage's
	 * name and its JVM counters, and {@code unattributedMs} when not {@code null}.
	 */
	public static Span stageSpan(Tracer tracer, Stage stage, Context parent, String prefix, Attributes attributes,
			@Nullable Double unattributedMs) {
		return stageSpan(tracer, stage, parent, prefix, attributes, unattributedMs, null);
	}

	/**
	 * {@link #stageSpan(Tracer, Stage, Context, String, Attributes, Double)}, with ERROR status and
	 * {@code error} as its description when {@code error} is not {@code null}: the stage a startup
	 * failed in.
	 */
	public static Span stageSpan(Tracer tracer, Stage stage, Context parent, String prefix, Attributes attributes,
			@Nullable Double unattributedMs, @Nullable String error) {
		SpanBuilder builder = builder(tracer, SpanNames.stage(prefix, stage.name()), stage.startNs(), parent,
				attributes)
			.setAttribute(STAGE, stage.name());
		JvmCounters jvm = stage.jvm();
		if (jvm != null) {
			putCounters(builder, jvm);
		}
		if (unattributedMs != null) {
			builder.setAttribute(UNATTRIBUTED_MS, unattributedMs);
		}
		Span span = builder.startSpan();
		if (error != null) {
			span.setStatus(StatusCode.ERROR, error);
		}
		span.end(stage.endNs(), TimeUnit.NANOSECONDS);
		return span;
	}

	/**
	 * {@code <root>.bean.<name>} per slow bean, {@code <root>.step.<name>} per application
	 * step, nested as they ran and kept inside their parent's interval.
	 */
	public static void stepSpans(Tracer tracer, List<StepTiming> beanSpans, Span parent, long parentStartNs,
			long parentEndNs, String prefix, Attributes attributes) {
		Context parentContext = Context.root().with(parent);
		for (StepTiming beanSpan : beanSpans) {
			long start = Math.min(Math.max(beanSpan.startNs(), parentStartNs), parentEndNs);
			long end = Math.min(Math.max(beanSpan.endNs(), start), parentEndNs);
			String bean = beanSpan.beanName();
			String name = (bean != null) ? prefix + ".bean." + bean : prefix + ".step." + beanSpan.step();
			// on the builder, not a copy of the common attributes per span
			SpanBuilder builder = builder(tracer, name, start, parentContext, attributes)
				.setAttribute(STEP, beanSpan.step())
				.setAttribute(SELF_MS, beanSpan.selfMs());
			if (bean != null) {
				builder.setAttribute(BEAN_NAME, bean);
				if (beanSpan.beanType() != null) {
					builder.setAttribute(BEAN_TYPE, beanSpan.beanType());
				}
			}
			Span span = builder.startSpan();
			stepSpans(tracer, beanSpan.children(), span, start, end, prefix, attributes);
			span.end(end, TimeUnit.NANOSECONDS);
		}
	}

}
