import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the starter costs at startup: the same Boot + OpenTelemetry app in three builds that
 * differ only in the starter (absent, enabled, present but TELEMETRY_ENABLED=false), started
 * interleaved so that drift on a noisy box hits every variant alike. Per start: wall time from
 * spawn to the first healthy response, the JVM's CPU time at that moment, and the classes it
 * loaded (-Xlog:class+load). Reports medians and ratios to the baseline.
 *
 * Usage: java bench/StartupCostBench.java RUNS APP_JAR BASELINE_JAR OUT.md
 */
public class StartupCostBench {

	record Sample(double wallMs, double cpuMs, int classes, int otelClasses, int otelSdkClasses, int ourClasses) {
	}

	record Variant(String name, Path jar, Map<String, String> env) {
	}

	static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build();

	static final long CLOCK_TICKS = 100;

	public static void main(String[] args) throws Exception {
		int runs = Integer.parseInt(args[0]);
		Path app = Path.of(args[1]);
		Path baseline = Path.of(args[2]);
		Path out = Path.of(args[3]);
		List<Variant> variants = List.of(new Variant("baseline (Boot + OTel, no starter)", baseline, Map.of()),
				new Variant("starter enabled", app, Map.of()),
				new Variant("starter disabled (TELEMETRY_ENABLED=false)", app, Map.of("TELEMETRY_ENABLED", "false")));
		Map<Variant, List<Sample>> samples = new LinkedHashMap<>();
		variants.forEach((v) -> samples.put(v, new ArrayList<>()));
		// one warm-up round (page cache, JIT of the launcher) is not counted
		for (Variant v : variants) {
			start(v);
		}
		for (int run = 0; run < runs; run++) {
			for (int k = 0; k < variants.size(); k++) {
				// rotate the order each run, so no variant always goes first
				Variant v = variants.get((run + k) % variants.size());
				samples.get(v).add(start(v));
			}
			System.err.printf("run %d/%d done%n", run + 1, runs);
		}
		Files.writeString(out, report(runs, samples));
		System.out.println(Files.readString(out));
	}

