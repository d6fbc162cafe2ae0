package io.github.startuptelemetry.timeline;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The timeline JSON, both ways: what a server's {@code /actuator/startuptimeline} serves and
 * what its supervisor reads back for the report, as the maps and lists a JSON library writes
 * and parses. Every field name is defined here and nowhere else.
 * <p>
 * Reading is lenient, because the other side may be another version or another program: a
 * timeline without its stages or its ready time is no timeline, a step that cannot be read is
 * left out, and the plain values that Boot's basic parser (an application without Jackson)
 * hands back as text ({@code "true"}, {@code "null"}, {@code "42"}) read as what they say.
 * Reading never throws.
 */
public final class TimelineJson {

	static final String READY = "ready";

	static final String SERVER = "server";

	static final String TYPE = "type";

	static final String WORKER = "worker";

	static final String PID = "pid";

	static final String TRACE_ID = "traceId";

	static final String SPAN_ID = "spanId";

	static final String START_EPOCH_NS = "startEpochNs";

	static final String READY_EPOCH_NS = "readyEpochNs";

	static final String END_EPOCH_NS = "endEpochNs";

	static final String TOTAL_MS = "totalMs";

	static final String DURATION_MS = "durationMs";

	static final String STAGES = "stages";

	static final String IGNORED_ENV = "ignoredEnv";

	static final String BEAN_SPANS = "beanSpans";

	static final String NAME = "name";

	static final String STEP = "step";

	static final String BEAN = "bean";

	static final String SELF_MS = "selfMs";

	static final String CHILDREN = "children";

	static final String JVM = "jvm";

	static final String UNATTRIBUTED_MS = "unattributedMs";

	static final String VERSION = "version";

	static final String FLAGS = "flags";

	static final String CPU_MS = "cpuMs";

	static final String GC_MS = "gcMs";

	static final String GC_COUNT = "gcCount";

	static final String JIT_MS = "jitMs";

	static final String CLASSES_LOADED = "classesLoaded";

	private TimelineJson() {
	}

	/** The answer of a server that is not ready yet. */
	public static Map<String, Object> notReady() {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(READY, false);
		return body;
	}

