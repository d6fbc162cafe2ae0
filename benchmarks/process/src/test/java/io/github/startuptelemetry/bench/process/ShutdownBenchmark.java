package io.github.startuptelemetry.bench.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.BlackHoleCollector;
import io.github.startuptelemetry.it.support.Http;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench/run.sh shutdown [RUNS]}: how long a server takes to exit after SIGTERM when its
 * collector is dead, with 3000 spans queued for export. One app (the startup benchmark's), with
 * the starter and a shutdown budget ({@code telemetry.shutdown-timeout}) of 2 s and of 5 s, and
 * without it (plain Boot: the same Boot and OpenTelemetry), with OTLP metrics off and on;
 * against a collector that accepts and never answers and one that refuses. Runs interleaved.
 * Not part of the normal build.
 */
class ShutdownBenchmark {

	private static final Duration TIMEOUT = Duration.ofSeconds(120);

	private static final int BURST = 3000;


	@TempDir
	Path tmp;

	@Test
	void exitAfterSigtermAgainstADeadCollector() throws Exception {
		BenchReport md = new BenchReport("Shutdown against a dead collector", "bench/run.sh shutdown");
		int runs = Integer.getInteger("bench.runs", 5);
		List<Variant> variants = variants();
		Map<Variant, Samples> exits = new LinkedHashMap<>();
		variants.forEach((variant) -> exits.put(variant, new Samples()));
		for (int run = 0; run < runs; run++) {
			for (int k = 0; k < variants.size(); k++) {
				Variant variant = variants.get((run + k) % variants.size());
				exits.get(variant).add(exitMs(variant, run));
			}
			System.err.printf("run %d/%d done%n", run + 1, runs);
		}
		md.line("%d runs per variant, interleaved (order rotated each run). Exit = SIGTERM to process exit, once "
				+ "the app is ready and `/burst` has queued %d spans (with the black hole, once an export hangs "
				+ "in it). The app is `benchmarks/startup-app`: `startup-app-starter.jar` (with the starter) and "
				+ "`startup-app-baseline.jar` (plain Boot 4.0.7 + OpenTelemetry, no starter), OTLP traces and "
				+ "metrics to the collector through Boot's own properties, sampling 1.0.", runs, BURST);
		md.line("");
		md.line("| variant | exit median (ms) | max (ms) | all (ms) | target | verdict |");
		md.line("|---|---|---|---|---|---|");
		for (Variant variant : variants) {
			Samples samples = exits.get(variant);
			String target = (variant.budget() != null) ? "≤ " + (variant.budget().toMillis() + 100) + " ms" : "baseline";
			String verdict = (variant.budget() != null)
					? BenchReport.verdict(samples.max() <= variant.budget().toMillis() + 100) : "";
			md.line("| %s | %.0f | %.0f | %s | %s | %s |", variant.name(), samples.median(), samples.max(), samples.all(),
					target, verdict);
		}
		md.write("shutdown");
		assertThat(exits.values()).allSatisfy((samples) -> assertThat(samples.size()).isEqualTo(runs));
	}

	private double exitMs(Variant variant, int run) throws Exception {
		try (BlackHoleCollector blackHole = BlackHoleCollector.start()) {
			String collector = variant.blackHole() ? blackHole.baseUrl() : BlackHoleCollector.refusingBaseUrl();
			Path log = this.tmp.resolve(variant.name().replaceAll("[^A-Za-z0-9]+", "-") + "-" + run + ".log");
			int port = Ports.free();
			try (JavaProcess server = variant.server(collector, port).start(log)) {
				server.awaitLog("Started StartupApplication", TIMEOUT);
				Http.get("http://127.0.0.1:" + port + "/burst?spans=" + BURST);
				if (variant.blackHole()) {
					// a full batch goes out at once: an export hangs in the black hole
					blackHole.awaitConnection(TIMEOUT);
				}
				long start = System.nanoTime();
				server.terminate();
				server.awaitExit(TIMEOUT);
				return (System.nanoTime() - start) / 1e6;
			}
		}
	}

	private static List<Variant> variants() {
		List<Variant> variants = new ArrayList<>();
		for (Duration budget : List.of(Duration.ofSeconds(2), Duration.ofSeconds(5))) {
			variants.add(new Variant(budget, true, true));
			variants.add(new Variant(budget, false, true));
		}
		variants.add(new Variant(Duration.ofSeconds(2), true, false));
		for (boolean metrics : List.of(false, true)) {
			variants.add(new Variant(null, true, metrics));
			variants.add(new Variant(null, false, metrics));
		}
		return variants;
	}

	/**
	 * One way to run a server.
	 *
	 * @param budget the starter's shutdown budget, or {@code null} for plain Boot
	 * @param blackHole whether the collector accepts and never answers (else it refuses)
	 * @param metrics whether OTLP metrics go to the collector too
	 */
	private record Variant(Duration budget, boolean blackHole, boolean metrics) {

		String name() {
			String collector = this.blackHole ? "black hole" : "refused";
			return ((this.budget != null) ? "starter, budget " + this.budget.toSeconds() + " s" : "plain Boot") + ", "
					+ collector + ", OTLP metrics " + (this.metrics ? "on" : "off");
		}

		JavaProcess.Builder server(String collector, int port) {
			JavaProcess.Builder app = (this.budget != null)
					? JavaProcess.jar(SampleJars.startupApp())
						.args("--telemetry.shutdown-timeout=" + this.budget.toMillis() + "ms")
					: JavaProcess.jar(SampleJars.plainBoot());
			return app.args("--server.port=" + port,
					"--management.opentelemetry.tracing.export.otlp.endpoint=" + collector + "/v1/traces",
					"--management.otlp.metrics.export.url=" + collector + "/v1/metrics",
					"--management.otlp.metrics.export.enabled=" + this.metrics,
					"--management.tracing.sampling.probability=1.0",
					"--management.opentelemetry.tracing.export.max-queue-size=" + (2 * BURST));
		}

	}

}
