package io.github.startuptelemetry.report.render;

import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

import static org.assertj.core.api.Assertions.assertThat;

/** The HTML waterfall, read back with an HTML5 parser as a browser would. */
class HtmlReportTest {

	private static final long S = 1_000_000_000L;

	private static final long MS = 1_000_000L;

	private static final long T0 = 1_700_000_000L * S;

	private static final List<Stage> SUPERVISOR = List.of(new Stage("main_start", T0, T0 + 400 * MS),
			new Stage("application_ready", T0 + 400 * MS, T0 + S), new Stage("spawn_servers", T0 + S, T0 + 1100 * MS),
			new Stage("wait_for_servers", T0 + 1100 * MS, T0 + 6200 * MS));

	@Test
	void everyServerAndTheSupervisorGetARowWithOneBarPerStageColouredByName() {
		Document page = parse(readyReport());

		Elements rows = page.select(".row[data-row]:not([data-row=bean])");
		assertThat(rows.eachAttr("data-server")).containsExactly("supervisor", "model-0", "model-1", "legacy");
		assertThat(bars(row(page, "supervisor"))).containsExactly("main_start", "application_ready", "spawn_servers",
				"wait_for_servers");
		assertThat(bars(row(page, "model-0"))).containsExactly("main_start", "beans_instantiated", "application_ready");
		assertThat(bars(row(page, "model-1"))).containsExactly("main_start", "beans_instantiated", "application_ready");
		assertThat(row(page, "legacy").select(".bar[data-stage]")).isEmpty();
		assertThat(row(page, "legacy").select(".bar.opaque").attr("title"))
			.isEqualTo("legacy · ready (no stages reported)\nstarts +1.0 s (0.0 ms after spawn)\ntakes 1.0 s");
		for (String stage : List.of("main_start", "beans_instantiated", "application_ready")) {
			assertThat(page.select(".bar[data-stage=" + stage + "]").eachAttr("style").stream().map(HtmlReportTest::color)
				.distinct()).as(stage).hasSize(1);
		}
		assertThat(color(bar(row(page, "model-0"), "main_start").attr("style")))
			.isNotEqualTo(color(bar(row(page, "model-0"), "beans_instantiated").attr("style")));
		assertThat(page.select(".legend .key").eachText()).startsWith("main_start", "beans_instantiated",
				"application_ready", "spawn_servers", "wait_for_servers");
	}

	@Test
	void barsArePlacedOnOneAxisFromTheSupervisorsStart() {
		Document page = parse(readyReport());

		// 6.2 s on an axis of 7 s, a tick every second
		assertThat(page.select(".axis .tick").eachText()).containsExactly("0 s", "1 s", "2 s", "3 s", "4 s", "5 s",
				"6 s", "7 s");
		assertThat(page.select(".axis .tick[style*=hidden]").eachText()).as("under the end marker's label")
			.containsExactly("6 s");
		assertThat(position(bar(row(page, "supervisor"), "main_start"))).containsExactly(0.0, round(400 / 70.0));
		assertThat(position(bar(row(page, "model-1"), "beans_instantiated"))).containsExactly(round(2300 / 70.0),
				round(3896 / 70.0));
		assertThat(page.select(".end").attr("style")).contains("--at:0.88571");
		assertThat(page.select(".end").text()).isEqualTo("all ready 6.2 s");
	}

	@Test
	void aRowSaysHowLongThePlatformHeldTheServerBack() {
		StartupReport report = new StartupReport(null, T0, T0 + 2 * S, "ready", null, SUPERVISOR,
				List.of(ServerReport.of("model-0", "model", T0 + S, T0 + 2 * S, "ready").withQueuedNs(340 * MS),
						ServerReport.of("resources", "resources", T0 + S, T0 + 2 * S, "ready")));
		Document page = parse(report);

		assertThat(row(page, "model-0").text()).contains("queued 340 ms");
		assertThat(row(page, "resources").text()).doesNotContain("queued");
	}

