package io.github.startuptelemetry.report.render;

import io.github.startuptelemetry.report.CriticalChain;
import io.github.startuptelemetry.report.DependencyWait;
import io.github.startuptelemetry.report.JsonReport;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.report.ServerReport.DependsOn;
import io.github.startuptelemetry.report.ServerReport.Waiting;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fleet with {@code depends-on} in every report: the critical chain, each edge's wait and what
 * could have overlapped, the waits drawn, and a failed dependency's dependants never spawned.
 */
class DependencyReportTest {

	private static final long MS = 1_000_000L;

	private static final long T0 = 1_700_000_000_000L * MS;

	private static final List<Stage> SUPERVISOR = List.of(new Stage("application_ready", T0, T0 + 1000 * MS),
			new Stage("spawn_servers", T0 + 1000 * MS, T0 + 1000 * MS), new Stage("wait_for_servers", T0 + 1000 * MS,
					T0 + 10_000 * MS));

	@Test
	void theCriticalChainRunsBackFromTheLastServerReadyThroughWhatReleasedEach() {
		CriticalChain chain = CriticalChain.of(readyReport()).orElseThrow();

		assertThat(chain.allReadyAfterNs()).isEqualTo(10_000 * MS);
		assertThat(chain.links()).extracting((link) -> link.server().name()).containsExactly("config", "model-0",
				"gateway");
		assertThat(chain.links()).extracting(CriticalChain.Link::metAfterNs).containsExactly(4000 * MS, 8000 * MS,
				10_000 * MS);
		assertThat(chain.links()).extracting(CriticalChain.Link::waitedNs).containsExactly(0L, 3010 * MS, 7010 * MS);
		assertThat(chain.links().get(1).waitedFor()).map(DependsOn::name).hasValue("config");
		assertThat(chain.links().get(2).waitedFor()).map(DependsOn::name).hasValue("model");
		assertThat(readyReport().criticalPath()).map((path) -> path.server().name()).hasValue("gateway");
	}

	@Test
	void eachEdgeSaysHowLongItHeldItsDependantBackAndWhatDidNotNeedIt() {
		List<DependencyWait> waits = DependencyWait.of(readyReport());

		assertThat(waits).extracting((wait) -> wait.dependant().name() + "→" + wait.dependency().name())
			.containsExactly("model-0→download", "model-0→config", "gateway→model");
		assertThat(waits).extracting(DependencyWait::waitedNs).containsExactly(2000 * MS, 3000 * MS, 7000 * MS);
		assertThat(waits.get(0).overlap()).as("it reported no contact with download").isEmpty();
		assertThat(waits.get(1).overlap()).hasValueSatisfying((overlap) -> {
			assertThat(overlap.ns()).isEqualTo(1590 * MS);
			assertThat(overlap.upToStage()).isEqualTo("context_prepared");
			assertThat(overlap.contactStage()).isEqualTo("beans_instantiated");
			assertThat(overlap.contactNs()).isEqualTo(T0 + 5700 * MS);
		});
		assertThat(waits.get(2).overlap()).as("a contact with a replica counts for its group").isPresent();
		assertThat(waits.get(2).overlap().get().upToStage()).isNull();
		assertThat(waits.get(2).overlap().get().contactStage()).isEqualTo("main_start");
	}

	@Test
	void theConsoleReplacesHeldBackByWithTheChainAndSaysWhatCouldHaveOverlapped() {
		String console = ConsoleReport.render(readyReport());

		assertThat(console).doesNotContain("held back by")
			.contains("all ready at 10.0 s, set by the critical chain config → model-0 → gateway (@ when it met the "
					+ "condition, after the supervisor's start; + its own spawn→ready):\n"
					+ "  config   ready @4.0 s   +3.0 s                                   its slowest stage main_start 1.5 s\n"
					+ "  model-0  ready @8.0 s   +4.0 s  waited 3.0 s for config (ready)  its slowest stage beans_instantiated 1.9 s\n"
					+ "  gateway  ready @10.0 s  +2.0 s  waited 7.0 s for model (ready)   its slowest stage main_start 1.0 s\n")
			.contains("what could have overlapped (each depends-on: how long the server waited, and its own stages "
					+ "before it first contacted that dependency):\n"
					+ "  model-0 waited 2.0 s for download (completed): unknown what could have overlapped: it reported"
					+ " no first contact with download (an application step startup.dependency.download)\n"
					+ "  model-0 waited 3.0 s for config (ready): its startup up to context_prepared (1.6 s) did not need"
					+ " config and could have overlapped the wait; it first contacted config in beans_instantiated\n"
					+ "  gateway waited 7.0 s for model (ready): none of its stages ended before it first contacted"
					+ " model (in main_start): nothing could have overlapped\n");
		List<String> lines = console.lines().toList();
		assertThat(lines.get(1)).contains("spawn→ready", "waited");
		assertThat(lines.stream().filter((line) -> line.startsWith("download ")).findFirst().orElseThrow())
			.contains("  -  ", "completed");
		assertThat(lines.stream().filter((line) -> line.startsWith("gateway ")).findFirst().orElseThrow())
			.contains("2.0 s   7.0 s");
	}

