package io.github.startuptelemetry.report.render;

import io.github.startuptelemetry.report.JsonReport;
import io.github.startuptelemetry.report.JvmCacheComparison;
import io.github.startuptelemetry.report.JvmCacheReport;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.report.JvmCacheComparison.Kind;
import io.github.startuptelemetry.report.JvmCacheComparison.Metric;
import io.github.startuptelemetry.report.JvmCacheRounds;
import io.github.startuptelemetry.report.JvmCacheRounds.Round;
import io.github.startuptelemetry.report.JvmCacheReport.ServerCache;
import io.github.startuptelemetry.report.JvmCacheReport.Training;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.Stage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** What the JVM caches did, compared pair by pair and said in the console, the HTML page and the JSON report. */
class JvmCacheReportTest {

	private static final long S = 1_000_000_000L;

	private static final long MS = 1_000_000L;

	private static final long T0 = 1_700_000_000L * S;

	@Test
	void theComparisonIsTheMedianOfThePairedDifferencesWithTheirSpread() {
		// round 3 ran on a loaded machine: both of its starts slow, the difference as usual
		List<Round> rounds = List.of(round(1, false, 5000, 3000, 0.13, 0.9), round(2, true, 5200, 3300, 0.13, 0.9),
				round(3, false, 9000, 7100, 0.13, 0.9));

		JvmCacheComparison comparison = JvmCacheRounds.compare(rounds, 3);

		assertThat(comparison.completedRounds()).isEqualTo(3);
		assertThat(comparison.servers()).containsExactly("a");
		Metric spawnToReady = comparison.server("a").get(0);
		assertThat(spawnToReady.kind()).isEqualTo(Kind.SERVER);
		assertThat(spawnToReady.medianWithout()).isEqualTo(5200);
		assertThat(spawnToReady.medianWith()).isEqualTo(3300);
		assertThat(spawnToReady.medianDelta()).as("-2000, -1900, -1900").isEqualTo(-1900);
		assertThat(spawnToReady.minDelta()).isEqualTo(-2000);
		assertThat(spawnToReady.maxDelta()).isEqualTo(-1900);
		assertThat(spawnToReady.relativeDelta()).isCloseTo(-1900.0 / 5200, within(1e-9));
		assertThat(comparison.server("a")).extracting(Metric::name)
			.containsExactly("spawn→ready", "cpu", "classes from a cache", "main_start", "beans_instantiated");
		Metric share = comparison.server("a").get(2);
		assertThat(share.medianWithout()).isCloseTo(13, within(1e-9));
		assertThat(share.medianDelta()).isCloseTo(77, within(1e-9));
		assertThat(comparison.movedMost("a")).hasValueSatisfying((stage) -> assertThat(stage.name())
			.isEqualTo("beans_instantiated"));
	}

	@Test
	void serversAreShownInTheOrderGivenNotInTheirSpawnOrder() {
		StartupReport bThenA = new StartupReport(null, T0, T0 + 6 * S, StartupOutcome.READY, null, List.of(),
				List.of(row("b", 5000, 1000, 0.5, StartupOutcome.READY), row("a", 5000, 1000, 0.5, StartupOutcome.READY)));
		List<Round> rounds = List.of(new Round(1, false, bThenA, bThenA));

		assertThat(JvmCacheRounds.compare(rounds, 1).servers()).containsExactly("b", "a");
		assertThat(JvmCacheRounds.compare(rounds, 1, List.of("a", "b")).servers()).containsExactly("a", "b");
	}

	@Test
	void aRoundWhereAStartFailedIsLeftOut() {
		Round failed = new Round(2, true, report(4000, 100, 0.1, StartupOutcome.TIMEOUT), report(3000, 100, 0.9,
				StartupOutcome.READY));

		JvmCacheComparison comparison = JvmCacheRounds.compare(List.of(round(1, false, 5000, 3000, 0.1, 0.9), failed), 2);

		assertThat(comparison.completedRounds()).isEqualTo(1);
		assertThat(comparison.roundsText()).isEqualTo("1 of 2 rounds");
		assertThat(comparison.server("a").get(0).pairs()).hasSize(1);
		assertThat(JvmCacheRounds.compare(List.of(failed), 1).text()).contains("no round completed");
	}