	@Test
	void hoveringABarTellsItsNameStageStartAndDuration() {
		Document page = parse(readyReport());

		assertThat(bar(row(page, "model-1"), "beans_instantiated").attr("title"))
			.isEqualTo("model-1 · beans_instantiated\nstarts +2.3 s (1.3 s after spawn)\ntakes 3.9 s (75% of spawn→ready)");
		assertThat(bar(row(page, "supervisor"), "spawn_servers").attr("title")).startsWith("supervisor · spawn_servers\n")
			.contains("starts +1.0 s", "takes 100 ms");
	}

	@Test
	void theServerThatHeldAllReadyBackAndItsSlowestStageAreMarked() {
		Document page = parse(readyReport());

		assertThat(page.select(".row.critical").eachAttr("data-server")).containsExactly("model-1");
		assertThat(row(page, "model-1").select(".note").text()).isEqualTo("held back all ready");
		Elements slowest = page.select(".bar.slowest");
		assertThat(slowest).hasSize(1);
		assertThat(slowest.attr("data-stage")).isEqualTo("beans_instantiated");
		assertThat(slowest.first().closest(".row").attr("data-server")).isEqualTo("model-1");
		assertThat(page.select(".verdict").text())
			.isEqualTo("All ready at 6.2 s, held back by model-1: its slowest stage beans_instantiated took 3.9 s"
					+ " (75% of its spawn→ready).");
		assertThat(page.title()).startsWith("Startup ready in 6.2 s");
	}

	@Test
	void theProbeLagIsDrawnFromTheServersOwnReadyToTheSupervisorNoticingIt() {
		Document page = parse(readyReport());

		Element lag = row(page, "model-0").selectFirst(".bar.lag");
		assertThat(lag.attr("title")).startsWith("model-0 · probe lag 12 ms\nready at +4.0 s");
		assertThat(position(lag)).containsExactly(round(3988 / 70.0), round(12 / 70.0));
		assertThat(row(page, "model-0").select(".stats b").text()).isEqualTo("3.0 s");
		assertThat(row(page, "model-0").select(".stats small").text()).isEqualTo("probe lag 12 ms");
		assertThat(row(page, "legacy").select(".bar.lag")).isEmpty();
	}

	@Test
	void aCrashedStartupFlagsTheServerThatExitedAndShowsTheError() {
		ServerReport ready = ServerReport.of("model-0", "model", T0 + S, T0 + 2 * S, "ready")
			.withTimeline(TestTimelines.of(List.of(new Stage("main_start", T0 + S, T0 + 2 * S - 5 * MS)), T0 + 2 * S - 5 * MS, List.of()));
		ServerReport crasher = ServerReport.of("crasher", "tool", T0 + S, T0 + 3 * S, "crashed").withExitCode(3);
		ServerReport slow = ServerReport.of("slow", "model", T0 + S, T0 + 3 * S, "crashed");
		StartupReport report = new StartupReport("abc", T0, T0 + 3 * S, "crashed",
				"Server 'crasher' exited with code 3 before it was ready; last lines:\nboom",
				List.of(new Stage("main_start", T0, T0 + S), new Stage("unfinished", T0 + S, T0 + 3 * S)),
				List.of(ready, crasher, slow));

		Document page = parse(report);

		assertThat(page.select("header.summary.bad h1").text()).isEqualTo("crashed Startup crashed after 3.0 s");
		assertThat(page.select(".verdict").text())
			.isEqualTo("crasher exited with code 3 after 2.0 s, before it was ready; the others were stopped.");
		assertThat(page.select("pre.error").text()).contains("exited with code 3", "boom");
		Element crashed = row(page, "crasher");
		assertThat(crashed.classNames()).contains("bad");
		assertThat(crashed.attr("data-outcome")).isEqualTo("crashed");
		assertThat(crashed.select(".badge").text()).isEqualTo("crashed (exit 3)");
		assertThat(crashed.select(".note").text()).isEqualTo("exited before it was ready");
		assertThat(crashed.select(".bar.failed").attr("title")).startsWith("crasher · exited with code 3 before it was ready");
		Element stopped = row(page, "slow");
		assertThat(stopped.classNames()).contains("muted").doesNotContain("bad");
		assertThat(stopped.select(".badge").text()).as("the console's outcome column says the same")
			.isEqualTo("crashed (stopped)");
		String console = ConsoleReport.render(report);
		for (ServerReport server : report.servers()) {
			String badge = row(page, server.name()).select(".badge").text();
			assertThat(console.lines().filter((line) -> line.startsWith(server.name() + " ")))
				.as("%s's console row ends with its badge's words", server.name())
				.singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
				.endsWith("  " + badge);
		}
		assertThat(stopped.select(".note").text()).isEqualTo("another server crashed");
		assertThat(stopped.select(".bar.stopped").attr("title"))
			.startsWith("slow · still starting when another server crashed; stopped");
		assertThat(row(page, "model-0").classNames()).doesNotContain("bad", "muted", "critical");
		assertThat(page.select(".critical, .slowest")).isEmpty();
		assertThat(bars(row(page, "supervisor"))).containsExactly("main_start", "unfinished");
		assertThat(page.select(".end.bad").text()).isEqualTo("crashed 3.0 s");
	}

