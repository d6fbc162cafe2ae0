package io.github.startuptelemetry.timeline;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * Names on the wire (SPEC §3) and the one way a timeline becomes spans: after the fact, with
 * explicit timestamps, because telemetry is only initialised partway through startup.
 */
public final class StartupSpans {

	/** Instrumentation scope of every startup span. */
	public static final String SCOPE = "startup-telemetry";

	public static final String SUPERVISOR_ROOT = "gym.startup";

	public static final String SUPERVISOR_SERVER = "gym.startup.server";

	public static final String SERVER_ROOT = "gym.server.startup";

	public static final String WORKER_ROOT = "gym.server.startup.worker";

	public static final AttributeKey<String> SERVER_NAME = AttributeKey.stringKey("nemo.gym.server.name");

	public static final AttributeKey<String> SERVER_TYPE = AttributeKey.stringKey("nemo.gym.server.type");

	public static final AttributeKey<Boolean> SERVER_WORKER = AttributeKey.booleanKey("nemo.gym.server.worker");

	public static final AttributeKey<String> STAGE = AttributeKey.stringKey("nemo.gym.startup.stage");

	public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("nemo.gym.startup.outcome");

	public static final AttributeKey<Long> PROCESS_PID = AttributeKey.longKey("process.pid");

	/** On a slow bean or application step under beans_instantiated: its ApplicationStartup step. */
	public static final AttributeKey<String> STEP = AttributeKey.stringKey("nemo.gym.startup.step");

	public static final AttributeKey<String> BEAN_NAME = AttributeKey.stringKey("nemo.gym.startup.bean.name");

	public static final AttributeKey<String> BEAN_TYPE = AttributeKey.stringKey("nemo.gym.startup.bean.type");

	/** A step's own time, less that of the slow steps nested in it. */
	public static final AttributeKey<Double> SELF_MS = AttributeKey.doubleKey("nemo.gym.startup.self_ms");

	/** Env values that were present but unusable (clock skew, reversed order), one line each. */
	public static final AttributeKey<List<String>> IGNORED_ENV = AttributeKey
		.stringArrayKey("nemo.gym.startup.ignored_env");

	private StartupSpans() {
	}

	/** Whether a span of this name is a startup span, exported whatever the sampler says. */
	public static boolean isStartupSpan(String name) {
		return name.startsWith(SUPERVISOR_ROOT) || name.startsWith(SERVER_ROOT);
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
		return tracer.spanBuilder(name)
			.setParent(parent)
			.setStartTimestamp(startNs, TimeUnit.NANOSECONDS)
			.setAllAttributes(attributes)
			.startSpan();
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
			Span span = start(tracer, prefix + "." + stage.name(), stage.startNs(), parentContext,
					attributes.toBuilder().put(STAGE, stage.name()).build());
			span.end(stage.endNs(), TimeUnit.NANOSECONDS);
			spans.add(span);
		}
		return spans;
	}

}