	@Test
	void theConsoleSaysPerServerWhetherItsCacheWasUsedWhyNotTheClassShareTheTrainingsAndTheComparison() {
		String text = ConsoleReport.render(report(cacheReport(true)));

		assertThat(text).contains("JVM caches (compare, /var/cache/jvm):")
			.contains("trained a, b in 12.5 s (JDK 17.0.15+6 (Debian); a training start, not counted as the fleet's "
					+ "startup): AppCDS archive app.jsa, 71 MB in all")
			.containsPattern("a  used: AppCDS archive, JDK 17.0.15\\+6 \\(Debian\\); classes from a cache 8,253 of "
					+ "8,871 \\(93%\\)")
			.containsPattern("b  not used: stale \\(server.jar changed since its cache was trained\\)")
			.contains("JVM caches compared over 3 rounds")
			.containsPattern("\\n  a  spawn→ready +5.2 s → +3.3 s  -1.9 s \\(-37%\\) +\\[-2.0 s … -1.9 s\\]")
			.containsPattern("\\n {5}classes from a cache +13% → +93%  \\+80 pts +\\[\\+80 pts … \\+80 pts\\]")
			.contains("stage that moved most: beans_instantiated");
	}

	@Test
	void theHtmlPageHasABeforeAfterRowPerServerAndStageAndEachServersCache() {
		Document page = Jsoup.parse(HtmlReport.render(report(cacheReport(true))));

		Element section = page.selectFirst("section.jvm-cache");
		assertThat(section).isNotNull();
		assertThat(section.attr("data-mode")).isEqualTo("compare");
		assertThat(section.select("tr.cache").eachAttr("data-reason")).containsExactly("used", "stale");
		assertThat(section.select("tr.cache[data-server=a]").attr("data-class-share")).isEqualTo("0.930");
		assertThat(section.selectFirst("h2.rounds").attr("data-rounds")).isEqualTo("3");
		Element spawnToReady = section.selectFirst("tr.change[data-server=a][data-kind=server]");
		assertThat(spawnToReady.attr("data-median-delta")).isEqualTo("-1900.0");
		assertThat(spawnToReady.select(".pair i.before").attr("style")).isEqualTo("width:100.0%");
		assertThat(spawnToReady.select(".pair i.after").attr("style")).isEqualTo("width:63.5%");
		assertThat(section.select("tr.change[data-kind=stage]").eachAttr("data-name")).containsExactly("main_start",
				"beans_instantiated");
		assertThat(section.select("p.training").attr("data-trained")).isEqualTo("true");
	}

