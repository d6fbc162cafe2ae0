package io.github.startuptelemetry.testcontexts.internal;

import java.util.List;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The test report's page, read as a browser's parser reads it. */
class TestReportHtmlTest {

	@Test
	void aRowPerJvmAndContextWithWhyEachWasNew() {
		Document page = Jsoup.parse(TestReportHtml.render(TestReport.merge(List.of(Reports.jvm(100, 0)))));
		assertThat(page.select("header.summary").attr("data-contexts")).isEqualTo("2");
		assertThat(page.select("header .verdict").text())
			.isEqualTo("1 more than one per test JVM: 780 ms of startup, most for bean overrides: + @MockitoBean"
					+ " GreetingService (field greetings).");
		assertThat(page.select("[data-row=jvm]")).hasSize(1);
		assertThat(page.select("[data-row=context]")).extracting((row) -> row.attr("data-context"))
			.containsExactly(Reports.BASE, Reports.MOCKED);
		assertThat(page.select("[data-row=context][data-number=2] .bar[data-stage]"))
			.extracting((bar) -> bar.attr("data-stage"))
			.containsExactly("environment_prepared", "context_prepared", "beans_instantiated", "application_ready");
		assertThat(page.select("[data-row=bean]")).extracting((row) -> row.text()).allMatch((text) -> text.contains("catalogue"));
		assertThat(page.select("section.why li[data-context=\"" + Reports.MOCKED + "\"]").text())
			.contains("used by CTest: differs from #1 (ATest) in bean overrides")
			.contains("declare them in a shared base class");
	}

	@Test
	void namesAndTextsAreEscaped() {
		TestReport report = Reports.jvm(100, 0);
		TestContextReport hostile = Reports.context("<script>alert(1)</script>", 3, 100, Reports.T0 + 9_000 * Reports.MS,
				100, Why.first(), List.of("\"quoted\""));
		TestReport withHostile = new TestReport(report.runId(), report.host(), report.jvms(),
				List.of(report.contexts().get(0), hostile));
		Document page = Jsoup.parse(TestReportHtml.render(withHostile));
		assertThat(page.select("script")).isEmpty();
		assertThat(page.select("[data-row=context][data-number=3]").attr("data-context")).isEqualTo("<script>alert(1)</script>");
	}

}