	@Test
	void theJsonReportCarriesTheChainTheEdgesAndHowEachServerWaited() {
		Map<String, Object> document = map(JsonText.parse(JsonReport.render(readyReport())));

		Map<String, Object> chain = map(document.get("criticalChain"));
		assertThat(chain.get("durationMs")).isEqualTo(10_000.0);
		List<Object> links = list(chain.get("links"));
		assertThat(links).extracting((link) -> map(link).get("server")).containsExactly("config", "model-0",
				"gateway");
		assertThat(map(links.get(1))).containsEntry("condition", "ready")
			.containsEntry("metAfterMs", 8000.0)
			.containsEntry("spawnToReadyMs", 3990.0)
			.containsEntry("waitedMs", 3010.0)
			.containsEntry("waitedFor", "config")
			.containsEntry("slowestStage", "beans_instantiated");
		assertThat(document.get("criticalPath")).as("still written, for readers of the first fields").isNotNull();
		List<Object> waits = list(document.get("dependencyWaits"));
		assertThat(map(waits.get(1))).containsEntry("dependant", "model-0")
			.containsEntry("dependency", "config")
			.containsEntry("waitedMs", 3000.0)
			.containsEntry("couldOverlapMs", 1590.0)
			.containsEntry("upToStage", "context_prepared")
			.containsEntry("contactStage", "beans_instantiated");
		assertThat(map(waits.get(0))).containsEntry("couldOverlapMs", null).containsEntry("upToStage", null);
		List<Object> servers = list(document.get("servers"));
		Map<String, Object> download = map(servers.get(0));
		assertThat(download).containsEntry("oneShot", true).containsEntry("dependencies", null);
		Map<String, Object> model = map(map(servers.get(2)).get("dependencies"));
		assertThat(model).containsEntry("waitedMs", 3010.0)
			.containsEntry("spawned", true)
			.containsEntry("releasedBy", "config")
			.containsEntry("blockedBy", null);
		assertThat(list(model.get("dependsOn"))).extracting((entry) -> map(entry).get("condition"))
			.containsExactly("completed", "ready");
	}

	@Test
	void theWaterfallDrawsEachWaitHatchedAndTheChainsEdgesFromRowToRow() {
		Document page = Jsoup.parse(HtmlReport.render(readyReport()));

		assertThat(page.select(".verdict").text())
			.isEqualTo("All ready at 10.0 s, set by the critical chain config → model-0 → gateway.");
		assertThat(page.select(".row.critical").eachAttr("data-server")).containsExactly("config", "model-0", "gateway");
		assertThat(page.select(".bar.slowest")).hasSize(3);
		Element wait = row(page, "model-0").selectFirst(".bar.wait");
		assertThat(position(wait)).containsExactly(10.0, 30.1);
		assertThat(wait.attr("title")).isEqualTo("model-0 · waiting_for_dependencies\nfrom +1.0 s to +4.0 s (3.0 s)\n"
				+ "for download (completed), config (ready)\nreleased by config");
		assertThat(row(page, "config").select(".bar.wait")).isEmpty();
		assertThat(row(page, "model-0").select(".stats small").text()).startsWith("waited 3.0 s");

		List<Element> rows = page.select("main.chart > .row");
		List<Element> edges = page.select("main.chart > .edge");
		assertThat(edges).extracting((edge) -> edge.attr("data-from") + "→" + edge.attr("data-to"))
			.containsExactly("config→model-0", "model-0→gateway");
		Element first = edges.get(0);
		assertThat(first.attr("style")).contains("grid-row:" + (rows.indexOf(row(page, "config")) + 1) + " / "
				+ (rows.indexOf(row(page, "model-0")) + 2), "--at:0.40000");
		assertThat(first.attr("title")).isEqualTo("config ready at +4.0 s → model-0 spawned, after it waited 3.0 s for "
				+ "config (ready)");
		assertThat(page.select(".dependencies ol.chain li").eachAttr("data-server")).containsExactly("config",
				"model-0", "gateway");
		assertThat(page.select(".dependencies ul.overlap li").eachAttr("data-known")).containsExactly("false", "true",
				"true");
		assertThat(page.select(".legend .swatch.wait, .legend .swatch.edgeish")).hasSize(2);
		assertThat(page.select(".edge").stream().filter((element) -> !element.parent().is("main.chart"))).isEmpty();
	}

