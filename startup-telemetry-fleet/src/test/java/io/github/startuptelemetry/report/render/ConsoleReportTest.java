package io.github.startuptelemetry.report.render;

import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;

import java.util.ArrayList;
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
	void aLargeGroupOfReplicasIsOneRowOfTheirSpreadAndTheRowOfTheSlowest() {
		List<ServerReport> servers = new ArrayList<>(ReplicaFleet.replicas("model", 12, 0));
		servers.add(ServerReport.of("gateway", "gateway", ReplicaFleet.T0, ReplicaFleet.T0 + 3 * S, "ready"));

		List<String> lines = ConsoleReport.render(ReplicaFleet.ready(servers)).lines().toList();

		assertThat(lines).filteredOn((line) -> line.startsWith("model ×12")).singleElement()
			.asString()
			.contains("model", "1.0 s", "12 ready");
		int group = lines.indexOf(lines.stream().filter((line) -> line.startsWith("model ×12")).findFirst().get());
		assertThat(lines.get(group + 1)).startsWith("  ↳ model-11 (slowest of 12 replicas)").contains("1.0 s", "ready");
		assertThat(lines).filteredOn((line) -> line.matches("model-\\d+ .*")).as("no replica alone").isEmpty();
		assertThat(lines).filteredOn((line) -> line.startsWith("gateway")).hasSize(1);
	}

	@Test
	void eachColumnOfAGroupRowIsTheSpreadOfItsReplicas() {
		List<ServerReport> servers = new ArrayList<>(ReplicaFleet.replicas("model", 500, 0));

		String group = ConsoleReport.render(ReplicaFleet.ready(servers))
			.lines()
			.filter((line) -> line.startsWith("model ×500"))
			.findFirst()
			.orElseThrow();

		// spawn→ready 1.0 s to 1.5 s; beans_instantiated three tenths of it
		assertThat(group).contains("1.0 s–1.5 s", "300 ms–450 ms", "500 ready");
	}

	@Test
	void upToEightReplicasAreShownOneARow() {
		List<String> lines = ConsoleReport.render(ReplicaFleet.ready(ReplicaFleet.replicas("model", 8, 0)))
			.lines()
			.toList();

		assertThat(lines).filteredOn((line) -> line.matches("model-\\d+ .*")).hasSize(8);
		assertThat(lines).noneMatch((line) -> line.contains("×"));
	}

	@Test
	void theReplicaThatExitedIsTheOneShownAndTheOutcomesAreCounted() {
		List<ServerReport> servers = ReplicaFleet.replicas("model", 12, 0)
			.stream()
			.map((server) -> ServerReport.of(server.name(), server.type(), server.spawnNs(), server.endNs(), "crashed")
				.asReplicaOf("model"))
			.map((server) -> server.name().equals("model-5") ? server.withExitCode(3) : server)
			.toList();
		StartupReport report = new StartupReport(null, ReplicaFleet.T0, ReplicaFleet.T0 + 3 * S, "crashed",
				"'model-5' exited with code 3", List.of(), servers);

		List<String> lines = ConsoleReport.render(report).lines().toList();

		assertThat(lines).filteredOn((line) -> line.startsWith("model ×12")).singleElement()
			.asString()
			.endsWith("11 crashed (stopped), 1 crashed (exit 3)");
		assertThat(lines).anyMatch((line) -> line.startsWith("  ↳ model-5 (first to exit of 12 replicas)")
				&& line.endsWith("crashed (exit 3)"));
	}

	@Test
	void theUnattributedLineOfAThousandServersCountsThemAndNamesTheLargestFew() {
		List<ServerReport> servers = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			long start = T0 + S;
			servers.add(ServerReport.of("s-" + i, "s", T0, start + (100 + i) * MS, "ready")
				.withTimeline(TestTimelines.of(List.of(new Stage("beans_instantiated", start, start + (100 + i) * MS)),
						start + (100 + i) * MS, List.of())));
		}

		String line = ConsoleReport.render(ReplicaFleet.ready(servers))
			.lines()
			.filter((candidate) -> candidate.startsWith("unattributed in beans_instantiated"))
			.findFirst()
			.orElseThrow();

		assertThat(line).endsWith(": 1000 servers, median 600 ms; the largest: s-999 1.1 s, s-998 1.1 s, s-997 1.1 s "
				+ "and 997 more");
	}

	@Test
	void durationsReadNaturally() {
		assertThat(Durations.format(4_200_000)).isEqualTo("4.2 ms");
		assertThat(Durations.format(312 * MS)).isEqualTo("312 ms");
		assertThat(Durations.format(6_240 * MS)).isEqualTo("6.2 s");
	}

}
