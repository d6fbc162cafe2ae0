package io.github.startuptelemetry.bench.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import io.github.startuptelemetry.it.support.CpuBurner;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench/run.sh gate [N]}: how well the regression gate tells a slower bean from a busy
 * machine. A bounded CPU burner (two spinning threads, one per core of the 2-core box; with the
 * fleet's own JVMs a load average near 4) runs for the whole benchmark. Under it: 3 baseline runs
 * of the sample fleet (two model servers, one resources server), then N rounds of three runs
 * each, in rotating order: unchanged, the model servers' model loader 500 ms slower, and 1 s
 * slower ({@code SAMPLE_MODEL_LOADER_DURATION}, 1.5 s by default). Each measured run is gated by
 * the supervisor itself against the 3 baseline reports with the defaults (its exit code and the
 * JSON report's {@code comparison}: the new gate), and by the old gate replayed over the same
 * JSON reports (median of the baselines; a server's spawn→ready or a stage beyond 25% and 200 ms
 * regressed; slow beans never gate: the code before issue 24). Detection = regressed runs
 * flagged, false alarms = unchanged runs flagged, and which units each verdict named.
 * Not part of the normal build (surefire excludes {@code *Benchmark}).
 */
class GateQualityBenchmark {

	private static final Duration TIMEOUT = Duration.ofSeconds(300);

	private static final int BASELINE_RUNS = 3;

	/** The sample's model loader, and the two slower ones. */
	private static final Map<String, String> VARIANTS = variants();

	private static final double RELATIVE = 0.25;

	private static final double FLOOR_MS = 200;

	private final ObjectMapper json = new ObjectMapper();

	@TempDir
	Path tmp;

	@Test
	void gateQuality() throws Exception {
		int rounds = Integer.getInteger("bench.runs", 15);
		int burnerThreads = Integer.getInteger("bench.burner", 2);
		double loadBefore = BenchLoad.now();
		BenchReport md = new BenchReport("Regression gate: detection and false alarms under load", "bench/run.sh gate");
		Map<String, Result> results = new LinkedHashMap<>();
		VARIANTS.keySet().forEach((name) -> results.put(name, new Result()));
		List<Path> baselines = new ArrayList<>();
		List<Double> load = new ArrayList<>();
		long began = System.nanoTime();
		double loadAfter;
		ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
		try (CpuBurner burner = CpuBurner.start(burnerThreads,
				TIMEOUT.multipliedBy(BASELINE_RUNS + 3L * rounds + 1))) {
			sampler.scheduleAtFixedRate(() -> {
				synchronized (load) {
					load.add(BenchLoad.now());
				}
			}, 0, 5, TimeUnit.SECONDS);
			for (int i = 0; i < BASELINE_RUNS; i++) {
				Path report = this.tmp.resolve("baseline-" + i + ".json");
				Run run = fleet("baseline-" + i, VARIANTS.get("unchanged"), report, List.of());
				assertThat(run.exitCode()).as(run.log()).isZero();
				baselines.add(report);
				System.err.printf("baseline %d/%d done%n", i + 1, BASELINE_RUNS);
			}
			List<String> names = List.copyOf(VARIANTS.keySet());
			for (int round = 0; round < rounds; round++) {
				for (int k = 0; k < names.size(); k++) {
					String variant = names.get((round + k) % names.size());
					Path report = this.tmp.resolve(variant.replace(' ', '_') + "-" + round + ".json");
					Run run = fleet(variant + "-" + round, VARIANTS.get(variant), report, baselines);
					if (run.exitCode() != 0 && run.exitCode() != 3) {
						// the fleet did not start (exit 1, or the timeout): no verdict to count, and one
						// lost run must not lose the other rounds; the results file counts it
						results.get(variant).notStarted.add(run.exitCode());
						System.err.printf("%s-%d did not start (exit %d):%n%s%n", variant, round, run.exitCode(),
								tail(run.log()));
						continue;
					}
					results.get(variant).add(judge(report, baselines, run.exitCode()), run.seconds());
				}
				System.err.printf("round %d/%d done%n", round + 1, rounds);
			}
			assertThat(burner.running()).as("the burner lasted the whole benchmark").isTrue();
		}
		finally {
			sampler.shutdownNow();
			loadAfter = BenchLoad.now();
		}
		report(md, rounds, burnerThreads, results, loadBefore, loadAfter, load,
				Duration.ofNanos(System.nanoTime() - began));
	}

	/** The sample fleet, its model servers' loader at {@code loader}, gated against {@code baselines}. */
	private Run fleet(String id, String loader, Path report, List<Path> baselines) throws Exception {
		List<String> args = new ArrayList<>(List.of("--telemetry.supervisor.exit-when-ready=true",
				"--telemetry.supervisor.run-dir=" + this.tmp.resolve("run-" + id),
				"--telemetry.supervisor.report.json=" + report,
				"--telemetry.supervisor.report.html=" + this.tmp.resolve(id + ".html")));
		for (int i = 0; i < baselines.size(); i++) {
			args.add("--telemetry.supervisor.report.baseline[" + i + "]=" + baselines.get(i));
		}
		long start = System.nanoTime();
		try (JavaProcess supervisor = JavaProcess.jar(SampleJars.supervisor())
			.workingDir(SampleJars.repositoryRoot())
			.env("MANAGEMENT_OTLP_METRICS_EXPORT_ENABLED", "false")
			.env("SAMPLE_MODEL_LOADER_DURATION", loader)
			.args(args.toArray(String[]::new))
			.start(this.tmp.resolve("supervisor-" + id + ".log"))) {
			int exitCode = supervisor.awaitExit(TIMEOUT);
			keep(report);
			return new Run(exitCode, supervisor.log(), (System.nanoTime() - start) / 1e9);
		}
	}

	private static String tail(String log) {
		return log.substring(Math.max(0, log.length() - 4000));
	}

	/** A copy of each run's report under target/gate-reports, to replay or read after the benchmark. */
	private static void keep(Path report) throws java.io.IOException {
		Path kept = Path.of("target", "gate-reports");
		Files.createDirectories(kept);
		if (Files.exists(report)) {
			Files.copy(report, kept.resolve(report.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
		}
	}

	/** Both gates' verdicts on one run. */
	private Verdict judge(Path report, List<Path> baselines, int exitCode) throws Exception {
		JsonNode current = this.json.readTree(Files.readString(report));
		JsonNode comparison = current.get("comparison");
		List<String> culprits = new ArrayList<>();
		for (JsonNode change : comparison.get("changes")) {
			if (change.get("culprit").asBoolean()) {
				culprits.add(change.get("server").asString() + " " + change.get("unit").asString());
			}
		}
		boolean newGate = comparison.get("regressed").asBoolean();
		assertThat(exitCode).as("the supervisor's exit code says what its report says").isEqualTo(newGate ? 3 : 0);
		List<Map<String, Map<String, Double>>> before = new ArrayList<>();
		for (Path baseline : baselines) {
			before.add(oldGateTimes(this.json.readTree(Files.readString(baseline))));
		}
		List<String> oldNamed = oldGate(before, oldGateTimes(current));
		JsonNode speed = comparison.get("speed");
		return new Verdict(newGate, culprits, !oldNamed.isEmpty(), oldNamed,
				speed.get("factor").isNull() ? Double.NaN : speed.get("factor").asDouble());
	}

	/** Per server: {@code spawn→ready} and each stage's duration, as the old gate read a report. */
	private static Map<String, Map<String, Double>> oldGateTimes(JsonNode report) {
		Map<String, Map<String, Double>> servers = new LinkedHashMap<>();
		for (JsonNode server : report.get("servers")) {
			Map<String, Double> times = new LinkedHashMap<>();
			if (server.get("spawnToReadyMs").isNumber()) {
				times.put("spawn→ready", server.get("spawnToReadyMs").asDouble());
			}
			for (JsonNode stage : server.get("stages")) {
				times.merge("stage " + stage.get("name").asString(), stage.get("durationMs").asDouble(), Double::sum);
			}
			servers.putIfAbsent(server.get("name").asString(), times);
		}
		return servers;
	}

	/**
	 * The gate before issue 24, replayed: against the median of the baseline runs that have it,
	 * a server's spawn→ready or a stage more than 25% and more than 200 ms slower regressed.
	 * @return what regressed, {@code server unit}
	 */
	static List<String> oldGate(List<Map<String, Map<String, Double>>> baselines, Map<String, Map<String, Double>> current) {
		List<String> regressed = new ArrayList<>();
		current.forEach((server, times) -> times.forEach((unit, ms) -> {
			List<Double> before = new ArrayList<>();
			for (Map<String, Map<String, Double>> baseline : baselines) {
				Double value = baseline.getOrDefault(server, Map.of()).get(unit);
				if (value != null) {
					before.add(value);
				}
			}
			if (!before.isEmpty()) {
				double median = median(before);
				if (ms - median > Math.max(RELATIVE * median, FLOOR_MS)) {
					regressed.add(server + " " + unit);
				}
			}
		}));
		return regressed;
	}

	private static double median(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

	private static void report(BenchReport md, int rounds, int burnerThreads, Map<String, Result> results,
			double loadBefore, double loadAfter, List<Double> load, Duration took) throws Exception {
		Samples loadSamples = new Samples();
		load.forEach(loadSamples::add);
		md.line("Under a bounded background CPU burner (%d spinning threads in a child JVM, started before the first run "
				+ "and stopped after the last), %d baseline runs of the sample fleet (model-0, model-1 with the model "
				+ "loader, resources with its own 300 ms loader; `-XX:TieredStopAtLevel=1`), then %d round(s) of three runs "
				+ "in rotating order: unchanged, the model servers' `modelLoader` bean +500 ms and +1 s "
				+ "(`SAMPLE_MODEL_LOADER_DURATION` 2000ms / 2500ms against 1500ms). Every measured run is gated against the "
				+ "3 baseline reports twice: by the supervisor itself with the defaults (`max-regression=25%%,200ms`, "
				+ "`spread-multiplier=3`, the speed factor on: its exit code and its JSON report's `comparison`), and by "
				+ "the old gate replayed over the same JSON reports (`GateQualityBenchmark.oldGate`: median of the "
				+ "baselines, a server's spawn→ready or a stage more than 25%% and 200 ms slower regressed, slow beans "
				+ "never gate).", burnerThreads, BASELINE_RUNS, rounds);
		md.line("");
		md.line("Load average (1 min): %.2f before the burner started, %.2f after it stopped; while it ran "
				+ "(sampled every 5 s, %d samples) median %.2f, min %.2f, max %.2f. The whole benchmark took %d min %d s.",
				loadBefore, loadAfter, loadSamples.size(), loadSamples.median(), loadSamples.percentile(0),
				loadSamples.max(), took.toMinutes(), took.toSecondsPart());
		md.line("");
		md.line("| variant | runs | new gate flagged | named `modelLoader` of a model server | old gate flagged | "
				+ "speed factor, median (min-max) | run wall time, median (s) |");
		md.line("|---|---|---|---|---|---|---|");
		results.forEach((name, r) -> md.line("| %s | %d | %d (%.0f%%) | %d | %d (%.0f%%) | %.2f (%.2f-%.2f) | %.0f |", name,
				r.verdicts.size(), r.newFlagged(), 100.0 * r.newFlagged() / r.verdicts.size(), r.namedLoader(),
				r.oldFlagged(), 100.0 * r.oldFlagged() / r.verdicts.size(), r.speed().median(), r.speed().percentile(0),
				r.speed().max(), r.seconds.median()));
		md.line("");
		Result unchanged = results.get("unchanged");
		Result plus500 = results.get("+500 ms");
		Result plus1s = results.get("+1 s");
		md.line("Targets (new gate; a slower run counts as detected when its verdict named a model server's "
				+ "`modelLoader`, not merely failed): detection of the +1 s bean ≥ 95%%: %d/%d → %s; of the +500 ms bean "
				+ "≥ 80%%: %d/%d → %s; false alarms ≤ 5%%: %d/%d → %s.%s", plus1s.namedLoader(), plus1s.verdicts.size(),
				BenchReport.verdict(plus1s.namedLoader() >= 0.95 * plus1s.verdicts.size()), plus500.namedLoader(),
				plus500.verdicts.size(), BenchReport.verdict(plus500.namedLoader() >= 0.8 * plus500.verdicts.size()),
				unchanged.newFlagged(), unchanged.verdicts.size(),
				BenchReport.verdict(unchanged.newFlagged() <= 0.05 * unchanged.verdicts.size()),
				(rounds < 20) ? String.format(Locale.ROOT, " With %d runs per variant one run is %.0f%%: the rates are "
						+ "coarse, read the counts.", rounds, 100.0 / rounds) : "");
		md.line("New gate, runs failed for any reason: +1 s %d/%d, +500 ms %d/%d. Old gate on the same reports (it cannot "
				+ "name a bean: runs failed): +1 s %d/%d, +500 ms %d/%d, false alarms %d/%d.", plus1s.newFlagged(),
				plus1s.verdicts.size(), plus500.newFlagged(), plus500.verdicts.size(), plus1s.oldFlagged(),
				plus1s.verdicts.size(), plus500.oldFlagged(), plus500.verdicts.size(), unchanged.oldFlagged(),
				unchanged.verdicts.size());
		results.forEach((name, r) -> {
			if (!r.notStarted.isEmpty()) {
				md.line("%s: %d run(s) did not start (exit codes %s) and are in neither gate's counts.", name,
						r.notStarted.size(), r.notStarted);
			}
		});
		md.line("");
		md.line("## What each verdict named");
		md.line("");
		md.line("New gate: the culprits (regressed units nothing inside them accounts for), with how many runs named each. "
				+ "Old gate: every regressed server or stage.");
		md.line("");
		results.forEach((name, r) -> {
			md.line("- %s, new gate: %s", name, r.named(true));
			md.line("- %s, old gate: %s", name, r.named(false));
		});
		md.line("");
		md.line("Per run, in order (new gate's culprits / old gate's regressions; `-` for a pass). The reports are kept "
				+ "in `benchmarks/process/target/gate-reports/` (`report.Compare` replays any of them):");
		md.line("");
		results.forEach((name, r) -> {
			md.line("- %s:", name);
			for (int i = 0; i < r.verdicts.size(); i++) {
				Verdict v = r.verdicts.get(i);
				md.line("  %d. speed ×%.2f; new: %s; old: %s", i + 1, v.speedFactor(),
						v.newFlagged() ? String.join(", ", v.newNamed()) : "-",
						v.oldFlagged() ? String.join(", ", v.oldNamed()) : "-");
			}
		});
		md.write("gate");
	}

	private static Map<String, String> variants() {
		Map<String, String> variants = new LinkedHashMap<>();
		variants.put("unchanged", "1500ms");
		variants.put("+500 ms", "2000ms");
		variants.put("+1 s", "2500ms");
		return variants;
	}

	private record Run(int exitCode, String log, double seconds) {

	}

	/** One run's verdicts. */
	private record Verdict(boolean newFlagged, List<String> newNamed, boolean oldFlagged, List<String> oldNamed,
			double speedFactor) {

	}

	/** One variant's runs. */
	private static final class Result {

		final List<Verdict> verdicts = new ArrayList<>();

		/** The exit codes of the runs that did not start (counted beside, judged by neither gate). */
		final List<Integer> notStarted = new ArrayList<>();

		final Samples seconds = new Samples();

		void add(Verdict verdict, double seconds) {
			this.verdicts.add(verdict);
			this.seconds.add(seconds);
		}

		int newFlagged() {
			return (int) this.verdicts.stream().filter(Verdict::newFlagged).count();
		}

		int oldFlagged() {
			return (int) this.verdicts.stream().filter(Verdict::oldFlagged).count();
		}

		/** Runs whose new verdict named a model server's modelLoader. */
		int namedLoader() {
			return (int) this.verdicts.stream()
				.filter((v) -> v.newNamed().stream().anyMatch((unit) -> unit.matches("model-\\d+ bean modelLoader")))
				.count();
		}

		Samples speed() {
			Samples speed = new Samples();
			this.verdicts.stream().filter((v) -> !Double.isNaN(v.speedFactor())).forEach((v) -> speed.add(v.speedFactor()));
			return speed;
		}

		String named(boolean newGate) {
			Map<String, Integer> counts = new TreeMap<>();
			for (Verdict v : this.verdicts) {
				for (String unit : newGate ? v.newNamed() : v.oldNamed()) {
					counts.merge(unit, 1, Integer::sum);
				}
			}
			return counts.isEmpty() ? "nothing" : String.join(", ",
					counts.entrySet().stream().map((e) -> e.getKey() + " " + e.getValue() + "×").toList());
		}

	}

	/** The 1-minute load average. */
	private static final class BenchLoad {

		static double now() {
			return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
		}

	}

}