	@Test
	void aFailedDependencysDependantsWereNeverSpawnedAndEveryReportSaysWhy() {
		StartupReport report = failedReport();

		String console = ConsoleReport.render(report);
		assertThat(console).contains("model-0 not spawned: waiting for config (ready), which exited with code 3 "
				+ "before it was ready\n", "gateway not spawned: waiting for model-0 (ready), which was not spawned "
						+ "either\n")
			.doesNotContain("could have overlapped");
		assertThat(console.lines().filter((line) -> line.startsWith("model-0 ")).findFirst().orElseThrow())
			.contains("crashed (not spawned)")
			.doesNotContain("0.0 ms");
		assertThat(CriticalChain.of(report)).isEmpty();

		Document page = Jsoup.parse(HtmlReport.render(report));
		assertThat(page.select(".verdict").text()).isEqualTo("config exited with code 3 after 500 ms, before it was "
				+ "ready. Never spawned, still waiting for their dependencies: model-0, gateway.");
		Element model = row(page, "model-0");
		assertThat(model.classNames()).contains("muted");
		assertThat(model.select(".badge").text()).as("the console's outcome column says the same")
			.isEqualTo("crashed (not spawned)");
		assertThat(model.select(".bar")).hasSize(1);
		assertThat(model.selectFirst(".bar.wait").attr("title")).endsWith(
				"not spawned: waiting for config (ready), which exited with code 3 before it was ready");
		assertThat(page.select(".dependencies ul.unspawned li").eachAttr("data-server")).containsExactly("model-0",
				"gateway");
		assertThat(page.select(".edge")).isEmpty();

		Map<String, Object> document = map(JsonText.parse(JsonReport.render(report)));
		Map<String, Object> gateway = map(list(document.get("servers")).get(2));
		assertThat(gateway).containsEntry("outcome", "crashed")
			.containsEntry("spawnToReadyMs", 0.0)
			.as("never spawned: no spawn time")
			.containsEntry("spawnEpochNs", null);
		assertThat(map(list(document.get("servers")).get(0))).containsEntry("spawnEpochNs", at(1000));
		assertThat(map(gateway.get("dependencies"))).containsEntry("spawned", false)
			.containsEntry("blockedBy", "model-0")
			.containsEntry("waitedMs", 500.0);
		assertThat(document.get("criticalChain")).isNull();
	}

	@Test
	void aLargeGroupOfReplicasWaitingForOneDependencyIsOneLineItsLongestWait() {
		ServerReport config = ServerReport.of("config", "config", at(1000), at(4000), "ready");
		List<ServerReport> servers = new ArrayList<>(List.of(config));
		for (int i = 0; i < 12; i++) {
			servers.add(ServerReport.of("gateway-" + i, "gateway", at(4010 + i), at(6000 + i), "ready")
				.withWaiting(new Waiting(at(1000 - i), true, List.of(new DependsOn("config", "ready", List.of("config"))),
						"config", null))
				.asReplicaOf("gateway"));
		}
		StartupReport report = new StartupReport("abc", T0, at(6011), "ready", null, SUPERVISOR, servers);

		assertThat(ConsoleReport.render(report).lines().filter((line) -> line.contains(" for config (ready): ")).toList())
			.singleElement()
			.asString()
			.startsWith("  gateway-11 waited 3.0 s for config (ready): unknown what could have overlapped")
			.endsWith("(the longest of 12 replicas of gateway; the shortest 3.0 s)");
		Document page = Jsoup.parse(HtmlReport.render(report));
		assertThat(page.select(".dependencies ul.overlap li").eachAttr("data-dependant")).containsExactly("gateway-11");
	}

	@Test
	void aLargeGroupNeverSpawnedIsNamedByItsFirstReplicasAndCounted() {
		List<ServerReport> servers = new ArrayList<>(List.of(failedReport().servers().get(0)));
		for (int i = 0; i < 12; i++) {
			servers.add(ServerReport.of("gateway-" + i, "gateway", at(1500), at(1500), "crashed")
				.withWaiting(new Waiting(at(1000), false, List.of(new DependsOn("config", "ready", List.of("config"))),
						null, "config"))
				.asReplicaOf("gateway"));
		}
		StartupReport report = new StartupReport("abc", T0, at(1500), "crashed", "Server 'config' exited with code 3",
				List.of(new Stage("unfinished", T0, at(1500))), servers);

		List<String> unspawned = ConsoleReport.render(report)
			.lines()
			.filter((line) -> line.contains(" not spawned: "))
			.toList();
		assertThat(unspawned).hasSize(3);
		assertThat(unspawned.get(2)).startsWith("gateway-2 not spawned: waiting for config (ready)")
			.endsWith("; and 9 more replicas of gateway not spawned");
		Document page = Jsoup.parse(HtmlReport.render(report));
		assertThat(page.select(".verdict").text()).endsWith(
				"Never spawned, still waiting for their dependencies: gateway-0, gateway-1, gateway-2 and 9 more.");
		assertThat(page.select(".dependencies ul.unspawned li")).hasSize(3);
	}