	@Test
	void theJsonReportAddsTheCachesToTheDocumentAndToEachServer() {
		Map<String, Object> document = map(JsonText.parse(JsonReport.render(report(cacheReport(true)))));

		Map<String, Object> jvmCache = map(document.get("jvmCache"));
		assertThat(jvmCache).containsEntry("mode", "compare").containsEntry("directory", "/var/cache/jvm");
		assertThat(list(jvmCache.get("trainings"))).singleElement()
			.satisfies((training) -> assertThat(map(training)).containsEntry("cacheKind", "appcds")
				.containsEntry("trained", true)
				.containsEntry("servers", List.of("a", "b")));
		Map<String, Object> comparison = map(jvmCache.get("comparison"));
		assertThat(comparison).containsEntry("completedRounds", 3L);
		Map<String, Object> server = map(list(comparison.get("servers")).get(0));
		assertThat(server).containsEntry("name", "a").containsEntry("movedMost", "beans_instantiated");
		Map<String, Object> metric = map(list(server.get("metrics")).get(0));
		assertThat(metric).containsEntry("metric", "server").containsEntry("unit", "ms").containsEntry("medianDelta", -1900.0);
		assertThat(list(metric.get("pairs"))).hasSize(3);
		Map<String, Object> a = map(list(document.get("servers")).get(0));
		assertThat(map(a.get("jvmCache"))).containsEntry("used", true)
			.containsEntry("sharedClasses", 8253L)
			.containsEntry("loadedClasses", 8871L);
		Map<String, Object> b = map(list(document.get("servers")).get(1));
		assertThat(map(b.get("jvmCache"))).containsEntry("used", false).containsEntry("reason", "stale");
		assertThat(JsonReport.render(report(null))).doesNotContain("jvmCache");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> map(Object json) {
		return (Map<String, Object>) json;
	}

	private static List<?> list(Object json) {
		return (List<?>) json;
	}

	private static JvmCacheReport cacheReport(boolean compared) {
		JvmCacheComparison comparison = compared ? JvmCacheRounds.compare(List.of(round(1, false, 5000, 3000, 0.13, 0.93),
				round(2, true, 5200, 3300, 0.13, 0.93), round(3, false, 9000, 7100, 0.13, 0.93)), 3) : null;
		return new JvmCacheReport("compare", "/var/cache/jvm",
				List.of(new Training(List.of("a", "b"), "appcds", "17.0.15+6 (Debian)", "/apps/server.jar", true,
						"AppCDS archive app.jsa, 71 MB in all", 12_500, 71L << 20, "/var/cache/jvm/server-appcds17-x")),
				List.of(new ServerCache("a", JvmCacheReport.USED, null, "appcds", "17.0.15+6 (Debian)", 8253, 8871),
						new ServerCache("b", JvmCacheReport.STALE, "server.jar changed since its cache was trained",
								"appcds", "17.0.15+6 (Debian)", -1, -1)),
				comparison);
	}

	/** A ready startup of servers a and b with the caches' report. */
	private static StartupReport report(JvmCacheReport jvmCache) {
		return new StartupReport(null, T0, T0 + 6 * S, StartupOutcome.READY, null,
				List.of(new Stage("main_start", T0, T0 + S)),
				List.of(row("a", 5000, 1000, 0.9, StartupOutcome.READY), row("b", 5500, 1000, 0.1, StartupOutcome.READY)),
				null, null, jvmCache);
	}

	/** A round with server a: spawn→ready without and with, beans_instantiated the rest after main_start's 1 s. */
	private static Round round(int number, boolean withFirst, long withoutMs, long withMs, double shareWithout,
			double shareWith) {
		return new Round(number, withFirst, report(withoutMs, 1000, shareWithout, StartupOutcome.READY),
				report(withMs, 600, shareWith, StartupOutcome.READY));
	}

	private static StartupReport report(long spawnToReadyMs, long mainStartMs, double share, String outcome) {
		ServerReport a = row("a", spawnToReadyMs, mainStartMs, share, outcome);
		JvmCacheReport cache = new JvmCacheReport("compare", null, List.of(),
				List.of(new ServerCache("a", JvmCacheReport.USED, null, "appcds", null, Math.round(share * 10_000),
						10_000)),
				null);
		return new StartupReport(null, T0, T0 + spawnToReadyMs * MS, outcome, null, List.of(), List.of(a), null, null,
				cache);
	}

	private static ServerReport row(String name, long spawnToReadyMs, long mainStartMs, double cpuShare,
			String outcome) {
		long end = T0 + spawnToReadyMs * MS;
		List<Stage> stages = new ArrayList<>();
		stages.add(new Stage("main_start", T0, T0 + mainStartMs * MS,
				new JvmCounters((long) (cpuShare * mainStartMs * MS), 0, 0, 0, 100)));
		stages.add(new Stage("beans_instantiated", T0 + mainStartMs * MS, end,
				new JvmCounters((long) (cpuShare * (spawnToReadyMs - mainStartMs) * MS), 0, 0, 0, 100)));
		return ServerReport.of(name, null, T0, end, outcome).withTimeline(TestTimelines.of(stages, end, List.of()));
	}

}
