package io.github.startuptelemetry.report.gate;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.contract.JsonFields;
import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.report.gate.Change.Cause;
import io.github.startuptelemetry.report.gate.Change.Kind;

/**
 * The regression gate over test reports ({@code kind: tests}, startup-telemetry-test's): context by
 * context, a new context failing it by name, a slower bean named with its context, a context
 * created again in its JVM new, a fork's duplicate counted once.
 */
class TestReportComparisonTest {

	private static final String BASE = "DemoApp #a1b2c3";

	private static final String MOCKED = "DemoApp · @MockitoBean GreetingService #d4e5f6";

	@TempDir
	Path tmp;

	@Test
	void theSameContextsPass() {
		ReportComparison comparison = compare(List.of(run(context(BASE, 0)), run(context(BASE, 0)),
				run(context(BASE, 0))), run(context(BASE, 0)));
		assertThat(comparison.regressed()).isFalse();
		assertThat(comparison.changes()).isNotEmpty().allSatisfy((change) -> assertThat(change.server()).isEqualTo(BASE));
	}

	@Test
	void aContextInNoBaselineRunFailsTheGateByName() {
		ReportComparison comparison = compare(List.of(run(context(BASE, 0)), run(context(BASE, 0))),
				run(context(BASE, 0), context(MOCKED, 0)));
		assertThat(comparison.culprits()).singleElement().satisfies((change) -> {
			assertThat(change.server()).isEqualTo(MOCKED);
			assertThat(change.kind()).isEqualTo(Kind.CONTEXT);
			assertThat(change.cause()).isEqualTo(Cause.NEW);
			assertThat(change.unit()).isEqualTo("context startup");
		});
		assertThat(comparison.summary()).contains(MOCKED + " context startup (new, ");
		assertThat(comparison.text()).contains("a new test context");
		assertThat(comparison.exitCode()).isEqualTo(3);
	}

	@Test
	void aSlowerBeanIsNamedWithItsContext() {
		ReportComparison comparison = compare(List.of(run(context(BASE, 0)), run(context(BASE, 0)),
				run(context(BASE, 0))), run(context(BASE, 1000)));
		assertThat(comparison.culprits()).singleElement().satisfies((change) -> {
			assertThat(change.server()).isEqualTo(BASE);
			assertThat(change.unit()).isEqualTo("bean repository");
		});
		assertThat(comparison.regressions()).extracting(Change::unit)
			.contains("context startup", "stage beans_instantiated", "bean repository");
	}

	@Test
	void aContextCreatedAgainInItsJvmIsNewWhileAForkDuplicateCountsOnce() {
		String again = BASE + " (again, #2)";
		ReportComparison createdAgain = compare(List.of(run(context(BASE, 0)), run(context(BASE, 0))),
				run(context(BASE, 0), context(again, 0)));
		assertThat(createdAgain.culprits()).extracting(Change::server, Change::cause)
			.containsExactly(org.assertj.core.groups.Tuple.tuple(again, Cause.NEW));
		// the same name in a second fork: its first creation is compared, the duplicate shown but not gated
		ReportComparison forks = compare(List.of(run(context(BASE, 0)), run(context(BASE, 0))),
				run(context(BASE, 0), context(BASE, 5000)));
		assertThat(forks.regressed()).isFalse();
	}

	@Test
	void compareReadsTestReportsAndExitsThreeOnANewContext() throws Exception {
		Path base = this.tmp.resolve("base.json");
		Path now = this.tmp.resolve("now.json");
		Files.writeString(base, run(context(BASE, 0)));
		Files.writeString(now, run(context(BASE, 0), context(MOCKED, 0)));
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		int exit = Compare.run(new String[] { base.toString(), now.toString() },
				new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
		assertThat(exit).isEqualTo(3);
		assertThat(out.toString(StandardCharsets.UTF_8)).contains("REGRESSED " + MOCKED + " context startup")
			.contains("a new test context");
	}

	@Test
	void aTestReportIsReadContextByContext() {
		List<ReportTimes.ServerTimes> times = ReportTimes.readTimes(run(context(BASE, 0), context(MOCKED, 0)));
		assertThat(times).extracting(ReportTimes.ServerTimes::name).containsExactly(BASE, MOCKED);
		assertThat(times.get(0).units().get(0)).satisfies((unit) -> {
			assertThat(unit.kind()).isEqualTo(Kind.CONTEXT);
			assertThat(unit.wallMs()).isEqualTo(2130.0);
			assertThat(unit.cpuMs()).isEqualTo(2020.0);
		});
		assertThat(times.get(0).beans()).containsKeys("startup.singletons", "repository", "service0");
	}

	private static ReportComparison compare(List<String> baselines, String current) {
		return ReportComparison.compare(baselines.stream().map(ReportTimes::readTimes).toList(),
				ReportTimes.readTimes(current), Settings.DEFAULT);
	}

	@SafeVarargs
	private static String run(Map<String, Object>... contexts) {
		Map<String, Object> document = new LinkedHashMap<>();
		document.put(JsonFields.SCHEMA_VERSION_FIELD, 1);
		document.put(JsonFields.KIND, JsonFields.KIND_TESTS);
		document.put(JsonFields.CONTEXTS, List.of(contexts));
		return JsonText.pretty(document);
	}

	/** A Boot test context of 2.13 s, 2.02 s of it CPU, its {@code repository} bean {@code extraMs} slower. */
	private static Map<String, Object> context(String name, double extraMs) {
		List<Object> beans = new ArrayList<>();
		beans.add(bean("repository", 300 + extraMs));
		for (int i = 0; i < 8; i++) {
			beans.add(bean("service" + i, 100));
		}
		Map<String, Object> singletons = bean("startup.singletons", 1100 + extraMs);
		singletons.put(JsonFields.STEP, "startup.singletons");
		singletons.put(JsonFields.CHILDREN, beans);
		Map<String, Object> timeline = new LinkedHashMap<>();
		timeline.put(JsonFields.READY, true);
		timeline.put(JsonFields.STAGES, List.of(stage("environment_prepared", 300, 280), stage("context_prepared", 200, 190),
				stage("beans_instantiated", 1500 + extraMs, 1450 + extraMs), stage("context_refreshed", 100, 80),
				stage("application_started", 20, 15), stage("application_ready", 10, 5)));
		timeline.put(JsonFields.BEAN_SPANS, List.of(singletons));
		Map<String, Object> context = new LinkedHashMap<>();
		context.put(JsonFields.NAME, name);
		context.put(JsonFields.OUTCOME, "ready");
		context.put(JsonFields.STARTUP_MS, 2130 + extraMs);
		context.put(JsonFields.TIMELINE, timeline);
		return context;
	}

	private static Map<String, Object> stage(String name, double ms, double cpuMs) {
		Map<String, Object> stage = new LinkedHashMap<>();
		stage.put(JsonFields.NAME, name);
		stage.put(JsonFields.DURATION_MS, ms);
		stage.put(JsonFields.JVM, Map.of(JsonFields.CPU_MS, cpuMs, JsonFields.JIT_MS, 0, JsonFields.GC_MS, 0));
		return stage;
	}

	private static Map<String, Object> bean(String name, double ms) {
		Map<String, Object> bean = new LinkedHashMap<>();
		bean.put(JsonFields.NAME, name);
		bean.put(JsonFields.STEP, "spring.beans.instantiate");
		bean.put(JsonFields.DURATION_MS, ms);
		bean.put(JsonFields.THREAD_CPU_MS, ms * 0.97);
		bean.put(JsonFields.CHILDREN, List.of());
		return bean;
	}

}