	/**
	 * download (a job, done at 3 s) and config (ready at 4 s) spawned at 1 s; model-0 waited for
	 * both, released by config, first contacting it in beans_instantiated; gateway waited for
	 * model, whose one replica it first contacted in main_start.
	 */
	private static StartupReport readyReport() {
		ServerReport download = ServerReport.of("download", "download", at(1000), at(3000), "ready")
			.withTimeline(TestTimelines.of(List.of(new Stage("main_start", at(1000), at(2800))), at(2800), List.of()))
			.asOneShot();
		ServerReport config = ServerReport.of("config", "config", at(1000), at(4000), "ready")
			.withTimeline(TestTimelines.of(List.of(new Stage("main_start", at(1000), at(2500)),
					new Stage("beans_instantiated", at(2500), at(3990))), at(3990), List.of()));
		StepTiming contact = new StepTiming("startup.dependency.config", null, null, at(5700), at(5800), 100 * MS,
				List.of());
		ServerReport model = ServerReport.of("model-0", "model", at(4010), at(8000), "ready")
			.withTimeline(TestTimelines.of(List.of(new Stage("venv_setup", at(4010), at(4050)),
					new Stage("interpreter_start", at(4050), at(4500)), new Stage("main_start", at(4500), at(5000)),
					new Stage("environment_prepared", at(5000), at(5200)),
					new Stage("context_prepared", at(5200), at(5600)),
					new Stage("beans_instantiated", at(5600), at(7500)),
					new Stage("application_ready", at(7500), at(7990))), at(7990),
					List.of(TestTimelines.bean("configClient", "x.ConfigClient", at(5650), at(5900), List.of(contact)))))
			.withWaiting(new Waiting(at(1000), true, List.of(new DependsOn("download", "completed", List.of("download")),
					new DependsOn("config", "ready", List.of("config"))), "config", null));
		StepTiming replicaContact = new StepTiming("startup.dependency.model-0", null, null, at(8200), at(8300),
				100 * MS, List.of());
		ServerReport gateway = ServerReport.of("gateway", "gateway", at(8010), at(10_000), "ready")
			.withTimeline(TestTimelines.of(List.of(new Stage("main_start", at(8010), at(9010)),
					new Stage("beans_instantiated", at(9010), at(9990))), at(9990), List.of(replicaContact)))
			.withWaiting(new Waiting(at(1000), true, List.of(new DependsOn("model", "ready", List.of("model-0"))),
					"model-0", null));
		return new StartupReport("abc", T0, at(10_000), "ready", null, SUPERVISOR,
				List.of(download, config, model, gateway));
	}

	/** config crashed at 1.5 s: model-0 and gateway, waiting for it and for model-0, were never spawned. */
	private static StartupReport failedReport() {
		ServerReport config = ServerReport.of("config", "config", at(1000), at(1500), "crashed").withExitCode(3);
		ServerReport model = ServerReport.of("model-0", "model", at(1500), at(1500), "crashed")
			.withWaiting(new Waiting(at(1000), false, List.of(new DependsOn("config", "ready", List.of("config"))), null,
					"config"));
		ServerReport gateway = ServerReport.of("gateway", "gateway", at(1500), at(1500), "crashed")
			.withWaiting(new Waiting(at(1000), false, List.of(new DependsOn("model", "ready", List.of("model-0"))),
					null, "model-0"));
		return new StartupReport("abc", T0, at(1500), "crashed", "Server 'config' exited with code 3",
				List.of(new Stage("application_ready", T0, at(1000)), new Stage("unfinished", at(1000), at(1500))),
				List.of(config, model, gateway));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> map(Object value) {
		return (Map<String, Object>) value;
	}

	@SuppressWarnings("unchecked")
	private static List<Object> list(Object value) {
		return (List<Object>) value;
	}

	private static long at(long ms) {
		return T0 + ms * MS;
	}

	private static Element row(Document page, String server) {
		return page.selectFirst(".row[data-row]:not([data-row=bean])[data-server=\"" + server + "\"]");
	}

	private static List<Double> position(Element bar) {
		Matcher matcher = Pattern.compile("left:([0-9.]+)%;width:([0-9.]+)%").matcher(bar.attr("style"));
		assertThat(matcher.find()).as(bar.attr("style")).isTrue();
		return List.of(Math.round(Double.parseDouble(matcher.group(1)) * 10) / 10.0,
				Math.round(Double.parseDouble(matcher.group(2)) * 10) / 10.0);
	}

}
