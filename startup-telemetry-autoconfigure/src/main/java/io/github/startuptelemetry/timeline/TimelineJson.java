package io.github.startuptelemetry.timeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.JsonFields;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.internal.JsonText;

/**
 * The timeline JSON, both ways: what a server's {@code /actuator/startuptimeline} serves and
 * what its supervisor reads back, as the maps and lists a JSON library writes and parses.
 * Reading is lenient, because the other side may be another version or another program, and
 * never throws.
 */
public final class TimelineJson {

	private TimelineJson() {
	}

	/** The answer of a server that is not ready yet. */
	public static Map<String, Object> notReady() {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.READY, false);
		return body;
	}

	/**
	 * A ready server's timeline. Plain loops, no streams or lambdas: it is written on the ready
	 * callback's thread during startup, where each lambda is one more class to link.
	 */
	public static Map<String, Object> write(ServerTimeline timeline) {
		return write(timeline, null);
	}

	/**
	 * {@link #write(ServerTimeline)}, with each part {@code draft} already wrote (a stage, the
	 * steps, the JVM equal to one it saw) as that text: the same document, cheaper to finish.
	 * @param timeline the timeline
	 * @param draft what was written of an earlier state of it, or {@code null}
	 */
	public static Map<String, Object> write(ServerTimeline timeline, @Nullable Draft draft) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.READY, true);
		body.put(JsonFields.SERVER, timeline.serverName());
		body.put(JsonFields.TYPE, timeline.serverType());
		body.put(JsonFields.WORKER, timeline.worker());
		body.put(JsonFields.PID, timeline.pid());
		body.put(JsonFields.TRACE_ID, timeline.traceId());
		body.put(JsonFields.SPAN_ID, timeline.spanId());
		body.put(JsonFields.START_EPOCH_NS, timeline.startEpochNs());
		body.put(JsonFields.READY_EPOCH_NS, timeline.readyEpochNs());
		body.put(JsonFields.TOTAL_MS, timeline.totalMs());
		List<Object> stages = new ArrayList<>(timeline.stages().size());
		for (Stage stage : timeline.stages()) {
			JsonText.Written written = (draft != null) ? draft.stages.get(stage) : null;
			stages.add((written != null) ? written : stage(stage));
		}
		body.put(JsonFields.STAGES, stages);
		body.put(JsonFields.IGNORED_ENV, timeline.ignoredEnv());
		if (draft != null && timeline.steps().equals(draft.steps)) {
			body.put(JsonFields.BEAN_SPANS, draft.stepsText);
		}
		else {
			body.put(JsonFields.BEAN_SPANS, steps(timeline.steps()));
		}
		putUnattributed(body, timeline);
		if (timeline.jvm() != null) {
			boolean drafted = draft != null && timeline.jvm().equals(draft.jvm);
			body.put(JsonFields.JVM, drafted ? draft.jvmText : jvm(timeline.jvm()));
		}
		return body;
	}

	private static Map<String, Object> jvm(JvmInfo info) {
		Map<String, Object> jvm = new LinkedHashMap<>();
		jvm.put(JsonFields.VERSION, info.version());
		jvm.put(JsonFields.FLAGS, info.flags());
		return jvm;
	}

	/**
	 * The compact text of a timeline's parts that are final before it is (its stages so far,
	 * its steps, its JVM), written early, on the thread that will write the whole: at ready,
	 * {@link #write(ServerTimeline, Draft)} then only writes what ready added. A part is reused
	 * only when equal to the one written, so the document is the same either way. Not
	 * thread-safe: one thread writes a draft and uses it. For the starter's own ready callback;
	 * not meant for applications.
	 */
	public static final class Draft {

		private final Map<Stage, JsonText.Written> stages = new HashMap<>();

		private @Nullable List<StepTiming> steps;

		private JsonText.@Nullable Written stepsText;

		private @Nullable JvmInfo jvm;

		private JsonText.@Nullable Written jvmText;

		/** Write now the parts of {@code timeline}, an earlier state of the one to come. */
		public void add(ServerTimeline timeline) {
			for (Stage stage : timeline.stages()) {
				if (!this.stages.containsKey(stage)) {
					this.stages.put(stage, new JsonText.Written(JsonText.compact(stage(stage))));
				}
			}
			if (!timeline.steps().equals(this.steps)) {
				this.stepsText = new JsonText.Written(JsonText.compact(steps(timeline.steps())));
				this.steps = timeline.steps();
			}
			if (timeline.jvm() != null && !timeline.jvm().equals(this.jvm)) {
				this.jvmText = new JsonText.Written(JsonText.compact(jvm(timeline.jvm())));
				this.jvm = timeline.jvm();
			}
		}

	}

	/**
	 * A timeline with everything a server's has (each stage with its counters, nested steps,
	 * ignored env, the JVM), a few kB: written or read once, on a thread of its own, before the
	 * first real one, it loads the classes and runs the paths that one would otherwise pay for
	 * on the ready path, cold. For the starter's own warm-ups; not meant for applications.
	 */
	public static ServerTimeline warmUpTimeline() {
		List<Stage> stages = new ArrayList<>();
		long at = 1;
		for (String name : StageNames.RUN_ORDER) {
			stages.add(new Stage(name, at, at + 1, new JvmCounters(1, 1, 1, 1, 1)));
			at++;
		}
		StepTiming child = new StepTiming("spring.beans.instantiate", "child", "a.Child", 3, 4, 1, List.of(), 1);
		List<StepTiming> steps = List.of(
				new StepTiming("spring.beans.instantiate", "parent", "a.Parent", 3, 4, 0, List.of(child)),
				new StepTiming("application.step", null, null, 3, 4, 1, List.of()));
		return new ServerTimeline("warm-up", "warm-up", false, 1, "0".repeat(32), null, 1, at, stages,
				List.of("WARM_UP: ignored"), steps, new JvmInfo("17", List.of("-Xmx1g")));
	}

	/** Whether a parsed answer says the server is ready. */
	public static boolean isReady(@Nullable Map<String, ?> body) {
		return body != null && Boolean.TRUE.equals(bool(body.get(JsonFields.READY)));
	}

	/** The timeline of a parsed answer; empty when the server is not ready or the answer is unusable. */
	public static Optional<ServerTimeline> read(@Nullable Map<String, ?> body) {
		if (!isReady(body)) {
			return Optional.empty();
		}
		try {
			List<Stage> stages = new ArrayList<>();
			for (Object item : (List<?>) body.get(JsonFields.STAGES)) {
				Map<?, ?> stage = (Map<?, ?>) item;
				stages.add(new Stage((String) stage.get(JsonFields.NAME), JsonText.asLong(stage.get(JsonFields.START_EPOCH_NS)),
						JsonText.asLong(stage.get(JsonFields.END_EPOCH_NS)), readCounters(stage.get(JsonFields.JVM))));
			}
			long readyNs = JsonText.asLong(body.get(JsonFields.READY_EPOCH_NS));
			Object start = body.get(JsonFields.START_EPOCH_NS);
			long startNs = (start != null) ? JsonText.asLong(start) : stages.isEmpty() ? readyNs : stages.get(0).startNs();
			Object pid = body.get(JsonFields.PID);
			return Optional.of(new ServerTimeline(String.valueOf(JsonText.asText(body.get(JsonFields.SERVER))), JsonText.asText(body.get(JsonFields.TYPE)),
					Boolean.TRUE.equals(bool(body.get(JsonFields.WORKER))), (pid != null) ? JsonText.asLong(pid) : 0,
					JsonText.asText(body.get(JsonFields.TRACE_ID)), JsonText.asText(body.get(JsonFields.SPAN_ID)), startNs, readyNs, stages,
					texts(body.get(JsonFields.IGNORED_ENV)), readSteps(body.get(JsonFields.BEAN_SPANS)), readJvm(body.get(JsonFields.JVM))));
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
		OptionalLong unattributedNs = timeline.unattributedNs();
		if (unattributedNs.isPresent()) {
			body.put(JsonFields.UNATTRIBUTED_MS, unattributedNs.getAsLong() / 1_000_000.0);
		}
	}

	/** One stage as the timeline writes it, with its JsonFields.JVM counters; the JSON report embeds the same. */
	public static Map<String, Object> stage(Stage stage) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.NAME, stage.name());
		body.put(JsonFields.START_EPOCH_NS, stage.startNs());
		body.put(JsonFields.END_EPOCH_NS, stage.endNs());
		body.put(JsonFields.DURATION_MS, stage.durationMs());
		if (stage.jvm() != null) {
			body.put(JsonFields.JVM, counters(stage.jvm()));
		}
		return body;
	}

	/** A stage's JsonFields.JVM counters; a counter the JsonFields.JVM did not offer is left out. */
	private static Map<String, Object> counters(JvmCounters jvm) {
		Map<String, Object> body = new LinkedHashMap<>();
		if (jvm.cpuNs() >= 0) {
			body.put(JsonFields.CPU_MS, jvm.cpuMs());
		}
		putKnown(body, JsonFields.GC_MS, jvm.gcMs());
		putKnown(body, JsonFields.GC_COUNT, jvm.gcCount());
		putKnown(body, JsonFields.JIT_MS, jvm.jitMs());
		putKnown(body, JsonFields.CLASSES_LOADED, jvm.classesLoaded());
		return body;
	}

	private static void putKnown(Map<String, Object> body, String name, long value) {
		if (value >= 0) {
			body.put(name, value);
		}
	}

	/** The {@code jvm} field of a timeline, or {@code null} when absent or unreadable. */
	private static @Nullable JvmInfo readJvm(@Nullable Object field) {
		if (field instanceof Map<?, ?> jvm && JsonText.asText(jvm.get(JsonFields.VERSION)) != null) {
			return new JvmInfo(JsonText.asText(jvm.get(JsonFields.VERSION)), texts(jvm.get(JsonFields.FLAGS)));
		}
		return null;
	}

	/** The {@code jvm} field of a stage, or {@code null} when absent or unreadable (an older server). */
	private static @Nullable JvmCounters readCounters(@Nullable Object field) {
		if (!(field instanceof Map<?, ?> jvm)) {
			return null;
		}
		try {
			Object cpu = jvm.get(JsonFields.CPU_MS);
			return new JvmCounters((cpu != null) ? Math.round(decimal(cpu) * 1_000_000) : JvmCounters.UNAVAILABLE,
					known(jvm.get(JsonFields.GC_MS)), known(jvm.get(JsonFields.GC_COUNT)), known(jvm.get(JsonFields.JIT_MS)),
					known(jvm.get(JsonFields.CLASSES_LOADED)));
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private static long known(@Nullable Object value) {
		return (value != null) ? JsonText.asLong(value) : JvmCounters.UNAVAILABLE;
	}

	/** Slow steps as the timeline writes them, nested; the JSON report embeds the same. */
	public static List<Map<String, Object>> steps(List<StepTiming> steps) {
		List<Map<String, Object>> written = new ArrayList<>(steps.size());
		for (StepTiming step : steps) {
			written.add(step(step));
		}
		return written;
	}

	private static Map<String, Object> step(StepTiming step) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.NAME, step.label());
		body.put(JsonFields.STEP, step.step());
		body.put(JsonFields.BEAN, step.beanName());
		body.put(JsonFields.TYPE, step.beanType());
		body.put(JsonFields.START_EPOCH_NS, step.startNs());
		body.put(JsonFields.END_EPOCH_NS, step.endNs());
		body.put(JsonFields.DURATION_MS, step.durationMs());
		body.put(JsonFields.SELF_MS, step.selfMs());
		if (step.threadCpuNs() >= 0) {
			body.put(JsonFields.THREAD_CPU_MS, step.threadCpuMs());
		}
		body.put(JsonFields.CHILDREN, steps(step.children()));
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
				String stepName = JsonText.asText(step.get(JsonFields.STEP));
				long startNs = JsonText.asLong(step.get(JsonFields.START_EPOCH_NS));
				long endNs = JsonText.asLong(step.get(JsonFields.END_EPOCH_NS));
				Object self = step.get(JsonFields.SELF_MS);
				long selfNs = (self != null) ? Math.round(decimal(self) * 1_000_000) : endNs - startNs;
				Object cpu = step.get(JsonFields.THREAD_CPU_MS);
				long cpuNs = (cpu != null) ? Math.round(decimal(cpu) * 1_000_000) : JvmCounters.UNAVAILABLE;
				steps.add(new StepTiming((stepName != null) ? stepName : JsonText.asText(step.get(JsonFields.NAME)), JsonText.asText(step.get(JsonFields.BEAN)),
						JsonText.asText(step.get(JsonFields.TYPE)), startNs, endNs, selfNs, readSteps(step.get(JsonFields.CHILDREN)), cpuNs));
			}
			catch (RuntimeException ex) {
				// left out: one unreadable step must not cost the others
			}
		}
		return steps;
	}

	private static double decimal(Object value) {
		return (value instanceof Number number) ? number.doubleValue()
				: Double.parseDouble(String.valueOf(value).strip());
	}

	private static @Nullable Boolean bool(@Nullable Object value) {
		if (value instanceof Boolean flag) {
			return flag;
		}
		// Boot's basic parser (an application without Jackson) hands plain values back as text
		return (value != null) ? switch (String.valueOf(value).strip()) {
			case "true" -> Boolean.TRUE;
			case "false" -> Boolean.FALSE;
			default -> null;
		} : null;
	}

	/** A JSON string, or null: without Jackson, Boot's basic parser reads {@code null} as text. */

	private static List<String> texts(@Nullable Object value) {
		if (!(value instanceof List<?> items)) {
			return List.of();
		}
		return items.stream().map(JsonText::asText).filter((item) -> item != null).toList();
	}

}