	static Sample start(Variant variant) throws Exception {
		Path classLog = Files.createTempFile("classes", ".log");
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xlog:class+load=info:file=" + classLog, "-jar", variant.jar().toString(), "--server.port=" + port);
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD);
		builder.environment().keySet().removeIf((k) -> k.startsWith("TELEMETRY_") || k.startsWith("OTEL_"));
		builder.environment().putAll(variant.env());
		long t0 = System.nanoTime();
		Process process = builder.start();
		try {
			URI health = URI.create("http://127.0.0.1:" + port + "/actuator/health");
			while (!healthy(health)) {
				if (!process.isAlive()) {
					throw new IllegalStateException(variant.name() + " exited with " + process.exitValue());
				}
				if (System.nanoTime() - t0 > TimeUnit.SECONDS.toNanos(120)) {
					throw new IllegalStateException(variant.name() + " not healthy after 120 s");
				}
				process.waitFor(5, TimeUnit.MILLISECONDS);
			}
			double wallMs = (System.nanoTime() - t0) / 1e6;
			double cpuMs = cpuMs(process.pid());
			List<String> lines = Files.readAllLines(classLog);
			int otel = (int) lines.stream().filter((l) -> l.contains(" io.opentelemetry.")).count();
			int sdk = (int) lines.stream().filter((l) -> l.contains(" io.opentelemetry.sdk.")).count();
			int ours = (int) lines.stream()
				.filter((l) -> l.contains(" io.github.startuptelemetry.") && !l.contains(".bench."))
				.count();
			return new Sample(wallMs, cpuMs, lines.size(), otel, sdk, ours);
		}
		finally {
			process.destroy();
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor();
			}
			Files.deleteIfExists(classLog);
		}
	}

	static boolean healthy(URI uri) {
		try {
			return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMillis(500)).build(),
					HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** utime + stime of the whole process, from /proc (clock ticks of 10 ms). */
	static double cpuMs(long pid) throws IOException {
		String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
		return ticks * 1000.0 / CLOCK_TICKS;
	}

	static double median(List<Double> values) {
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		int n = sorted.length;
		return (n % 2 == 1) ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	}

	static String report(int runs, Map<Variant, List<Sample>> samples) throws IOException {
		StringBuilder md = new StringBuilder("# Startup cost of the starter\n\n");
		md.append("Generated ").append(LocalDateTime.now().withNano(0)).append(" by `bench/run.sh startup`.\n\n");
		md.append(machine()).append('\n');
		md.append("Runs: ").append(runs).append(" per variant, interleaved (order rotated each run), after one uncounted warm-up round. ");
		md.append("Wall = spawn to first `200` from `/actuator/health` (5 ms polling); CPU = utime+stime of the JVM at that moment (10 ms ticks); classes from `-Xlog:class+load`.\n\n");
		md.append("| variant | wall median (ms) | wall vs baseline | CPU median (ms) | CPU vs baseline (ms) | classes | vs baseline | io.opentelemetry classes | io.opentelemetry.sdk | startup-telemetry classes |\n");
		md.append("|---|---|---|---|---|---|---|---|---|---|\n");
		List<Sample> base = samples.values().iterator().next();
		double baseWall = median(base.stream().map(Sample::wallMs).toList());
		double baseCpu = median(base.stream().map(Sample::cpuMs).toList());
		double baseClasses = median(base.stream().map((s) -> (double) s.classes()).toList());
		Map<String, double[]> deltas = new LinkedHashMap<>();
		for (Map.Entry<Variant, List<Sample>> entry : samples.entrySet()) {
			List<Sample> s = entry.getValue();
			double wall = median(s.stream().map(Sample::wallMs).toList());
			double cpu = median(s.stream().map(Sample::cpuMs).toList());
			double classes = median(s.stream().map((x) -> (double) x.classes()).toList());
			double otel = median(s.stream().map((x) -> (double) x.otelClasses()).toList());
			double sdk = median(s.stream().map((x) -> (double) x.otelSdkClasses()).toList());
			double ours = median(s.stream().map((x) -> (double) x.ourClasses()).toList());
			md.append(String.format("| %s | %.0f | %+.2f%% | %.0f | %+.0f | %.0f | %+.0f | %.0f | %.0f | %.0f |%n", entry.getKey().name(),
					wall, (wall / baseWall - 1) * 100, cpu, cpu - baseCpu, classes, classes - baseClasses, otel, sdk, ours));
			deltas.put(entry.getKey().name(), new double[] { (wall / baseWall - 1) * 100, cpu - baseCpu, classes - baseClasses });
		}
		md.append("\nAll samples (wall ms / CPU ms / classes):\n\n");
		for (Map.Entry<Variant, List<Sample>> entry : samples.entrySet()) {
			md.append("- ").append(entry.getKey().name()).append(": ");
			md.append(String.join(", ", entry.getValue().stream()
				.map((s) -> String.format("%.0f/%.0f/%d", s.wallMs(), s.cpuMs(), s.classes()))
				.toList()));
			md.append('\n');
		}
		double[] enabled = deltas.get("starter enabled");
		double[] disabled = deltas.get("starter disabled (TELEMETRY_ENABLED=false)");
		md.append("\nTargets:\n\n");
		md.append(String.format("- disabled: wall ≤ +0.5%%: %+.2f%% → %s; ≤ 25 extra classes: %+.0f → %s%n", disabled[0],
				verdict(disabled[0] <= 0.5), disabled[2], verdict(disabled[2] <= 25)));
		md.append(String.format("- enabled: wall ≤ +2%%: %+.2f%% → %s; CPU ≤ +40 ms: %+.0f ms → %s%n", enabled[0],
				verdict(enabled[0] <= 2), enabled[1], verdict(enabled[1] <= 40)));
		return md.toString();
	}

	static String verdict(boolean met) {
		return met ? "met" : "MISSED";
	}

	static String machine() throws IOException {
		String cpu = Files.readAllLines(Path.of("/proc/cpuinfo"))
			.stream()
			.filter((l) -> l.startsWith("model name"))
			.findFirst()
			.map((l) -> l.substring(l.indexOf(':') + 2))
			.orElse("unknown");
		return String.format("Machine: %d cores (%s), %s, Java %s (%s).%n", Runtime.getRuntime().availableProcessors(), cpu,
				System.getProperty("os.name") + " " + System.getProperty("os.version"), System.getProperty("java.version"),
				System.getProperty("java.vm.name"));
	}

}