	@Test
	void aTimedOutStartupFlagsEveryServerThatWasNotReady() {
		StartupReport report = new StartupReport(null, T0, T0 + 5 * S, "timeout", "Not ready after 5000 ms: stuck",
				List.of(new Stage("unfinished", T0, T0 + 5 * S)),
				List.of(ServerReport.of("stuck", null, T0, T0 + 5 * S, "timeout")));

		Document page = parse(report);

		assertThat(row(page, "stuck").classNames()).contains("bad");
		assertThat(row(page, "stuck").select(".badge").text()).isEqualTo("timeout");
		assertThat(row(page, "stuck").select(".note").text()).isEqualTo("not ready at the timeout");
		assertThat(page.select(".verdict").text()).isEqualTo("The ready timeout passed. Not ready yet: stuck.");
		assertThat(page.select(".meta").text()).isEqualTo("1 server");
	}

	@Test
	void slowBeansAreRowsUnderTheirServerColouredByTheirStage() {
		StepTiming inner = TestTimelines.bean("tokenizer", "com.example.Tokenizer", T0 + 2500 * MS, T0 + 2900 * MS,
				List.of());
		StepTiming outer = TestTimelines.bean("modelLoader", "com.example.ModelLoader", T0 + 2400 * MS, T0 + 3800 * MS,
				List.of(inner));
		StartupReport report = withRow(readyReport(), "model-1",
				(row) -> row.withTimeline(TestTimelines.of(row.stages(), row.serverReadyNs().getAsLong(), List.of(outer))));

		Document page = parse(report);

		Elements beans = page.select(".row.bean");
		assertThat(beans.eachAttr("data-server")).containsExactly("model-1", "model-1");
		assertThat(beans.select(".label").eachText()).containsExactly("↳ modelLoader", "↳ tokenizer");
		assertThat(beans.first().previousElementSibling().attr("data-server")).isEqualTo("model-1");
		assertThat(beans.select(".bar.bean").eachAttr("data-stage")).containsOnly("beans_instantiated");
		assertThat(beans.select(".bar.bean").first().attr("title")).startsWith(
				"model-1 · beans_instantiated · bean modelLoader\ncom.example.ModelLoader\nstarts +2.4 s (1.4 s after spawn)\ntakes 1.4 s");
		assertThat(beans.last().select(".label").attr("style")).isEqualTo("padding-left:40px");
		assertThat(parse(readyReport()).select(".row.bean")).isEmpty();
	}

