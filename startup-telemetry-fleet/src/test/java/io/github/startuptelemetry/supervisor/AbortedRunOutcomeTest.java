package io.github.startuptelemetry.supervisor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.StaticListableBeanFactory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.timeline.internal.StageTimeline;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.tracing.internal.StartupSpans;
import io.github.startuptelemetry.export.internal.StartupHistograms;
import io.github.startuptelemetry.report.render.ConsoleReport;
import io.github.startuptelemetry.report.render.HtmlReport;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.report.StartupReportBuilder;
import io.github.startuptelemetry.supervisor.OpenTelemetrySupervisorStartup;
import io.github.startuptelemetry.supervisor.SupervisorStartup;
import io.github.startuptelemetry.supervisor.SupervisorStartupMetrics;

/**
 * A run aborted by a crash, with one server ready, one that crashed and one still starting:
 * its span, its metric, the console table and the HTML waterfall give each server the same
 * outcome.
 */
class AbortedRunOutcomeTest {

	private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

	private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
		.setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(this.exporter)).build())
		.build();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@AfterEach
	void closeSdk() {
		this.sdk.close();
	}

	@Test
	void everyServerOfAnAbortedRunHasOneOutcomeInTheSpanTheMetricTheConsoleAndTheHtml() {
		MeterRegistry registry = this.registry;
		SupervisorStartup startup = new OpenTelemetrySupervisorStartup(this.sdk,
				new StageTimeline(WallClock.nowNs() - 1_000_000_000L), null, Map.of(),
				List.of(new SupervisorStartupMetrics(new StartupHistograms(() -> registry, () -> null))), true);
		startup.beginTrace();
		startup.serverEnv("ready-0", "model", 0, 3);
		startup.serverEnv("crasher", "model", 1, 3);
		startup.serverEnv("starting", "model", 2, 3);
		startup.mark("spawn_servers");
		startup.serverReady("ready-0");
		startup.abort("crashed", new IllegalStateException("Server 'crasher' exited with code 3 before it was ready"));
		StartupReport report = StartupReportBuilder.from(startup.report().orElseThrow())
			.exited("crasher", 3)
			.exited("ready-0", 143)
			.build();

		Map<String, String> console = consoleOutcomes(ConsoleReport.render(report));
		Document html = Jsoup.parse(HtmlReport.render(report));

		assertThat(console).containsExactly(Map.entry("ready-0", "ready"), Map.entry("crasher", "crashed (exit 3)"),
				Map.entry("starting", "crashed (stopped)"));
		Map<String, String> words = Map.of("ready-0", "ready", "crasher", "crashed", "starting", "crashed");
		words.forEach((server, word) -> {
			assertThat(report.servers().stream().filter((row) -> row.name().equals(server)).findFirst().orElseThrow().outcome())
				.as(server)
				.isEqualTo(word);
			assertThat(console.get(server)).as(server).startsWith(word);
			Element row = html.selectFirst(".row.server[data-server=" + server + "]");
			assertThat(row.attr("data-outcome")).as(server).isEqualTo(word);
			assertThat(row.selectFirst(".badge").text()).as("%s's badge says what its console cell says", server)
				.isEqualTo(console.get(server));
			assertThat(row.selectFirst(".badge").attr("title")).as(server).isEqualTo("outcome " + console.get(server));
			assertThat(this.exporter.getFinishedSpanItems()
				.stream()
				.filter((span) -> span.getName().equals(SpanNames.SUPERVISOR_SERVER))
				.filter((span) -> server.equals(span.getAttributes().get(StartupSpans.SERVER_NAME)))
				.map((span) -> span.getAttributes().get(StartupSpans.OUTCOME))).as(server).containsExactly(word);
			assertThat(this.registry.find(MetricNames.STARTUP_DURATION)
				.tag(SpanAttributes.SERVER_NAME, server)
				.summaries()
				.stream()
				.map((summary) -> summary.getId().getTag(SpanAttributes.OUTCOME))).as(server).containsExactly(word);
		});
		assertThat(html.selectFirst(".row.server[data-server=starting] .badge").text()).isEqualTo("crashed (stopped)");
		assertThat(html.selectFirst(".row.server[data-server=starting] .note").text()).isEqualTo("another server crashed");
	}

	/** Each server's outcome cell, the table's last column. */
	private static Map<String, String> consoleOutcomes(String console) {
		Map<String, String> outcomes = new LinkedHashMap<>();
		for (String line : console.lines().toList()) {
			String[] cells = line.split(" {2,}");
			if (cells.length > 3 && List.of("ready-0", "crasher", "starting").contains(cells[0])) {
				outcomes.put(cells[0], cells[cells.length - 1]);
			}
		}
		return outcomes;
	}

}
