package io.github.startuptelemetry.testcontexts.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.JsonFields;
import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.TimelineJson;

/**
 * A test run's report as a versioned JSON document ({@code kind} {@code tests}, schema
 * {@code docs/startup-test-report.schema.json}), both ways: each JVM writes its part, the run's
 * file is their merge, and the regression gate reads it ({@code report.gate.Compare}). A context's
 * {@code timeline} is the server timeline's document ({@link TimelineJson}). Fields may be added
 * within a {@link #SCHEMA_VERSION}, never renamed or removed.
 */
public final class TestReportJson {

	/** The schema's version, raised only for a change an old reader would misread. */
	public static final int SCHEMA_VERSION = 1;

	/** The slowest beans the document lists. */
	static final int SLOWEST_BEANS = 20;

	private TestReportJson() {
	}

	public static String render(TestReport report) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.SCHEMA_VERSION_FIELD, SCHEMA_VERSION);
		body.put(JsonFields.KIND, JsonFields.KIND_TESTS);
		body.put(JsonFields.RUN_ID, report.runId());
		body.put(JsonFields.HOST, report.host());
		body.put(JsonFields.START_EPOCH_NS, report.startNs());
		body.put(JsonFields.END_EPOCH_NS, report.endNs());
		body.put(JsonFields.DURATION_MS, ms(report.endNs() - report.startNs()));
		body.put(JsonFields.CONTEXTS_CREATED, report.contexts().size());
		body.put(JsonFields.STARTUP_MS, ms(report.startupNs()));
		body.put(JsonFields.JVMS, report.jvms().stream().map(TestReportJson::jvm).toList());
		body.put(JsonFields.CAUSES, report.causes().stream().map((cause) -> {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put(JsonFields.CAUSE, cause.text());
			entry.put(JsonFields.CONTEXTS, cause.contexts());
			entry.put(JsonFields.STARTUP_MS, ms(cause.startupNs()));
			return entry;
		}).toList());
		body.put(JsonFields.SLOWEST_BEANS, report.slowestBeans(SLOWEST_BEANS).stream().map((bean) -> {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put(JsonFields.NAME, bean.bean());
			entry.put(JsonFields.TYPE, bean.type());
			entry.put(JsonFields.CONTEXT, bean.context());
			entry.put(JsonFields.DURATION_MS, ms(bean.durationNs()));
			return entry;
		}).toList());
		body.put(JsonFields.CONTEXTS, report.contexts().stream().map(TestReportJson::context).toList());
		return JsonText.pretty(body);
	}

	private static Map<String, Object> jvm(TestJvm jvm) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.PID, jvm.pid());
		body.put(JsonFields.START_EPOCH_NS, jvm.startNs());
		body.put(JsonFields.END_EPOCH_NS, jvm.endNs());
		body.put(JsonFields.BEFORE_FIRST_CONTEXT_MS, (jvm.firstContextNs() >= 0) ? ms(jvm.beforeFirstContextNs()) : null);
		body.put(JsonFields.TEST_CLASSES, jvm.testClasses());
		body.put(JsonFields.TRACE_ID, jvm.traceId());
		return body;
	}

	private static Map<String, Object> context(TestContextReport context) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.NAME, context.name());
		body.put(JsonFields.NUMBER, context.number());
		body.put(JsonFields.PID, context.pid());
		body.put(JsonFields.OUTCOME, context.outcome());
		body.put(JsonFields.ERROR, context.error());
		body.put(JsonFields.STARTUP_MS, ms(context.startupNs()));
		body.put(JsonFields.START_EPOCH_NS, context.startNs());
		body.put(JsonFields.READY_EPOCH_NS, context.readyNs());
		body.put(JsonFields.TEST_CLASSES, context.testClasses());
		body.put(JsonFields.FIRST_IN_JVM, context.why().firstInJvm());
		Why why = context.why();
		Map<String, Object> because = new LinkedHashMap<>();
		because.put(JsonFields.TEXT, why.text());
		because.put(JsonFields.NEAREST, why.nearest());
		because.put(JsonFields.DIFFERENCES, why.differences().stream().map((difference) -> {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put(JsonFields.ASPECT, difference.aspect());
			entry.put(JsonFields.ADDED, difference.added());
			entry.put(JsonFields.REMOVED, difference.removed());
			return entry;
		}).toList());
		because.put(JsonFields.SAME_AS, why.sameAs());
		because.put(JsonFields.OTHER_JVM, why.otherJvm());
		because.put(JsonFields.HINT, why.hint());
		body.put(JsonFields.WHY, because);
		body.put(JsonFields.CLOSED_BY, context.closedBy());
		body.put(JsonFields.PAUSES, context.pauses());
		body.put(JsonFields.BOOT, context.boot());
		body.put(JsonFields.APPLICATION_CONTEXT, context.applicationContext());
		body.put(JsonFields.CONTEXT_LOADER, context.contextLoader());
		body.put(JsonFields.CONFIGURATION, context.configuration());
		body.put(JsonFields.TIMELINE, TimelineJson.write(context.timeline()));
		return body;
	}

	/**
	 * A document this class wrote (a JVM's part), as values again.
	 * @throws IllegalArgumentException when it is not a test report
	 */
	public static TestReport read(String text) {
		Map<String, Object> body = JsonText.parseObject(text);
		if (body == null || !JsonFields.KIND_TESTS.equals(body.get(JsonFields.KIND))) {
			throw new IllegalArgumentException("Not a test contexts' report");
		}
		List<TestJvm> jvms = new ArrayList<>();
		for (Map<?, ?> jvm : maps(body.get(JsonFields.JVMS))) {
			long start = JsonText.asLong(jvm.get(JsonFields.START_EPOCH_NS));
			Object before = jvm.get(JsonFields.BEFORE_FIRST_CONTEXT_MS);
			jvms.add(new TestJvm(JsonText.asLong(jvm.get(JsonFields.PID)), start,
					(before != null) ? start + ns(before) : -1, JsonText.asLong(jvm.get(JsonFields.END_EPOCH_NS)),
					(int) JsonText.asLong(jvm.get(JsonFields.TEST_CLASSES)), JsonText.asText(jvm.get(JsonFields.TRACE_ID))));
		}
		List<TestContextReport> contexts = new ArrayList<>();
		for (Map<?, ?> context : maps(body.get(JsonFields.CONTEXTS))) {
			contexts.add(readContext(context));
		}
		return new TestReport(JsonText.asText(body.get(JsonFields.RUN_ID)), JsonText.asText(body.get(JsonFields.HOST)),
				jvms, contexts);
	}

	@SuppressWarnings("unchecked")
	private static TestContextReport readContext(Map<?, ?> context) {
		Map<?, ?> why = (context.get(JsonFields.WHY) instanceof Map<?, ?> map) ? map : Map.of();
		List<Difference> differences = new ArrayList<>();
		for (Map<?, ?> difference : maps(why.get(JsonFields.DIFFERENCES))) {
			differences.add(new Difference(String.valueOf(difference.get(JsonFields.ASPECT)),
					texts(difference.get(JsonFields.ADDED)), texts(difference.get(JsonFields.REMOVED))));
		}
		Map<String, List<String>> configuration = new LinkedHashMap<>();
		if (context.get(JsonFields.CONFIGURATION) instanceof Map<?, ?> aspects) {
			aspects.forEach((aspect, values) -> configuration.put(String.valueOf(aspect), texts(values)));
		}
		ServerTimeline timeline = TimelineJson.read((Map<String, ?>) context.get(JsonFields.TIMELINE))
			.orElseThrow(() -> new IllegalArgumentException("A context without its timeline"));
		return new TestContextReport(String.valueOf(context.get(JsonFields.NAME)),
				(int) JsonText.asLong(context.get(JsonFields.NUMBER)), JsonText.asLong(context.get(JsonFields.PID)),
				Boolean.TRUE.equals(context.get(JsonFields.BOOT)),
				String.valueOf(context.get(JsonFields.APPLICATION_CONTEXT)),
				String.valueOf(context.get(JsonFields.CONTEXT_LOADER)), String.valueOf(context.get(JsonFields.OUTCOME)),
				JsonText.asText(context.get(JsonFields.ERROR)), texts(context.get(JsonFields.TEST_CLASSES)),
				new Why(String.valueOf(why.get(JsonFields.TEXT)), integer(why.get(JsonFields.NEAREST)), differences,
						integer(why.get(JsonFields.SAME_AS)),
						(why.get(JsonFields.OTHER_JVM) != null) ? JsonText.asLong(why.get(JsonFields.OTHER_JVM)) : null,
						JsonText.asText(why.get(JsonFields.HINT))),
				JsonText.asText(context.get(JsonFields.CLOSED_BY)), (int) JsonText.asLong(context.get(JsonFields.PAUSES)),
				configuration, timeline);
	}

	private static List<Map<?, ?>> maps(@Nullable Object field) {
		List<Map<?, ?>> maps = new ArrayList<>();
		if (field instanceof List<?> list) {
			list.forEach((item) -> {
				if (item instanceof Map<?, ?> map) {
					maps.add(map);
				}
			});
		}
		return maps;
	}

	private static List<String> texts(@Nullable Object field) {
		return (field instanceof List<?> list) ? list.stream().map(String::valueOf).toList() : List.of();
	}

	private static @Nullable Integer integer(@Nullable Object value) {
		return (value != null) ? Integer.valueOf((int) JsonText.asLong(value)) : null;
	}

	private static double ms(long ns) {
		return ns / 1_000_000.0;
	}

	private static long ns(Object ms) {
		return Math.round(Double.parseDouble(String.valueOf(ms)) * 1_000_000);
	}

}
