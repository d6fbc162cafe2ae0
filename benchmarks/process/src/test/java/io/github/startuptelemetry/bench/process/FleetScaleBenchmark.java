package io.github.startuptelemetry.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Spans.only;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench/run.sh fleet [RUNS]}: the fleet launcher at scale. Per run, the sample supervisor
 * spawns {@value #SERVERS} {@code benchmarks/fleet/stub_server.py} stubs at once (a Python server that
 * honours the env contract: a hundred fit on two cores) and measures: the tail, from the last
 * stub listening (its own {@code ready_ns}) to the end of {@code gym.startup} and to the report;
 * the supervisor JVM's CPU from "Starting" to the report, minus what it uses idle over an equal
 * window afterwards, per server, and the same for a one-stub fleet (for the marginal cost);
 * health requests each stub answered; and that the trace is complete. Not part of the normal build (surefire excludes {@code *Benchmark}).
 */
class FleetScaleBenchmark {

	private static final int SERVERS = 100;

	private static final Duration TIMEOUT = Duration.ofSeconds(240);

	/** A setup step that keeps each stub from listening for 10 s, as a server loading a model would. */
	private static final String SLOW_START = "sleep 10";

	private static final Pattern READY = Pattern.compile("ready_ns=(\\d+)");

	private static final Pattern PROBES = Pattern.compile("probes=(\\d+)");

	/** The heading of the part of the results file written by hand, which a re-run keeps. */
	private static final String BY_HAND = "## Where the supervisor's CPU goes, profiled by hand";

	/** Classes loaded from class files and from the archive, as one count. */
	private static final String CLASSES_LOADED = "classes loaded";

	@TempDir
	Path tmp;

	private String python;

	@Test
	void fleetOfStubs() throws Exception {
		int runs = Integer.getInteger("bench.runs", 5);
		this.python = python();
		BenchReport md = new BenchReport("Fleet scale: " + SERVERS + " stub servers", "bench/run.sh fleet");
		Samples tail = new Samples();
		Samples tailToReport = new Samples();
		Samples cpuPerServer = new Samples();
		Samples marginalCpu = new Samples();
		Samples probesPerServer = new Samples();
		Samples allReady = new Samples();
		Samples slowStartCpu = new Samples();
		Map<String, Double> threads = new TreeMap<>();
		Map<String, Samples> fleetCounts = new TreeMap<>();
		Map<String, Samples> singleCounts = new TreeMap<>();
		for (int run = 0; run < runs; run++) {
			Run fleet = run(run, SERVERS, null);
			Run single = run(run, 1, null);
			slowStartCpu.add(run(run, SERVERS, SLOW_START).cpuMs / SERVERS);
			tail.add(fleet.tailMs);
			tailToReport.add(fleet.tailToReportMs);
			cpuPerServer.add(fleet.cpuMs / SERVERS);
			marginalCpu.add((fleet.cpuMs - single.cpuMs) / (SERVERS - 1));
			probesPerServer.add(fleet.probesPerServer);
			allReady.add(fleet.allReadyMs);
			fleet.threadsMs.forEach((name, ms) -> threads.merge(name, ms / runs / SERVERS, Double::sum));
			fleet.counts.forEach((name, count) -> fleetCounts.computeIfAbsent(name, (n) -> new Samples()).add(count));
			single.counts.forEach((name, count) -> singleCounts.computeIfAbsent(name, (n) -> new Samples()).add(count));
			System.err.printf("run %d/%d done%n", run + 1, runs);
		}
		md.line("%d runs. Each: the sample supervisor (`-XX:TieredStopAtLevel=1`) spawns %d `benchmarks/fleet/stub_server.py` "
				+ "at once through the launch shell (`replicas: %d`, command `[%s, benchmarks/fleet/stub_server.py, \"{port}\"]`), "
				+ "probes `/health`, exports to an in-process OTLP receiver, prints its report.", runs, SERVERS,
				SERVERS, this.python);
		md.line("");
		md.line("| measure | median | max | all runs |");
		md.line("|---|---|---|---|");
		row(md, "first spawn → all ready (ms)", allReady);
		row(md, "tail: last stub listening → end of `gym.startup` (ms)", tail);
		row(md, "last stub listening → report logged (ms, log timestamps)", tailToReport);
		row(md, "supervisor CPU per server, minus idle (ms)", cpuPerServer);
		row(md, "marginal supervisor CPU per server: (fleet of 100 − fleet of 1) / 99 (ms)", marginalCpu);
		row(md, "supervisor CPU per server, minus idle, stubs listening 10 s late (ms)", slowStartCpu);
		row(md, "health requests answered per stub", probesPerServer);
		md.line("");
		md.line("The supervisor JVM's own counters over the same window (from its `hsperfdata`, read without attaching: "
				+ "counts, which the load of a shared box does not blur), medians:");
		md.line("");
		md.line("| counter, \"Starting\" → report | fleet of %d | fleet of 1 | per server beyond the first |", SERVERS);
		md.line("|---|---|---|---|");
		counterRow(md, "JIT compilations (`%s`)".formatted(HotSpotCounters.COMPILES), HotSpotCounters.COMPILES,
				fleetCounts, singleCounts);
		counterRow(md, "classes loaded (`%s` + `%s`)".formatted(HotSpotCounters.CLASSES, HotSpotCounters.SHARED_CLASSES),
				CLASSES_LOADED, fleetCounts, singleCounts);
		counterRow(md, "threads started (`%s`)".formatted(HotSpotCounters.THREADS), HotSpotCounters.THREADS, fleetCounts,
				singleCounts);
		md.line("");
		md.line("Where it went, fleet of %d, ms per server (mean over runs; by thread, numbers in names folded; each "
				+ "thread's run time from `/proc/<pid>/task/<tid>/schedstat`, sampled every 25 ms, so that threads "
				+ "under one 10 ms tick each, such as the JDK's process reaper per server, and threads that end, "
				+ "such as compiler threads the JVM stops, count): %s.",
				SERVERS, String.join(", ", threads.entrySet()
					.stream()
					.filter((thread) -> thread.getValue() >= 0.05)
					.sorted(Map.Entry.<String, Double>comparingByValue().reversed())
					.map((thread) -> String.format(Locale.ROOT, "%s %.1f", thread.getKey(), thread.getValue()))
					.toList()));
		md.line("");
		md.line("Every run: %d `gym.startup.server` spans, outcome ready, in the one `gym.startup` trace (asserted).",
				SERVERS);
		md.line("Supervisor CPU = utime+stime of its JVM (10 ms ticks) from its \"Starting %d server(s)\" line to its "
				+ "report, minus its CPU over an equal idle window right after; divided by %d. That includes what a "
				+ "fleet of any size costs once (class loading and JIT compilation of the probing, the report and the "
				+ "span export), hence the marginal figure from a one-stub run after each. Refused connections (a stub not listening yet) "
				+ "reach no stub and are not in the request count. The last row runs the same fleet with a setup "
				+ "step of `%s`: servers that listen only once loaded, so that the probes find nobody for 10 s.",
				SERVERS, SERVERS, SLOW_START);
		md.line("");
		md.line("Targets: tail ≤ 250 ms: %.0f → %s; supervisor CPU ≤ 5 ms per server: %.2f → %s.", tail.median(),
				BenchReport.verdict(tail.median() <= 250), cpuPerServer.median(),
				BenchReport.verdict(cpuPerServer.median() <= 5));
		md.keepByHand("fleet-scale", BY_HAND);
		md.write("fleet-scale");
		assertThat(tail.size()).isEqualTo(runs);
	}

