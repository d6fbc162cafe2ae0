package io.github.startuptelemetry.bench.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.OtlpReceiver.Request;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench/run.sh trace-volume [STARTS]}: what one server adds to a fleet's startup trace
 * (issue 34), in spans and in OTLP bytes, as the bean-span threshold bounds it. Each start is one
 * server JVM exporting to a receiver of its own: the spans of its trace, the bytes of the
 * requests that carried them (OTLP/protobuf, uncompressed; the resource once a request). Not part
 * of the normal build (surefire excludes {@code *Benchmark}).
 */
class TraceVolumeBenchmark {

	private static final Duration TIMEOUT = Duration.ofSeconds(180);

	/** What the supervisor's trace adds per server: its {@code gym.startup.server} span (bench/results/scale.md). */
	private static final int SUPERVISOR_BYTES_PER_SERVER = 244;

	@TempDir
	Path tmp;

	@Test
	void whatAServerAddsToTheTrace() throws Exception {
		BenchReport md = new BenchReport("Trace volume: what a server adds to a fleet's startup trace (issue 34)",
				"bench/run.sh trace-volume");
		int starts = Integer.getInteger("bench.runs", 3);
		Map<String, Path> apps = new LinkedHashMap<>();
		apps.put("sample server (a Boot web app, a 200 ms model loader)", SampleJars.server());
		apps.put("Boot app with actuator and OpenTelemetry + starter", SampleJars.startupApp());
		Map<String, String> thresholds = new LinkedHashMap<>();
		thresholds.put("20ms (the default)", null);
		thresholds.put("100ms", "100ms");
		thresholds.put("bean spans off", "off");
		md.line("%d starts of each app and setting, `java -jar`, `OTEL_EXPORTER_OTLP_ENDPOINT` a real OTLP/HTTP receiver "
				+ "on loopback decoding protobuf. Spans: the server's trace (`gym.server.startup`, its stages, its slow "
				+ "beans and steps). Bytes: the requests that carried them, as sent (uncompressed OTLP/protobuf, the "
				+ "resource once a request). A fleet of 1,000 adds its supervisor's `gym.startup.server` span per server "
				+ "(%d B each: bench/results/scale.md) and its root and stages.", starts, SUPERVISOR_BYTES_PER_SERVER);
		md.line("");
		md.line("| app | `telemetry.startup.bean-spans` | spans per server (min-max) | bytes per server (median) | "
				+ "a 1,000-server trace: spans / MB |");
		md.line("|---|---|---|---|---|");
		for (Map.Entry<String, Path> app : apps.entrySet()) {
			for (Map.Entry<String, String> threshold : thresholds.entrySet()) {
				Samples spans = new Samples();
				Samples bytes = new Samples();
				for (int run = 0; run < starts; run++) {
					long[] measured = start(app.getValue(), threshold.getValue(), run);
					spans.add(measured[0]);
					bytes.add(measured[1]);
				}
				double fleetSpans = 1000 * (spans.median() + 1) + 10;
				double fleetMb = 1000 * (bytes.median() + SUPERVISOR_BYTES_PER_SERVER) / 1e6;
				md.line("| %s | %s | %.0f (%.0f-%.0f) | %.0f | %.0f / %.1f |", app.getKey(), threshold.getKey(),
						spans.median(), spans.percentile(0), spans.percentile(100), bytes.median(), fleetSpans, fleetMb);
				System.err.printf("%s, %s: %s spans, %s bytes%n", app.getKey(), threshold.getKey(), spans.all(),
						bytes.all());
			}
		}
		md.line("");
		md.line("Grafana Tempo refuses a trace past `max_bytes_per_trace` (5,000,000 bytes by default); an OpenTelemetry "
				+ "Collector a request past 4 MiB over gRPC, 20 MiB over HTTP (each server's own requests are a few kB).");
		md.write("trace-volume");
	}

	/** One start until its root span arrived: its trace's spans and the bytes of the requests that carried them. */
	private long[] start(Path jar, String threshold, int run) throws Exception {
		int port = Ports.free();
		JavaProcess.Builder builder = JavaProcess.jar(jar).withoutEnv("SLURM_JOB_ID").args("--server.port=" + port);
		if ("off".equals(threshold)) {
			builder.args("--telemetry.startup.bean-spans.enabled=false");
		}
		else if (threshold != null) {
			builder.args("--telemetry.startup.bean-spans.threshold=" + threshold);
		}
		try (OtlpReceiver receiver = OtlpReceiver.start();
				JavaProcess app = builder.env("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.baseUrl())
					.start(this.tmp.resolve("app-" + run + "-" + jar.getFileName() + "-" + threshold + ".log"))) {
			// no request is made of it: the only spans are its startup's
			List<ReceivedSpan> roots = receiver.awaitSpansNamed("gym.server.startup", 1, TIMEOUT);
			String traceId = roots.get(0).traceId();
			// every span of its trace has arrived once the requests that carried them have: they go in one batch
			List<ReceivedSpan> trace = receiver.spans().stream().filter((span) -> span.traceId().equals(traceId)).toList();
			long bytes = receiver.requests()
				.stream()
				.filter(Request::traces)
				.mapToLong(Request::bytes)
				.sum();
			assertThat(receiver.spans()).as("the startup's spans, nothing else").hasSameSizeAs(trace);
			return new long[] { trace.size(), bytes };
		}
	}

}