	@Test
	void beanLabelsAndTypesAreEscaped() {
		// a server's timeline arrives over the network: its bean names and types are not trusted
		String label = "<img src=x onerror=alert(1)>&'";
		String type = "\"><script>alert('b')</script>";
		StepTiming bean = TestTimelines.bean(label, type, T0 + 2400 * MS, T0 + 3800 * MS, List.of());
		StartupReport report = withRow(readyReport(), "model-1",
				(row) -> row.withTimeline(TestTimelines.of(row.stages(), row.serverReadyNs().getAsLong(), List.of(bean))));

		String html = HtmlReport.render(report);
		Document page = Jsoup.parse(html);

		assertThat(html).doesNotContain("<img", "<script");
		assertThat(page.select("img, script, [onerror]")).isEmpty();
		Element row = page.selectFirst(".row.bean");
		assertThat(row.select(".label").text()).isEqualTo("↳ " + label);
		assertThat(row.select(".label").attr("title")).isEqualTo(type);
		assertThat(row.select(".bar.bean").attr("title")).contains("bean " + label + "\n" + type + "\n");
	}

	@Test
	void namesTypesAndErrorsAreEscapedEverywhere() {
		String name = "<img src=x onerror=alert(1)>&\"'";
		String type = "\"><script>alert('t')</script>";
		String error = "</pre><script>alert('e')</script> & more";
		StartupReport report = new StartupReport("abc", T0, T0 + 2 * S, "crashed", error,
				List.of(new Stage("<b>stage</b>", T0, T0 + 2 * S)),
				List.of(ServerReport.of(name, type, T0, T0 + 2 * S, "crashed").withExitCode(1)));

		String html = HtmlReport.render(report);
		Document page = Jsoup.parse(html);

		assertThat(html).doesNotContain("<img", "<script", "<b>stage");
		assertThat(page.select("img, script, [onerror]")).isEmpty();
		Element row = page.selectFirst(".row[data-row=server]");
		assertThat(row.attr("data-server")).isEqualTo(name);
		assertThat(row.select(".name").text()).isEqualTo(name);
		assertThat(row.select(".name").attr("title")).isEqualTo(name);
		assertThat(row.select(".type").text()).isEqualTo(type);
		assertThat(page.select("pre.error").text()).isEqualTo(error);
		assertThat(page.select(".bar[data-stage]").attr("data-stage")).isEqualTo("<b>stage</b>");
		assertThat(page.select(".verdict .who").text()).isEqualTo(name);
		assertThat(page.select(".verdict").text()).as("no others to stop")
			.isEqualTo(name + " exited with code 1 after 2.0 s, before it was ready.");
	}

	@Test
	void thePageFetchesNothing() {
		String error = "Not ready after 5000 ms: probed http://127.0.0.1:8080/actuator/health and https://x.example/";
		StartupReport report = new StartupReport("abc", T0, T0 + 5 * S, "timeout", error,
				List.of(new Stage("unfinished", T0, T0 + 5 * S)),
				List.of(ServerReport.of("https://evil.example/x.js", null, T0, T0 + 5 * S, "timeout")));

		String html = HtmlReport.render(report);
		Document page = Jsoup.parse(html);

		assertThat(html).doesNotContainIgnoringCase("<script").doesNotContainIgnoringCase("<link")
			.doesNotContainIgnoringCase("<iframe").doesNotContainIgnoringCase("<img")
			.doesNotContain("url(").doesNotContain("@import");
		assertThat(page.select("[src], [href], [srcset], [action]")).isEmpty();
		assertThat(page.select("pre.error").text()).contains("http://127.0.0.1:8080/actuator/health");
		// with every text (content, tooltips, data attributes) gone, no URL is left
		for (Element element : page.getAllElements()) {
			element.textNodes().forEach(TextNode::remove);
			element.attributes()
				.asList()
				.stream()
				.map(Attribute::getKey)
				.filter((key) -> key.equals("title") || key.startsWith("data-"))
				.toList()
				.forEach(element::removeAttr);
		}
		assertThat(page.outerHtml()).doesNotContain("http://", "https://", "//");
	}