	/** A ready server's timeline. */
	public static Map<String, Object> write(ServerTimeline timeline) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(READY, true);
		body.put(SERVER, timeline.serverName());
		body.put(TYPE, timeline.serverType());
		body.put(WORKER, timeline.worker());
		body.put(PID, timeline.pid());
		body.put(TRACE_ID, timeline.traceId());
		body.put(SPAN_ID, timeline.spanId());
		body.put(START_EPOCH_NS, timeline.startEpochNs());
		body.put(READY_EPOCH_NS, timeline.readyEpochNs());
		body.put(TOTAL_MS, timeline.totalMs());
		body.put(STAGES, timeline.stages().stream().map(TimelineJson::stage).toList());
		body.put(IGNORED_ENV, timeline.ignoredEnv());
		body.put(BEAN_SPANS, steps(timeline.steps()));
		putUnattributed(body, timeline);
		if (timeline.jvm() != null) {
			Map<String, Object> jvm = new LinkedHashMap<>();
			jvm.put(VERSION, timeline.jvm().version());
			jvm.put(FLAGS, timeline.jvm().flags());
			body.put(JVM, jvm);
		}
		return body;
	}

	/** Whether a parsed answer says the server is ready. */
	public static boolean isReady(@Nullable Map<String, ?> body) {
		return body != null && Boolean.TRUE.equals(bool(body.get(READY)));
	}

	/** The timeline of a parsed answer; empty when the server is not ready or the answer is unusable. */
	public static Optional<ServerTimeline> read(@Nullable Map<String, ?> body) {
		if (!isReady(body)) {
			return Optional.empty();
		}
		try {
			List<Stage> stages = new ArrayList<>();
			for (Object item : (List<?>) body.get(STAGES)) {
				Map<?, ?> stage = (Map<?, ?>) item;
				stages.add(new Stage((String) stage.get(NAME), number(stage.get(START_EPOCH_NS)),
						number(stage.get(END_EPOCH_NS)), readCounters(stage.get(JVM))));
			}
			long readyNs = number(body.get(READY_EPOCH_NS));
			Object start = body.get(START_EPOCH_NS);
			long startNs = (start != null) ? number(start) : stages.isEmpty() ? readyNs : stages.get(0).startNs();
			Object pid = body.get(PID);
			return Optional.of(new ServerTimeline(String.valueOf(text(body.get(SERVER))), text(body.get(TYPE)),
					Boolean.TRUE.equals(bool(body.get(WORKER))), (pid != null) ? number(pid) : 0,
					text(body.get(TRACE_ID)), text(body.get(SPAN_ID)), startNs, readyNs, stages,
					texts(body.get(IGNORED_ENV)), readSteps(body.get(BEAN_SPANS)), readJvm(body.get(JVM))));
		}
		catch (RuntimeException ex) {
			return Optional.empty();
		}
	}

	/**
	 * {@code unattributedMs}: the part of {@code beans_instantiated} no step covers; derived
	 * from the stages and steps, so written, never read.
	 */
	public static void putUnattributed(Map<String, Object> body, ServerTimeline timeline) {
		timeline.unattributedNs().ifPresent((ns) -> body.put(UNATTRIBUTED_MS, ns / 1_000_000.0));
	}

	/** One stage as the timeline writes it, with its JVM counters; the JSON report embeds the same. */
	public static Map<String, Object> stage(Stage stage) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(NAME, stage.name());
		body.put(START_EPOCH_NS, stage.startNs());
		body.put(END_EPOCH_NS, stage.endNs());
		body.put(DURATION_MS, stage.durationMs());
		stage.counters().ifPresent((jvm) -> body.put(JVM, counters(jvm)));
		return body;
	}

	/** A stage's JVM counters; a counter the JVM did not offer is left out. */
	private static Map<String, Object> counters(JvmCounters jvm) {
		Map<String, Object> body = new LinkedHashMap<>();
		if (jvm.cpuNs() >= 0) {
			body.put(CPU_MS, jvm.cpuMs());
		}
		putKnown(body, GC_MS, jvm.gcMs());
		putKnown(body, GC_COUNT, jvm.gcCount());
		putKnown(body, JIT_MS, jvm.jitMs());
		putKnown(body, CLASSES_LOADED, jvm.classesLoaded());
		return body;
	}

	private static void putKnown(Map<String, Object> body, String name, long value) {
		if (value >= 0) {
			body.put(name, value);
		}
	}

	/** The {@code jvm} field of a timeline, or {@code null} when absent or unreadable. */
	private static @Nullable JvmInfo readJvm(@Nullable Object field) {
		if (field instanceof Map<?, ?> jvm && text(jvm.get(VERSION)) != null) {
			return new JvmInfo(text(jvm.get(VERSION)), texts(jvm.get(FLAGS)));
		}
		return null;
	}

	/** The {@code jvm} field of a stage, or {@code null} when absent or unreadable (an older server). */
	private static @Nullable JvmCounters readCounters(@Nullable Object field) {
		if (!(field instanceof Map<?, ?> jvm)) {
			return null;
		}
		try {
			Object cpu = jvm.get(CPU_MS);
			return new JvmCounters((cpu != null) ? Math.round(decimal(cpu) * 1_000_000) : JvmCounters.UNAVAILABLE,
					known(jvm.get(GC_MS)), known(jvm.get(GC_COUNT)), known(jvm.get(JIT_MS)),
					known(jvm.get(CLASSES_LOADED)));
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private static long known(@Nullable Object value) {
		return (value != null) ? number(value) : JvmCounters.UNAVAILABLE;
	}

	/** Slow steps as the timeline writes them, nested; the JSON report embeds the same. */
	public static List<Map<String, Object>> steps(List<StepTiming> steps) {
		return steps.stream().map(TimelineJson::step).toList();
	}

	private static Map<String, Object> step(StepTiming step) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(NAME, step.label());
		body.put(STEP, step.step());
		body.put(BEAN, step.beanName());
		body.put(TYPE, step.beanType());
		body.put(START_EPOCH_NS, step.startNs());
		body.put(END_EPOCH_NS, step.endNs());
		body.put(DURATION_MS, step.durationMs());
		body.put(SELF_MS, step.selfMs());
		body.put(CHILDREN, steps(step.children()));
		return body;
	}

	/** The {@code beanSpans} field: nested steps; steps that cannot be read are left out. */
	private static List<StepTiming> readSteps(@Nullable Object field) {
		if (!(field instanceof List<?> items)) {
			return List.of();
		}
		List<StepTiming> steps = new ArrayList<>();
		for (Object item : items) {
			try {
				Map<?, ?> step = (Map<?, ?>) item;
				String stepName = text(step.get(STEP));
				long startNs = number(step.get(START_EPOCH_NS));
				long endNs = number(step.get(END_EPOCH_NS));
				Object self = step.get(SELF_MS);
				long selfNs = (self != null) ? Math.round(decimal(self) * 1_000_000) : endNs - startNs;
				steps.add(new StepTiming((stepName != null) ? stepName : text(step.get(NAME)), text(step.get(BEAN)),
						text(step.get(TYPE)), startNs, endNs, selfNs, readSteps(step.get(CHILDREN))));
			}
			catch (RuntimeException ex) {
				// left out: one unreadable step must not cost the others
			}
		}
		return steps;
	}

	static long number(Object value) {
		return (value instanceof Number number) ? number.longValue() : Long.parseLong(String.valueOf(value).strip());
	}

	private static double decimal(Object value) {
		return (value instanceof Number number) ? number.doubleValue()
				: Double.parseDouble(String.valueOf(value).strip());
	}

	private static @Nullable Boolean bool(@Nullable Object value) {
		if (value instanceof Boolean flag) {
			return flag;
		}
		return (value != null) ? switch (String.valueOf(value).strip()) {
			case "true" -> Boolean.TRUE;
			case "false" -> Boolean.FALSE;
			default -> null;
		} : null;
	}

	/** A JSON string, or null: without Jackson, Boot's basic parser reads {@code null} as text. */
	static @Nullable String text(@Nullable Object value) {
		return (value instanceof String text && !"null".equals(text)) ? text : null;
	}

	private static List<String> texts(@Nullable Object value) {
		if (!(value instanceof List<?> items)) {
			return List.of();
		}
		return items.stream().map(TimelineJson::text).filter((item) -> item != null).toList();
	}

}