	private Run run(int index, int servers, String setup) throws Exception {
		String id = index + "-" + servers + ((setup != null) ? "-slow" : "");
		Path runDir = this.tmp.resolve("run-" + id);
		Path stub = SampleJars.repositoryRoot().resolve("benchmarks/fleet/stub_server.py");
		String server = "--telemetry.supervisor.servers[0].";
		try (OtlpReceiver receiver = OtlpReceiver.start();
				JavaProcess supervisor = JavaProcess.jar(SampleJars.supervisor())
					.jvmArgs(jvmArgs())
					.env("MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT", receiver.tracesEndpoint())
					.env("MANAGEMENT_OTLP_METRICS_EXPORT_ENABLED", "false")
					.args(server + "name=stub", server + "replicas=" + servers, server + "command[0]=" + this.python,
							server + "command[1]=" + stub, server + "command[2]={port}",
							server + "health-url=http://127.0.0.1:{port}/health",
							server + "timeline-url=http://127.0.0.1:{port}/actuator/startuptimeline",
							"--telemetry.supervisor.run-dir=" + runDir,
							server + "setup=" + ((setup != null) ? setup : ""))
					.start(this.tmp.resolve("supervisor-" + id + ".log"))) {
			supervisor.awaitLog("Starting " + servers + " server(s)", TIMEOUT);
			double cpuAtStart = ProcessCpu.ms(supervisor.pid());
			ThreadCpu threadCpu = new ThreadCpu(supervisor.pid());
			Map<String, Long> countersAtStart = counts(supervisor.pid());
			long wallAtStart = System.nanoTime();
			supervisor.awaitLog("Startup report", TIMEOUT);
			double cpuAtReport = ProcessCpu.ms(supervisor.pid());
			Map<String, Double> threads = threadCpu.stop();
			Map<String, Long> counters = counts(supervisor.pid());
			countersAtStart.forEach((name, count) -> counters.merge(name, -count, Long::sum));
			long window = System.nanoTime() - wallAtStart;
			// an idle window as long as the startup, for the JVM's background CPU (JIT, GC)
			boolean exited = supervisor.process().waitFor(window, TimeUnit.NANOSECONDS);
			double idle = ProcessCpu.ms(supervisor.pid()) - cpuAtReport; // before the log is read: the window stays exact
			assertThat(exited).as("the supervisor exited after its report (a failed startup?); its log:%n%s", supervisor.log())
				.isFalse();

			List<ReceivedSpan> spans = receiver.awaitSpans((all) -> all.stream()
				.filter((s) -> s.name().equals("gym.startup.server"))
				.count() == servers && all.stream().anyMatch((s) -> s.name().equals("gym.startup")), TIMEOUT);
			ReceivedSpan root = only(spans, "gym.startup");
			assertThat(root.attribute("nemo.gym.startup.outcome")).isEqualTo("ready");
			assertThat(spans).filteredOn((s) -> s.name().equals("gym.startup.server"))
				.allSatisfy((s) -> assertThat(s.traceId()).isEqualTo(root.traceId()))
				.allSatisfy((s) -> assertThat(s.attribute("nemo.gym.startup.outcome")).isEqualTo("ready"));
			long firstSpawn = spans.stream()
				.filter((s) -> s.name().equals("gym.startup.server"))
				.mapToLong(ReceivedSpan::startNs)
				.min()
				.getAsLong();
			long reportNs = logTimeNs(supervisor.log(), "Startup report");

			supervisor.terminate();
			assertThat(supervisor.awaitExit(TIMEOUT)).isNotNegative();
			long lastListening = 0;
			long probes = 0;
			List<Path> logs;
			try (Stream<Path> files = Files.list(runDir)) {
				logs = files.filter((f) -> f.getFileName().toString().startsWith("stub")).toList();
			}
			assertThat(logs).hasSize(servers);
			for (Path log : logs) {
				String text = Files.readString(log);
				lastListening = Math.max(lastListening, Long.parseLong(match(READY, text, log)));
				probes += Long.parseLong(match(PROBES, text, log));
			}
			return new Run((root.endNs() - lastListening) / 1e6, (reportNs - lastListening) / 1e6,
					cpuAtReport - cpuAtStart - idle, (double) probes / servers, (root.endNs() - firstSpawn) / 1e6, threads,
					counters);
		}
	}

