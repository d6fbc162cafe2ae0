package io.github.startuptelemetry.report.render;

import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.Stage;

/** The console rendering of a startup report. */
class ConsoleReportTest {

	private static final long S = 1_000_000_000L;

	private static final long MS = 1_000_000L;

	private static final long T0 = 1_700_000_000L * S;

	@Test
	void readyStartupShowsEveryServerItsStagesAndTheCriticalPath() {
		ServerReport model0 = ServerReport.of("model-0", "model", T0 + S, T0 + 4 * S, "ready")
			.withTimeline(TestTimelines.of(List.of(new Stage("main_start", T0 + S, T0 + 2 * S),
					new Stage("beans_instantiated", T0 + 2 * S, T0 + 4 * S - 12 * MS)), T0 + 4 * S - 12 * MS, List.of()));
		ServerReport model1 = ServerReport.of("model-1", "model", T0 + S, T0 + 6200 * MS, "ready")
			.withTimeline(TestTimelines.of(List.of(new Stage("main_start", T0 + S, T0 + 2300 * MS),
					new Stage("beans_instantiated", T0 + 2300 * MS, T0 + 6200 * MS - 4 * MS)), T0 + 6200 * MS - 4 * MS, List.of()));
		ServerReport plain = ServerReport.of("legacy", null, T0 + S, T0 + 2 * S, "ready");
		StartupReport report = new StartupReport("abc", T0, T0 + 6200 * MS, "ready", null,
				List.of(new Stage("main_start", T0, T0 + S), new Stage("wait_for_servers", T0 + S, T0 + 6200 * MS)),
				List.of(model0, model1, plain));

		String text = ConsoleReport.render(report);

		assertThat(text).startsWith("Startup ready after 6.2 s (trace abc)\n");
		assertThat(text).contains("all ready at 6.2 s, held back by model-1; its slowest stage beans_instantiated 3.9 s");
		assertThat(text).contains("supervisor: main_start 1.0 s, wait_for_servers 5.2 s");
		List<String> lines = text.lines().toList();
		assertThat(lines.get(1)).contains("server", "type", "spawn→ready", "main", "beans", "probe lag", "outcome");
		assertThat(lines.get(2)).contains("start", "instantiated");
		assertThat(lines.get(3)).startsWith("model-0").contains("3.0 s", "1.0 s", "2.0 s", "12 ms", "ready");
		assertThat(lines.get(4)).startsWith("model-1").contains("5.2 s", "3.9 s", "4.0 ms");
		assertThat(lines.get(5)).startsWith("legacy").contains(" - ");
	}

	@Test
	void aServerWithJvmCountersShowsItsCpuPerWallAndTheHintSaysWhatItMeans() {
		ServerReport busy = ServerReport.of("busy", null, T0, T0 + 2 * S, "ready")
			.withTimeline(TestTimelines.of(List.of(new Stage("venv_setup", T0, T0 + S),
					new Stage("beans_instantiated", T0 + S, T0 + 2 * S, new JvmCounters(1_400 * MS, 3, 1, 200, 900))),
					T0 + 2 * S, List.of()));
		ServerReport old = ServerReport.of("old", null, T0, T0 + S, "ready");
		StartupReport report = new StartupReport(null, T0, T0 + 2 * S, "ready", null,
				List.of(new Stage("wait_for_servers", T0, T0 + 2 * S)), List.of(busy, old));

		String text = ConsoleReport.render(report);

		List<String> lines = text.lines().toList();
		assertThat(lines.get(1)).contains("cpu/");
		assertThat(lines.get(2)).contains("wall");
		// the venv stage before the JVM is not in the denominator
		assertThat(lines.get(3)).startsWith("busy").contains("1.4×");
		assertThat(lines.get(4)).startsWith("old").doesNotContain("×");
		assertThat(text).contains("cpu/wall: process CPU time (all threads)");
		// no step reported: the whole stage is unattributed; a server without the stage says nothing
		assertThat(text).contains("unattributed in beans_instantiated (no phase, slow bean or step covers it): busy 1.0 s\n");
	}

	@Test
	void abortedStartupSaysWhatEndedIt() {
		StartupReport report = new StartupReport(null, T0, T0 + 1500 * MS, "crashed", "server 'bad' exited with code 3",
				List.of(new Stage("unfinished", T0, T0 + 1500 * MS)),
				List.of(ServerReport.of("bad", "model", T0, T0 + 1500 * MS, "crashed").withExitCode(3)));
		String text = ConsoleReport.render(report);
		assertThat(text).startsWith("Startup crashed after 1.5 s\n");
		assertThat(text).contains("startup crashed at 1.5 s: server 'bad' exited with code 3");
		assertThat(text.lines().filter((line) -> line.startsWith("bad"))).singleElement()
			.asString()
			.endsWith("crashed (exit 3)");
		assertThat(report.criticalPath()).isEmpty();
	}

	@Test
	void aQueuedColumnShowsOnlyWhenALauncherKnewTheWait() {
		ServerReport step = ServerReport.of("model-0", "model", T0, T0 + 2 * S, "ready").withQueuedNs(340 * MS);
		ServerReport local = ServerReport.of("resources", "resources", T0, T0 + S, "ready");
		String text = ConsoleReport.render(new StartupReport(null, T0, T0 + 2 * S, "ready", null, List.of(),
				List.of(step, local)));
		assertThat(text.lines().filter((line) -> line.startsWith("server"))).singleElement()
			.asString()
			.contains("spawn→ready  queued");
		assertThat(text.lines().filter((line) -> line.startsWith("model-0"))).singleElement()
			.asString()
			.contains("2.0 s  340 ms");
		assertThat(text.lines().filter((line) -> line.startsWith("resources"))).singleElement()
			.asString()
			.contains("1.0 s       -");
		String unqueued = ConsoleReport.render(new StartupReport(null, T0, T0 + S, "ready", null, List.of(),
				List.of(local)));
		assertThat(unqueued).doesNotContain("queued");
	}

	@Test
	void durationsReadNaturally() {
		assertThat(Durations.format(4_200_000)).isEqualTo("4.2 ms");
		assertThat(Durations.format(312 * MS)).isEqualTo("312 ms");
		assertThat(Durations.format(6_240 * MS)).isEqualTo("6.2 s");
	}

}
