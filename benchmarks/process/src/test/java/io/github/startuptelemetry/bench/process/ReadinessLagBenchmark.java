package io.github.startuptelemetry.bench.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.SampleJars;

/**
 * {@code bench/run.sh readiness [STARTS]}: how late a supervisor notices that a server is ready.
 * Per server start, the lag is the end of the supervisor's {@code gym.startup.server} (its
 * {@code serverReady}: the server's ready callback or its first healthy probe, whichever came
 * first) minus the end of the server's own {@code gym.server.startup} (its
 * {@code ApplicationReadyEvent}), both read from the exported trace. The sample supervisor runs
 * its sample fleet (three real sample-server JVMs at once) until STARTS servers have started,
 * once with the readiness callback (the default) and once with it turned off (polling only),
 * runs paired and interleaved. Beside that recorded lag it reports the applied lag: from the
 * server's {@code ApplicationReadyEvent} to the instant the supervisor's run acted on the
 * readiness (its state flipped, the run's wait woken), and when its telemetry was told (the
 * span ended, the metric recorded, on the run's telemetry thread), which the supervisor's run
 * logs at debug with its epoch-ns readings. Not part of the normal build
 * (surefire excludes {@code *Benchmark}).
 */
class ReadinessLagBenchmark {

	private static final Duration TIMEOUT = Duration.ofSeconds(180);

	/** The sample fleet: two model servers and one resources server. */
	private static final int SAMPLE_FLEET = 3;

	/** Servers started at once ({@code bench.fleet}): the sample fleet, or that many sample servers. */
	private final int fleetSize = Integer.getInteger("bench.fleet", SAMPLE_FLEET);

	private static final Map<String, List<String>> VARIANTS = variants();

	/** The heading of the hand-taken profile that a re-run keeps. */
	private static final String PROFILE = "## Where the lag goes, hop by hop";

	/**
	 * The supervisor's run's debug line for each server it made ready: the instant it applied it,
	 * and the instant its telemetry (span end, metric) was told.
	 */
	private static final Pattern APPLIED = Pattern.compile("Server '([^']+)' is ready \\((\\w+)\\); the run applied it "
			+ "at (\\d+) epoch ns, [^;]*; its telemetry was told at (\\d+) epoch ns");

	/** Turns that line on: the benchmark's only change to the supervisor's logging. */
	private static final String APPLIED_LOGGING = "--logging.level.io.github.startuptelemetry.fleet.FleetRun=debug";

	@TempDir
	Path tmp;

	@Test
	void readinessLag() throws Exception {
		BenchReport md = new BenchReport("Readiness detection lag", "bench/run.sh readiness");
		int starts = Integer.getInteger("bench.runs", 30);
		int runs = (starts + this.fleetSize - 1) / this.fleetSize;
		Map<String, Result> results = new LinkedHashMap<>();
		VARIANTS.keySet().forEach((name) -> results.put(name, new Result()));
		// one uncounted round: the page cache, the jars' first unpacking
		startFleet(-1, VARIANTS.keySet().iterator().next(), new Result());
		for (int run = 0; run < runs; run++) {
			for (int k = 0; k < VARIANTS.size(); k++) {
				String variant = List.copyOf(VARIANTS.keySet()).get((run + k) % VARIANTS.size());
				startFleet(run, variant, results.get(variant));
			}
			System.err.printf("run %d/%d done%n", run + 1, runs);
		}
		report(md, runs, results);
		Result callback = results.values().iterator().next();
		assertThat(callback.lag.size()).isEqualTo(runs * this.fleetSize);
	}