	/**
	 * Extra options for the supervisor's JVM, to look inside it: {@code -Dbench.jvmArgs="-XX:StartFlightRecording=filename=/tmp/fleet-%p.jfr"}
	 * (space-separated); none by default, so that the numbers are the plain JVM's.
	 */
	private static String[] jvmArgs() {
		String args = System.getProperty("bench.jvmArgs", "").strip();
		return args.isEmpty() ? new String[0] : args.split("\\s+");
	}

	/**
	 * The interpreter {@code python3} runs: a version manager's shim (pyenv's is a bash script)
	 * would add a shell and a fork to every stub and slow the whole fleet down.
	 */
	private static String python() throws Exception {
		Process process = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)").start();
		String executable = new String(process.getInputStream().readAllBytes()).strip();
		assertThat(process.waitFor()).isZero();
		return executable;
	}

	private static String match(Pattern pattern, String text, Path log) {
		Matcher matcher = pattern.matcher(text);
		assertThat(matcher.find()).as("%s in %s:%n%s", pattern, log, text).isTrue();
		return matcher.group(1);
	}

	/** The time stamp of the first log line containing {@code text} (Boot's ISO-8601 format). */
	private static long logTimeNs(String log, String text) {
		String line = log.lines().filter((l) -> l.contains(text)).findFirst().orElseThrow();
		Instant at = Instant.parse(line.substring(0, line.indexOf(' ')));
		return at.getEpochSecond() * 1_000_000_000L + at.getNano();
	}

	private static void row(BenchReport md, String name, Samples samples) {
		md.line("| %s | %.1f | %.1f | %s |", name, samples.median(), samples.max(), samples.all());
	}

	/** The counters the report shows, classes loaded being those from class files and from the archive. */
	private static Map<String, Long> counts(long pid) {
		Map<String, Long> all = HotSpotCounters.of(pid);
		Map<String, Long> counts = new TreeMap<>();
		for (String name : List.of(HotSpotCounters.COMPILES, HotSpotCounters.THREADS)) {
			if (all.containsKey(name)) {
				counts.put(name, all.get(name));
			}
		}
		if (all.containsKey(HotSpotCounters.CLASSES) && all.containsKey(HotSpotCounters.SHARED_CLASSES)) {
			counts.put(CLASSES_LOADED, all.get(HotSpotCounters.CLASSES) + all.get(HotSpotCounters.SHARED_CLASSES));
		}
		return counts;
	}

	private static void counterRow(BenchReport md, String label, String name, Map<String, Samples> fleet,
			Map<String, Samples> single) {
		if (fleet.containsKey(name) && single.containsKey(name)) {
			double many = fleet.get(name).median();
			double one = single.get(name).median();
			md.line("| %s | %.0f | %.0f | %.1f |", label, many, one, (many - one) / (SERVERS - 1));
		}
	}

	private record Run(double tailMs, double tailToReportMs, double cpuMs, double probesPerServer,
			double allReadyMs, Map<String, Double> threadsMs, Map<String, Long> counts) {
	}

}