	@Test
	void aStageWithCountersSaysThemInItsTooltipAndDrawsItsCpuShareAWaitingOneLooksDifferent() {
		ServerReport server = ServerReport.of("model-0", "model", T0 + S, T0 + 4 * S, "ready")
			.withTimeline(TestTimelines.of(List.of(
					new Stage("main_start", T0 + S, T0 + 2 * S, new JvmCounters(1_600 * MS, 2, 1, 300, 2_500)),
					new Stage("beans_instantiated", T0 + 2 * S, T0 + 4 * S, new JvmCounters(100 * MS, 0, 0, 10, 40))),
					T0 + 4 * S, List.of()));
		StartupReport report = new StartupReport(null, T0, T0 + 4 * S, "ready", null, SUPERVISOR.subList(0, 2),
				List.of(server));

		Document page = parse(report);

		Element busy = bar(row(page, "model-0"), "main_start");
		assertThat(busy.attr("title")).contains("CPU 1.6 s / wall 1.0 s (1.6×, all threads)", "GC 1 collection, 2 ms",
				"JIT 300 ms", "2,500 classes loaded");
		assertThat(busy.classNames()).doesNotContain("waiting");
		assertThat(busy.select("i.cpu").attr("style")).isEqualTo("width:100.0%");
		Element waiting = bar(row(page, "model-0"), "beans_instantiated");
		assertThat(waiting.classNames()).contains("waiting");
		assertThat(waiting.select("i.cpu").attr("style")).isEqualTo("width:5.0%");
		assertThat(bar(row(page, "supervisor"), "main_start").select("i.cpu")).isEmpty();
		assertThat(page.select(".row.unattributed[data-server=model-0] .stats").text()).isEqualTo("2.0 s");
	}

	@Test
	void aStartupWithoutServersStillRenders() {
		StartupReport report = new StartupReport(null, T0, T0 + S, "ready", null, SUPERVISOR.subList(0, 2), List.of());

		Document page = parse(report);

		assertThat(page.select(".row[data-row]").eachAttr("data-row")).containsExactly("supervisor");
		assertThat(page.select(".verdict").text()).isEqualTo("No servers.");
		assertThat(page.select(".meta").text()).isEqualTo("0 servers");
	}

	/**
	 * Supervisor, then model-0 (ready at 4 s, noticed 12 ms later), model-1 (ready at 6.2 s: it
	 * held all ready back, beans_instantiated its slowest stage) and a server without the
	 * timeline endpoint.
	 */
	@Test
	void aLargeGroupOfReplicasIsARowOfTheirSpreadTheRowOfTheSlowestAndATableOfAllThatOpensOnAClick() {
		List<ServerReport> servers = new ArrayList<>(ReplicaFleet.replicas("model", 12, 8));
		servers.add(ServerReport.of("gateway", "gateway", T0, T0 + 3 * S, "ready"));

		Document page = parse(ReplicaFleet.ready(servers));

		assertThat(page.select(".row[data-row]:not([data-row=bean])").eachAttr("data-server"))
			.containsExactly("supervisor", "model", "model-11", "gateway");
		Element group = page.selectFirst(".row[data-row=group]");
		assertThat(group.attr("data-server")).isEqualTo("model");
		assertThat(group.select(".badge").text()).isEqualTo("12 ready");
		assertThat(group.select(".note").text()).isEqualTo("12 replicas");
		assertThat(group.select(".bar.spread").attr("title")).startsWith("12 replicas: spawn→ready 1.0 s, median 1.0 s");
		assertThat(group.select(".stats small").text()).isEqualTo("median 1.0 s · min 1.0 s");
		Element slowest = row(page, "model-11");
		assertThat(slowest.classNames()).contains("replica");
		assertThat(slowest.select(".note").text()).isEqualTo("slowest of 12 replicas");
		assertThat(bars(slowest)).hasSize(9);
		assertThat(page.select(".row.bean[data-server=model-11]")).as("its slowest beans").hasSize(6);
		assertThat(page.select(".row.bean:not([data-server=model-11]):not(.more)")).isEmpty();
		Element table = page.selectFirst("details.replicas[data-server=model]");
		assertThat(table.attr("open")).as("closed until clicked").isEmpty();
		assertThat(table.select("summary").text()).isEqualTo("All 12 replicas of model: spawn→ready and each stage");
		assertThat(table.select("tr[data-server]").eachAttr("data-server")).hasSize(12).startsWith("model-0")
			.endsWith("model-11");
		assertThat(table.select("tr[data-server=model-3] td").eachText()).containsExactly("model-3", "1.0 s", "100 ms",
				"100 ms", "100 ms", "100 ms", "301 ms", "100 ms", "100 ms", "0.0 ms", "100 ms", "ready");
	}

