package io.github.startuptelemetry.it.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.HeadlessChromium;
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
