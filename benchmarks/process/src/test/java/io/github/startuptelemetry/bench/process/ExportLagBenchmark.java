package io.github.startuptelemetry.bench.process;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.FirstResponse;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.Spans;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench/run.sh export [STARTS]}: the export moved off the startup's path still gets there
 * (issue 22). Per start, the lag is when the request carrying the server's {@code gym.server.startup}
 * reached a real OTLP/HTTP receiver on loopback (the receiver's wall clock) minus that span's end
 * (its {@code ApplicationReadyEvent}, the server's wall clock: one host, one clock). Two apps,
 * interleaved: the plain web app with the starter (no SDK of its own: the starter builds one on its
 * export thread, after ready, the first time, in that lag) and the Boot app with actuator and Boot's
 * OpenTelemetry plus the starter (the application's SDK). Not part of the normal build (surefire
 * excludes {@code *Benchmark}).
 */
class ExportLagBenchmark {

	private static final Duration TIMEOUT = Duration.ofSeconds(180);

	@TempDir
	Path tmp;

	@Test
	void readyToSpansAtTheCollector() throws Exception {
		BenchReport md = new BenchReport("Ready to spans at the collector", "bench/run.sh export");
		int starts = Integer.getInteger("bench.runs", 20);
		Map<String, Path> apps = new LinkedHashMap<>();
		apps.put("plain web app + starter (the starter's own SDK, built after ready)", SampleJars.plainAppWithStarter());
		apps.put("Boot app with actuator and OpenTelemetry + starter (the application's SDK)", SampleJars.startupApp());
		Map<String, Samples> lags = new LinkedHashMap<>();
		apps.keySet().forEach((name) -> lags.put(name, new Samples()));
		// one uncounted start of each: the page cache, the jars' first unpacking
		for (Path jar : apps.values()) {
			start(jar, -1);
		}
		List<String> names = List.copyOf(apps.keySet());
		for (int run = 0; run < starts; run++) {
			for (int k = 0; k < names.size(); k++) {
				String name = names.get((run + k) % names.size());
				lags.get(name).add(start(apps.get(name), run));
			}
			System.err.printf("start %d/%d done%n", run + 1, starts);
		}
		md.line("%d starts per app, interleaved, after one uncounted start of each; `java -XX:TieredStopAtLevel=1 -jar`, "
				+ "`OTEL_EXPORTER_OTLP_ENDPOINT` a real OTLP/HTTP receiver on loopback decoding protobuf. Lag = arrival of "
				+ "the request carrying `gym.server.startup` at the receiver minus that span's end (`ApplicationReadyEvent`). "
				+ "p99 is nearest-rank: with fewer than 100 starts it is the maximum. No target: it shows the spans still "
				+ "leave promptly now that the export runs on a background thread after the readiness flip.", starts);
		md.line("");
		md.line("| app | starts | lag median (ms) | p90 | p99 |");
		md.line("|---|---|---|---|---|");
		lags.forEach((name, lag) -> md.line("| %s | %d | %.0f | %.0f | %.0f |", name, lag.size(), lag.median(),
				lag.percentile(90), lag.percentile(99)));
		md.line("");
		md.line("All lags (ms), in order:");
		md.line("");
		lags.forEach((name, lag) -> md.line("- %s: %s", name, lag.all()));
		md.write("export-lag");
		lags.values().forEach((lag) -> assertThat(lag.size()).isEqualTo(starts));
	}

	/** One start until its root span arrived; the lag in ms. */
	private double start(Path jar, int run) throws Exception {
		int port = Ports.free();
		try (OtlpReceiver receiver = OtlpReceiver.start();
				JavaProcess app = JavaProcess.jar(jar)
					.withoutEnv("SLURM_JOB_ID")
					.env("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.baseUrl())
					.args("--server.port=" + port)
					.start(this.tmp.resolve("app-" + run + "-" + jar.getFileName() + ".log"))) {
			FirstResponse.await(app, URI.create("http://127.0.0.1:" + port + "/hello"), TIMEOUT);
			List<ReceivedSpan> spans = receiver.awaitSpansNamed("gym.server.startup", 1, TIMEOUT);
			ReceivedSpan root = Spans.only(Spans.ofProcess(spans, app.pid()), "gym.server.startup");
			return (root.receivedEpochNs() - root.endNs()) / 1e6;
		}
	}

}
