package io.github.startuptelemetry.testcontexts.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/** Test reports made up for the renderings' tests: a JVM's base context and a mocked one. */
final class Reports {

	static final long MS = 1_000_000L;

	static final long T0 = 1_800_000_000_000L * MS;

	static final String BASE = "DemoApp #237121";

	static final String MOCKED = "DemoApp · @MockitoBean GreetingService #c33441";

	private Reports() {
	}

	/** One JVM of {@code pid} started at {@code startMs}: the base context at +3 s, the mocked one at +8 s. */
	static TestReport jvm(long pid, long startMs) {
		long start = T0 + startMs * MS;
		TestContextReport base = context(BASE, 1, pid, start + 3000 * MS, 2600, Why.first(), List.of("ATest", "BTest"));
		Why why = new Why("differs from #1 (ATest) in bean overrides", 1,
				List.of(new Difference("bean overrides", List.of("@MockitoBean GreetingService (field greetings)"),
						List.of())),
				null, null, "declare them in a shared base class");
		TestContextReport mocked = context(MOCKED, 2, pid, start + 8000 * MS, 780, why, List.of("CTest"));
		return new TestReport("42-1", "host", List.of(new TestJvm(pid, start, start + 3000 * MS, start + 11_000 * MS, 3,
				null)), List.of(base, mocked));
	}

	static TestContextReport context(String name, int number, long pid, long start, long ms, Why why,
			List<String> classes) {
		long beansEnd = start + ms * MS * 8 / 10;
		List<Stage> stages = List.of(
				new Stage("environment_prepared", start, start + ms * MS / 10,
						new JvmCounters(ms * MS / 10, 0, 0, 1, 800)),
				new Stage("context_prepared", start + ms * MS / 10, start + ms * MS / 5, null),
				new Stage("beans_instantiated", start + ms * MS / 5, beansEnd, new JvmCounters(ms * MS / 2, 2, 1, 3, 2000)),
				new Stage("application_ready", beansEnd, start + ms * MS, null));
		StepTiming catalogue = new StepTiming("spring.beans.instantiate", "catalogue", "org.example.Catalogue",
				start + ms * MS / 4, start + ms * MS / 4 + 60 * MS, 60 * MS, List.of(), 2 * MS);
		ServerTimeline timeline = new ServerTimeline(name, null, false, pid, null, null, start, start + ms * MS, stages,
				List.of(), List.of(catalogue), null);
		Map<String, List<String>> configuration = new LinkedHashMap<>();
		configuration.put("configuration classes", List.of("DemoApp"));
		return new TestContextReport(name, number, pid, true, "GenericWebApplicationContext", "SpringBootContextLoader",
				"ready", null, classes, why, null, 0, configuration, timeline);
	}

}
