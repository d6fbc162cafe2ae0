package io.github.startuptelemetry.it.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.HeadlessChromium;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.report.render.HtmlReport;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;
import io.github.startuptelemetry.it.support.HeadlessChromium.Picture;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTML waterfall of a real fleet run, as a real browser builds and draws it. Two sample
 * servers start; once both are ready a third server exits with code 3, so the startup crashes
 * with the ready servers' own stages in the report. A second fleet has dependencies. The
 * screenshots are kept in {@code target/browser/} for a human to look at.
 */
class HtmlReportBrowserTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(120);

	private static final List<String> SERVER_STAGES = List.of("venv_setup", "interpreter_start", "main_start",
			"environment_prepared", "context_prepared", "beans_instantiated", "web_server_started", "context_refreshed",
			"application_started", "application_ready");

	/** The colours of beans_instantiated bars and of a failed server's bar (StageColors, the CSS). */
	private static final int BEANS_ORANGE = 0xf28e2b;

	private static final int FAILED_RED = 0xcf222e;

	/** The stripes of a wait for dependencies, and a critical chain's edge (the CSS). */
	private static final int WAIT_GREY = 0x6e7781;

	private static final int EDGE_VIOLET = 0x5f3dc4;

	@TempDir
	Path tmp;

	@Test
	void aCrashedFleetRunIsOneRowPerServerOneBarPerStageWithTheCrashFlagged() throws Exception {
		HeadlessChromium chromium = HeadlessChromium.require(this.tmp);
		Path html = this.tmp.resolve("report/startup-report.html");
		try (JavaProcess supervisor = JavaProcess.jar(SampleJars.supervisor())
			.env("MANAGEMENT_OTLP_METRICS_EXPORT_ENABLED", "false")
			.args(server(0, "model", "{java}", "-XX:TieredStopAtLevel=1", "-jar", SampleJars.server().toString(),
					"--server.port={port}", "--spring.application.name={name}", "--sample.model-loader.duration=200ms"))
			.args("--telemetry.supervisor.servers[0].replicas=2")
			.args(server(1, "crasher", "/bin/sh", "-c", "while [ ! -e go ]; do sleep 0.05; done; echo boom; exit 3"))
			.args("--telemetry.supervisor.servers[1].working-dir=" + this.tmp,
					"--telemetry.supervisor.run-dir=" + this.tmp.resolve("run"),
					"--telemetry.supervisor.report.html=" + html,
					"--telemetry.supervisor.report.json=" + html.resolveSibling("startup-report.json"))
			.start(this.tmp.resolve("supervisor.log"))) {
			supervisor.awaitLog("2/3 ready, waiting for crasher", TIMEOUT);
			Files.writeString(this.tmp.resolve("go"), "");
			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			assertThat(supervisor.log()).contains("Startup crashed after", "HTML waterfall: " + html);
		}

		Document page = Jsoup.parse(chromium.dumpDom(html.toUri()));

		List<String> rows = page.select(".row[data-row]:not([data-row=bean])").eachAttr("data-server");
		assertThat(rows.get(0)).isEqualTo("supervisor");
		assertThat(rows.subList(1, rows.size())).as("in spawn order").containsExactlyInAnyOrder("model-0", "model-1",
				"crasher");
		for (String name : List.of("model-0", "model-1")) {
			Element row = row(page, name);
			assertThat(row.attr("data-outcome")).isEqualTo("ready");
			assertThat(row.select(".bar[data-stage]").eachAttr("data-stage")).as(name).isEqualTo(SERVER_STAGES);
			assertThat(row.select(".bar.lag")).as("%s's probe lag", name).hasSize(1);
		}
		assertThat(row(page, "supervisor").select(".bar[data-stage]").eachAttr("data-stage"))
			.startsWith("main_start", "environment_prepared", "context_prepared")
			.endsWith("application_ready", "spawn_servers", "unfinished");
		Element crasher = row(page, "crasher");
		assertThat(crasher.classNames()).contains("bad");
		assertThat(crasher.attr("data-outcome")).isEqualTo("crashed");
		assertThat(crasher.select(".badge").text()).isEqualTo("crashed (exit 3)");
		assertThat(crasher.select(".bar.failed")).hasSize(1);
		assertThat(page.select("header.summary.bad .verdict").text()).startsWith("crasher exited with code 3");
		assertThat(page.select("pre.error").text()).contains("'crasher' exited with code 3", "boom");
		assertThat(page.select(".row.critical, .bar.slowest")).isEmpty();

		Path png = Files.createDirectories(Path.of("target", "browser")).resolve("waterfall-crashed.png");
		Picture picture = chromium.screenshot(html.toUri(), png, 1400, 900);
		assertThat(picture.width()).isEqualTo(1400);
		assertThat(picture.height()).isEqualTo(900);
		assertThat(picture.distinctColours()).isGreaterThan(200);
		assertThat(picture.nonWhiteShare()).isGreaterThan(0.05);
		assertThat(picture.pixelsOf(BEANS_ORANGE)).as("beans_instantiated bars drawn").isGreaterThan(500);
		assertThat(picture.pixelsOf(FAILED_RED)).as("the crashed server's bar drawn").isGreaterThan(500);
	}

	/**
	 * A fleet with dependencies: a one-shot job and a config server start at once, the gateway
	 * once the job completed and config is ready (it reads config while its beans are created).
	 * Its wait is a hatched segment of its own before its stages, and the critical chain's edge
	 * is drawn from config's ready down to the gateway's spawn.
	 */
	@Test
	void aFleetWithDependenciesDrawsEachWaitAndTheCriticalChainsEdges() throws Exception {
		HeadlessChromium chromium = HeadlessChromium.require(this.tmp);
		Path html = this.tmp.resolve("report/startup-report.html");
		try (JavaProcess supervisor = JavaProcess.jar(SampleJars.supervisor())
			.env("MANAGEMENT_OTLP_METRICS_EXPORT_ENABLED", "false")
			.args(server(0, "prepare", "/bin/sh", "-c", "sleep 0.3"))
			.args("--telemetry.supervisor.servers[0].one-shot=true")
			.args(server(1, "config", "{java}", "-XX:TieredStopAtLevel=1", "-jar", SampleJars.server().toString(),
					"--server.port={port}", "--spring.application.name={name}", "--sample.model-loader.duration=200ms"))
			.args(server(2, "gateway", "{java}", "-XX:TieredStopAtLevel=1", "-jar", SampleJars.server().toString(),
					"--server.port={port}", "--spring.application.name={name}", "--sample.model-loader.duration=200ms",
					"--sample.dependency.name=config",
					"--sample.dependency.url=http://127.0.0.1:{port:config}/actuator/health"))
			.args("--telemetry.supervisor.servers[2].depends-on.prepare=completed",
					"--telemetry.supervisor.servers[2].depends-on.config=ready",
					"--telemetry.supervisor.exit-when-ready=true", "--telemetry.supervisor.run-dir=" + this.tmp.resolve("run"),
					"--telemetry.supervisor.report.html=" + html,
					"--telemetry.supervisor.report.json=" + html.resolveSibling("startup-report.json"))
			.start(this.tmp.resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT.multipliedBy(2))).as(supervisor.log()).isZero();
		}

		Document page = Jsoup.parse(chromium.dumpDom(html.toUri()));

		List<String> rows = page.select(".row[data-row]:not([data-row=bean])").eachAttr("data-server");
		assertThat(rows.subList(1, 3)).as("spawned at once, in either order").containsExactlyInAnyOrder("prepare",
				"config");
		assertThat(rows).startsWith("supervisor").endsWith("gateway").hasSize(4);
		assertThat(row(page, "prepare").select(".badge").text()).isEqualTo("completed");
		Element gateway = row(page, "gateway");
		assertThat(gateway.select(".bar.wait")).hasSize(1);
		// the command line keeps no order among the entries of a map
		assertThat(gateway.selectFirst(".bar.wait").attr("title")).contains("prepare (completed)", "config (ready)",
				"released by config");
		assertThat(gateway.select(".bar[data-stage]").eachAttr("data-stage")).isEqualTo(SERVER_STAGES);
		assertThat(page.select(".row.critical").eachAttr("data-server")).containsExactly("config", "gateway");
		assertThat(page.select(".edge")).singleElement().satisfies((edge) -> {
			assertThat(edge.attr("data-from")).isEqualTo("config");
			assertThat(edge.attr("data-to")).isEqualTo("gateway");
		});
		assertThat(page.select("header .verdict").text())
			.startsWith("All ready at ")
			.endsWith("set by the critical chain config → gateway.");
		assertThat(page.select(".dependencies ul.overlap li[data-dependency=config]").text())
			.contains("its startup up to context_prepared", "it first contacted config in beans_instantiated");

		Path png = Files.createDirectories(Path.of("target", "browser")).resolve("waterfall-dependencies.png");
		Picture picture = chromium.screenshot(html.toUri(), png, 1400, 900);
		assertThat(picture.pixelsOf(WAIT_GREY)).as("the gateway's wait drawn hatched").isGreaterThan(200);
		assertThat(picture.pixelsOf(EDGE_VIOLET)).as("the edge from config to the gateway drawn").isGreaterThan(60);
	}

	/**
	 * The page of a thousand replicas of one declared server, each with a Boot server's stages,
	 * their JVM counters and slow beans, as the renderer writes it: at most about 2 MB (a row of
	 * bars per server made 10 kB each), one row of their spread, the slowest replica's row and a
	 * table of all thousand that opens on a click, which the browser builds. How long Chromium
	 * takes with it, beside an empty page, is printed (the bound, 2 s, is the scale benchmark's
	 * to measure, not a test's to assert on a shared box).
	 */
	@Test
	void aThousandReplicasAreOnePageOfAtMostTwoMegabytesWithTheirSpreadTheSlowestAndATableOfAll() throws Exception {
		HeadlessChromium chromium = HeadlessChromium.require(this.tmp);
		Path html = this.tmp.resolve("report/startup-report-1000.html");
		Files.createDirectories(html.getParent());
		Files.writeString(html, HtmlReport.render(thousandReplicas()));
		Path empty = Files.writeString(this.tmp.resolve("report/empty.html"), "<!DOCTYPE html><title>empty</title>");

		assertThat(Files.size(html)).as("bytes").isLessThanOrEqualTo(2L * 1024 * 1024);
		long emptyStart = System.nanoTime();
		chromium.dumpDom(empty.toUri());
		long emptyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - emptyStart);
		long start = System.nanoTime();
		Document page = Jsoup.parse(chromium.dumpDom(html.toUri()));
		long pageMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		System.out.printf("1,000 replicas: %,d bytes of HTML; Chromium's --dump-dom %d ms, %d ms for an empty page%n",
				Files.size(html), pageMs, emptyMs);

		assertThat(page.select(".row[data-row]:not([data-row=bean])").eachAttr("data-server"))
			.containsExactly("supervisor", "config", "model", "model-999", "gateway");
		Element group = page.selectFirst(".row[data-row=group][data-server=model]");
		assertThat(group.select(".badge").text()).isEqualTo("1000 ready");
		assertThat(group.select(".bar.spread").attr("title")).startsWith("1000 replicas: spawn→ready 4.0 s–5.0 s");
		Element slowest = row(page, "model-999");
		assertThat(slowest.select(".note").text()).startsWith("slowest of 1000 replicas");
		assertThat(slowest.select(".bar[data-stage]").eachAttr("data-stage")).isEqualTo(SERVER_STAGES);
		Element table = page.selectFirst("details.replicas[data-server=model]");
		assertThat(table.hasAttr("open")).isFalse();
		assertThat(table.select("tr[data-server]")).hasSize(1000);
		assertThat(table.select("tr").first().select("th").eachText()).startsWith("server", "spawn→ready", "venv_setup")
			.endsWith("application_ready", "outcome");
		assertThat(page.select(".row")).as("rows drawn").hasSizeLessThan(30);

		Path png = Files.createDirectories(Path.of("target", "browser")).resolve("waterfall-1000-replicas.png");
		Picture picture = chromium.screenshot(html.toUri(), png, 1400, 900);
		assertThat(picture.pixelsOf(BEANS_ORANGE)).as("the slowest replica's beans_instantiated drawn").isGreaterThan(100);
	}

	/**
	 * config, then a thousand replicas of model spawned a millisecond apart, replica i ready
	 * 4 s + i ms after its spawn, in a Boot server's stages with counters and eight slow beans,
	 * then gateway.
	 */
	private static StartupReport thousandReplicas() {
		long ms = 1_000_000L;
		long t0 = System.currentTimeMillis() * ms;
		List<ServerReport> servers = new ArrayList<>();
		servers.add(ServerReport.of("config", "config", t0 + 1000 * ms, t0 + 3000 * ms, "ready"));
		for (int i = 0; i < 1000; i++) {
			long spawn = t0 + 1000 * ms + i * ms;
			long end = spawn + 4000 * ms + i * ms;
			long length = (end - spawn) / SERVER_STAGES.size();
			List<Stage> stages = new ArrayList<>();
			for (int s = 0; s < SERVER_STAGES.size(); s++) {
				long from = spawn + s * length;
				long to = (s == SERVER_STAGES.size() - 1) ? end : from + length;
				stages.add(new Stage(SERVER_STAGES.get(s), from, to, new JvmCounters(length / 2, 1, 3, 40, 900 + s)));
			}
			Stage beans = stages.get(5);
			List<StepTiming> steps = new ArrayList<>();
			for (int b = 0; b < 8; b++) {
				long from = beans.startNs() + b * 40 * ms;
				steps.add(new StepTiming("spring.beans.instantiate", "bean" + b, "com.example.model.Bean" + b, from,
						from + 30 * ms, 30 * ms, List.of(), -1));
			}
			servers.add(ServerReport.of("model-" + i, "model", spawn, end, "ready")
				.withTimeline(new ServerTimeline("model-" + i, "model", false, 1000 + i, null, null, spawn, end - ms,
						stages, List.of(), steps))
				.asReplicaOf("model"));
		}
		servers.add(ServerReport.of("gateway", "gateway", t0 + 2000 * ms, t0 + 4000 * ms, "ready"));
		long end = servers.stream().mapToLong(ServerReport::endNs).max().getAsLong();
		return new StartupReport("4bf92f3577b34da6a3ce929d0e0e4736", t0, end, "ready", null,
				List.of(new Stage("main_start", t0, t0 + 800 * ms), new Stage("spawn_servers", t0 + 800 * ms, t0 + 1000 * ms),
						new Stage("wait_for_servers", t0 + 1000 * ms, end)),
				servers);
	}

	private static Element row(Document page, String server) {
		return page.selectFirst(".row[data-row]:not([data-row=bean])[data-server=\"" + server + "\"]");
	}

	/** Properties declaring server {@code index}. */
	private static String[] server(int index, String name, String... command) {
		String prefix = "--telemetry.supervisor.servers[" + index + "].";
		List<String> args = new ArrayList<>(List.of(prefix + "name=" + name));
		for (int i = 0; i < command.length; i++) {
			args.add(prefix + "command[" + i + "]=" + command[i]);
		}
		return args.toArray(String[]::new);
	}

}
