package io.github.startuptelemetry.testcontexts;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.testcontexts.fixture.Suite;
import io.github.startuptelemetry.testcontexts.fixture.WorkerRun;
import io.github.startuptelemetry.testcontexts.internal.TestContextReport;
import io.github.startuptelemetry.testcontexts.internal.TestReport;
import io.github.startuptelemetry.testcontexts.internal.TestReportJson;

/**
 * A test JVM as Gradle runs one (its launcher-session calls, {@link WorkerRun}; Gradle cannot run
 * here): the fixture suite's contexts, each timed and explained, the report in {@code build/},
 * the console summary at the session's close, the context cache's key untouched.
 */
class GradleWorkerTest {

	private static final String[] SUITE = { Suite.A_BaseTest.class.getName(), Suite.B_SameAsBaseTest.class.getName(),
			Suite.C_MockedTest.class.getName(), Suite.D_PropertyTest.class.getName(),
			Suite.E_DirtiesTest.class.getName(), Suite.F_AfterDirtiesTest.class.getName(),
			Suite.G_PlainSpringTest.class.getName(), Suite.H_FailingTest.class.getName() };

	@TempDir
	Path project;

	@Test
	void aGradleWorkersContextsAreTimedExplainedAndReportedUnderBuild() throws Exception {
		Files.writeString(this.project.resolve("build.gradle"), "plugins { id 'java' }\n");
		ChildJvm.Result run = ChildJvm.run(this.project, Map.of("org.gradle.test.worker", "1", "fixture.fail", "true"),
				Map.of(), WorkerRun.class.getName(), SUITE);
		assertThat(run.output()).contains("tests run: ");
		Path json = this.project.resolve("build/startup-test-report.json");
		assertThat(json).as(run.output()).exists();
		assertThat(this.project.resolve("build/startup-test-report.html")).exists();
		TestReport report = TestReportJson.read(Files.readString(json, StandardCharsets.UTF_8));
		List<TestContextReport> contexts = report.contexts();
		// A and B (and B's @Nested class) share #1; C, D, F (after E dirtied #1), G (plain) and H (failing) are new
		assertThat(contexts).extracting(TestContextReport::number).containsExactly(1, 2, 3, 4, 5, 6);
		TestContextReport base = contexts.get(0);
		assertThat(base.creator()).isEqualTo("Suite.A_BaseTest");
		assertThat(base.testClasses()).containsExactlyInAnyOrder("Suite.A_BaseTest", "Suite.B_SameAsBaseTest",
				"Suite.B_SameAsBaseTest.Inner", "Suite.E_DirtiesTest");
		assertThat(base.why().firstInJvm()).isTrue();
		assertThat(base.closedBy()).isEqualTo("@DirtiesContext in Suite.E_DirtiesTest");
		assertThat(base.timeline().stages()).extracting((stage) -> stage.name())
			.startsWith("environment_prepared")
			.endsWith("application_ready")
			.doesNotContain("main_start");
		assertThat(base.timeline().steps().toString()).contains("catalogue");
		// named alike in every JVM: here as in the worker
		assertThat(base.name()).isEqualTo(ContextFactsTest.facts(Suite.A_BaseTest.class).name());
		TestContextReport mocked = contexts.get(1);
		assertThat(mocked.name()).isEqualTo(ContextFactsTest.facts(Suite.C_MockedTest.class).name());
		assertThat(mocked.testClasses()).containsExactly("Suite.C_MockedTest");
		assertThat(mocked.name()).startsWith("DemoApp · @MockitoBean DemoApp.GreetingService #");
		assertThat(mocked.why().text()).isEqualTo("differs from #1 (Suite.A_BaseTest) in bean overrides");
		assertThat(mocked.why().differences()).singleElement()
			.satisfies((difference) -> assertThat(difference.text())
				.isEqualTo("bean overrides: + @MockitoBean DemoApp.GreetingService (field greetings)"));
		assertThat(mocked.why().hint()).contains("base class");
		assertThat(contexts.get(2).why().differences()).singleElement()
			.satisfies((difference) -> assertThat(difference.text()).isEqualTo("properties: + demo.flag=on"));
		TestContextReport again = contexts.get(3);
		assertThat(again.testClasses()).containsExactly("Suite.F_AfterDirtiesTest");
		assertThat(again.name()).isEqualTo(base.name() + " (again, #2)");
		assertThat(again.why().sameAs()).isEqualTo(1);
		assertThat(again.why().text()).contains("which was closed by @DirtiesContext in Suite.E_DirtiesTest");
		TestContextReport plain = contexts.get(4);
		assertThat(plain.boot()).isFalse();
		assertThat(plain.name()).startsWith("Suite.G_PlainSpringTest.Config #");
		assertThat(plain.timeline().stages()).extracting((stage) -> stage.name()).containsExactly("context_refreshed");
		TestContextReport failed = contexts.get(5);
		assertThat(failed.ready()).isFalse();
		assertThat(failed.error()).contains("broken on purpose");
		assertThat(report.causes()).extracting(TestReport.Cause::text)
			.contains("bean overrides: + @MockitoBean DemoApp.GreetingService (field greetings)",
					"properties: + demo.flag=on", "created again after @DirtiesContext in Suite.E_DirtiesTest");
		// the console summary, printed when the launcher session closed
		assertThat(run.output()).contains("[startup-telemetry] Test contexts: 6 created in this JVM")
			.contains("new: differs from #1 (Suite.A_BaseTest) in bean overrides")
			.contains("report: " + this.project.resolve("build/startup-test-report.html"));
		// Spring's own count of contexts it loaded: ours split none (its last statistics line, at DEBUG)
		Matcher misses = Pattern.compile("missCount = (\\d+)").matcher(run.output());
		String last = null;
		while (misses.find()) {
			last = misses.group(1);
		}
		assertThat(last).isEqualTo("6");
	}

}