	private void startFleet(int run, String variant, Result result) throws Exception {
		String id = run + "-" + (variant.startsWith("callback") ? "callback" : "poll");
		try (OtlpReceiver receiver = OtlpReceiver.start();
				JavaProcess supervisor = JavaProcess.jar(SampleJars.supervisor())
					.workingDir(SampleJars.repositoryRoot())
					.env("MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT", receiver.tracesEndpoint())
					.env("MANAGEMENT_OTLP_METRICS_EXPORT_ENABLED", "false")
					.env("SAMPLE_MODEL_LOADER_DURATION", "200ms")
					.args(VARIANTS.get(variant).toArray(String[]::new))
					.args("--telemetry.supervisor.exit-when-ready=true",
							"--telemetry.supervisor.run-dir=" + this.tmp.resolve("run-" + id), APPLIED_LOGGING)
					.args(fleet())
					.start(this.tmp.resolve("supervisor-" + id + ".log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
			List<ReceivedSpan> spans = receiver.awaitSpans((all) -> count(all, "gym.startup.server") == this.fleetSize
					&& count(all, "gym.server.startup") == this.fleetSize, TIMEOUT);
			Map<String, ReceivedSpan> servers = byServerName(spans, "gym.server.startup");
			Map<String, long[]> applied = appliedNs(supervisor.log());
			for (ReceivedSpan supervised : spans) {
				if (!supervised.name().equals("gym.startup.server")) {
					continue;
				}
				ReceivedSpan server = servers.get(supervised.attribute("nemo.gym.server.name"));
				result.lag.add(ms(supervised.endNs() - server.endNs()));
				long[] appliedNs = applied.get(supervised.attribute("nemo.gym.server.name"));
				assertThat(appliedNs).as("the run's applied line for %s in %s", server.attribute("nemo.gym.server.name"),
						supervisor.logFile()).isNotNull();
				result.applied.add(ms(appliedNs[0] - server.endNs()));
				result.told.add(ms(appliedNs[1] - server.endNs()));
				result.sources.merge(String.valueOf(supervised.attribute("startup.readiness.source")), 1, Integer::sum);
				result.spawnToReady.add(ms(supervised.endNs() - supervised.startNs()));
				result.serverTotal.add(ms(server.endNs() - server.startNs()));
				ReceivedSpan ready = spans.stream()
					.filter((s) -> s.name().equals("gym.server.startup.application_ready")
							&& s.parentSpanId().equals(server.spanId()))
					.findFirst()
					.orElseThrow();
				result.readyStage.add(ms(ready.endNs() - ready.startNs()));
			}
		}
	}

	/**
	 * The instants (epoch ns) the run applied each server's readiness and told its telemetry, by
	 * server name, from its log.
	 */
	private static Map<String, long[]> appliedNs(String log) {
		Map<String, long[]> applied = new LinkedHashMap<>();
		Matcher line = APPLIED.matcher(log);
		while (line.find()) {
			applied.put(line.group(1), new long[] { Long.parseLong(line.group(3)), Long.parseLong(line.group(4)) });
		}
		return applied;
	}

	/** Nothing for the sample fleet; else that many replicas of the sample's model server. */
	private String[] fleet() {
		if (this.fleetSize == SAMPLE_FLEET) {
			return new String[0];
		}
		String server = "--telemetry.supervisor.servers[0].";
		return new String[] { server + "name=model", server + "replicas=" + this.fleetSize, server + "command[0]={java}",
				server + "command[1]=-XX:TieredStopAtLevel=1", server + "command[2]=-jar",
				server + "command[3]=sample-server/target/sample-server.jar", server + "command[4]=--server.port={port}",
				server + "command[5]=--spring.application.name={name}" };
	}

	private void report(BenchReport md, int runs, Map<String, Result> results) throws Exception {
		md.line("%d supervisor runs per variant, interleaved, after one uncounted run, each starting %s (%d "
				+ "sample-server JVMs at once, `-XX:TieredStopAtLevel=1`, probe initial interval 10 ms): %d server "
				+ "starts per variant.", runs, (this.fleetSize == SAMPLE_FLEET) ? "the sample fleet" : "a fleet",
				this.fleetSize, runs * this.fleetSize);
		md.line("Recorded lag = end of the supervisor's `gym.startup.server` (its `serverReady`: when the ready "
				+ "callback's first bytes arrived, counted once its body proved valid, or the first healthy probe, "
				+ "whichever came first) minus end of the server's `gym.server.startup` (its `ApplicationReadyEvent`). "
				+ "Applied lag = the instant the supervisor's run applied that readiness (its state says the server is "
				+ "ready, the startup's record of it holds its outcome and end, the run's wait is woken: what "
				+ "the fleet, `exit-when-ready` and the report wait on; the run's debug line `Server '…' is ready "
				+ "(…); the run applied it at <epoch ns>`) minus the same `ApplicationReadyEvent`: what the "
				+ "supervisor can act on. Telemetry told = when the run's telemetry thread had ended that "
				+ "`gym.startup.server` span (at the recorded instant) and recorded its metric, the same line's "
				+ "`its telemetry was told at <epoch ns>`: after the applied instant, and never after `gym.startup` "
				+ "ends or the report is built. The recorded lag dates the event; the applied lag is when it is known. "
				+ "p99 is nearest-rank: with fewer than 100 starts it is the maximum.");
		md.line("");
		md.line("| variant | starts | made ready by (`startup.readiness.source`) | recorded lag median (ms) | p90 | p99 | "
				+ "applied lag median (ms) | p90 | p99 | telemetry told, median (ms) | p99 | spawn→ready seen by "
				+ "supervisor, median | server's own startup, median | its application_ready stage, median |");
		md.line("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
		results.forEach((name, r) -> md.line(
				"| %s | %d | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f | %.0f | %.0f |", name,
				r.lag.size(), r.sources, r.lag.median(), r.lag.percentile(90), r.lag.percentile(99), r.applied.median(),
				r.applied.percentile(90), r.applied.percentile(99), r.told.median(), r.told.percentile(99),
				r.spawnToReady.median(), r.serverTotal.median(), r.readyStage.median()));
		md.line("");
		md.line("All lags (ms), in order, recorded / applied / telemetry told:");
		md.line("");
		results.forEach((name, r) -> md.line("- %s: recorded %s; applied %s; told %s", name, r.lag.all(), r.applied.all(),
				r.told.all()));
		Result callback = results.values().iterator().next();
		md.line("");
		md.line("Target (default, with callbacks): median ≤ 5 ms, p99 ≤ 20 ms. Recorded: %.1f → %s, %.1f → %s. "
				+ "Applied: %.1f → %s, %.1f → %s.", callback.lag.median(), BenchReport.verdict(callback.lag.median() <= 5),
				callback.lag.percentile(99), BenchReport.verdict(callback.lag.percentile(99) <= 20),
				callback.applied.median(), BenchReport.verdict(callback.applied.median() <= 5),
				callback.applied.percentile(99), BenchReport.verdict(callback.applied.percentile(99) <= 20));
		md.keepByHand("readiness-lag", PROFILE);
		md.write("readiness-lag");
	}

	private static Map<String, List<String>> variants() {
		Map<String, List<String>> variants = new LinkedHashMap<>();
		variants.put("callback (default)", List.of());
		variants.put("polling (telemetry.supervisor.callback.enabled=false)",
				List.of("--telemetry.supervisor.callback.enabled=false"));
		return variants;
	}

	private static Map<String, ReceivedSpan> byServerName(List<ReceivedSpan> spans, String name) {
		Map<String, ReceivedSpan> byName = new LinkedHashMap<>();
		spans.stream().filter((s) -> s.name().equals(name)).forEach((s) -> byName.put(s.attribute("nemo.gym.server.name"), s));
		return byName;
	}

	private static long count(List<ReceivedSpan> spans, String name) {
		return spans.stream().filter((s) -> s.name().equals(name)).count();
	}

	private static double ms(long ns) {
		return ns / 1e6;
	}

	/** What one variant measured, per server start. */
	private static final class Result {

		final Samples lag = new Samples();

		final Samples applied = new Samples();

		final Samples told = new Samples();

		final Map<String, Integer> sources = new TreeMap<>();

		final Samples spawnToReady = new Samples();

		final Samples serverTotal = new Samples();

		final Samples readyStage = new Samples();

	}

}