	@Test
	void aThousandReplicasWithTheirStagesAndSlowBeansMakeAPageOfAtMostTwoMegabytes() {
		StartupReport report = ReplicaFleet.ready(ReplicaFleet.replicas("model", 1000, 8));

		String html = HtmlReport.render(report);

		// each of them a row of bars with its beans made 10 kB a server
		assertThat(html.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThan(2_000_000);
		Document page = Jsoup.parse(html);
		assertThat(page.select(".row")).hasSizeLessThan(20);
		assertThat(page.select("details.replicas tr[data-server]")).hasSize(1000);
	}

	private static StartupReport readyReport() {
		ServerReport model0 = ServerReport.of("model-0", "model", T0 + S, T0 + 4 * S, "ready")
			.withTimeline(TestTimelines.of(List.of(new Stage("main_start", T0 + S, T0 + 2 * S),
					new Stage("beans_instantiated", T0 + 2 * S, T0 + 3900 * MS),
					new Stage("application_ready", T0 + 3900 * MS, T0 + 4 * S - 12 * MS)), T0 + 4 * S - 12 * MS,
					List.of()));
		ServerReport model1 = ServerReport.of("model-1", "model", T0 + S, T0 + 6200 * MS, "ready")
			.withTimeline(TestTimelines.of(List.of(new Stage("main_start", T0 + S, T0 + 2300 * MS),
					new Stage("beans_instantiated", T0 + 2300 * MS, T0 + 6200 * MS - 4 * MS),
					new Stage("application_ready", T0 + 6200 * MS - 4 * MS, T0 + 6200 * MS - 4 * MS)),
					T0 + 6200 * MS - 4 * MS, List.of()));
		ServerReport legacy = ServerReport.of("legacy", null, T0 + S, T0 + 2 * S, "ready");
		return new StartupReport("abc", T0, T0 + 6200 * MS, "ready", null, SUPERVISOR, List.of(model0, model1, legacy));
	}

	/** The report with one server's row changed. */
	private static StartupReport withRow(StartupReport report, String name, UnaryOperator<ServerReport> change) {
		return new StartupReport(report.traceId(), report.startNs(), report.endNs(), report.outcome(), report.error(),
				report.supervisorStages(),
				report.servers().stream().map((row) -> row.name().equals(name) ? change.apply(row) : row).toList());
	}

	private static Document parse(StartupReport report) {
		return Jsoup.parse(HtmlReport.render(report));
	}

	private static Element row(Document page, String server) {
		return page.selectFirst(".row[data-row]:not([data-row=bean])[data-server=\"" + server + "\"]");
	}

	private static Element bar(Element row, String stage) {
		return row.selectFirst(".bar[data-stage=" + stage + "]");
	}

	private static List<String> bars(Element row) {
		return row.select(".bar[data-stage]").eachAttr("data-stage");
	}

	private static String color(String style) {
		Matcher matcher = Pattern.compile("--c:(#[0-9a-f]{6})").matcher(style);
		assertThat(matcher.find()).as(style).isTrue();
		return matcher.group(1);
	}

	/** A bar's left edge and width, in percent of the axis. */
	private static List<Double> position(Element bar) {
		Matcher matcher = Pattern.compile("left:([0-9.]+)%;width:([0-9.]+)%").matcher(bar.attr("style"));
		assertThat(matcher.find()).as(bar.attr("style")).isTrue();
		return List.of(round(Double.parseDouble(matcher.group(1))), round(Double.parseDouble(matcher.group(2))));
	}

	private static double round(double percent) {
		return Math.round(percent * 1000) / 1000.0;
	}

}
