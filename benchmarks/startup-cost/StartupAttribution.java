import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * What the starter's own code costs on the main thread, measured inside the process, where the
 * machine's noise moves it in proportion only (issue 22; the paired wall and CPU times of
 * StartupCostBench cannot resolve a few percent on a 2-core box: an A/A pair of the same jar
 * moves by about 10% either way). Each start runs with Flight Recorder
 * ({@code startup-attribution.jfc}: execution samples every 2 ms, every class load with its
 * stack) until the first {@code 200} from {@code /hello}, then SIGTERM; only the main thread's
 * events count (the thread that runs the startup up to ready; the export after ready runs on
 * another one).
 * <ul>
 * <li><b>Java code</b>: the main thread's execution samples with a frame of the starter on the
 * stack and no {@code loadClass} (counted by the next line), by the outermost such frame (the entry point Spring called), times the period. JFR
 * samples a thread only while it runs Java code: time in the JVM itself (defining and linking a
 * class) is not in it, which the next line covers.</li>
 * <li><b>class loading</b>: the main thread's class loads that no other load encloses, by
 * duration: of the starter's classes, and of OpenTelemetry's and other classes loaded from the
 * starter's code (an application's own OpenTelemetry classes count only where the starter's code
 * loads them first).</li>
 * </ul>
 * Neither counts what Spring does with the starter's auto-configurations outside its frames
 * (parsing their class files, evaluating their conditions), nor the JIT's work on its code on the
 * compiler thread. Usage: {@code java StartupAttribution.java STARTS plain.jar plain-starter.jar out.md [boot.jar boot-starter.jar]}.
 */
public class StartupAttribution {

	static final String OURS = "io.github.startuptelemetry.";

	static final String BENCH = "io.github.startuptelemetry.bench.";

	static final double PERIOD_MS = 2;

	static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build();

	record Variant(String key, String name, String jar, Map<String, String> env) {
	}

	/** One start's main thread. */
	record Start(double javaMs, double oursJavaMs, Map<String, Double> oursByEntry, double loadMs, double oursLoadMs,
			double loadedByOursMs, double otelLoadMs, int oursClasses) {
	}

	public static void main(String[] args) throws Exception {
		int starts = Integer.parseInt(args[0]);
		Path settings = Path.of(StartupAttribution.class.getProtectionDomain().getCodeSource().getLocation().toURI())
			.resolveSibling("startup-attribution.jfc");
		if (!Files.isRegularFile(settings)) {
			settings = Path.of("benchmarks/startup-cost/startup-attribution.jfc");
		}
		List<Variant> variants = new ArrayList<>(List.of(new Variant("plain", "plain Boot web app", args[1], Map.of()),
				new Variant("plainOn", "plain app + starter, telemetry on", args[2], Map.of()),
				new Variant("plainOnNoPreload", "plain app + starter, on, TELEMETRY_STARTUP_PRELOAD=false", args[2],
						Map.of("TELEMETRY_STARTUP_PRELOAD", "false")),
				new Variant("plainOff", "plain app + starter, TELEMETRY_ENABLED=false", args[2],
						Map.of("TELEMETRY_ENABLED", "false"))));
		if (args.length > 5) {
			variants.add(new Variant("boot", "Boot app with actuator and OpenTelemetry", args[4], Map.of()));
			variants.add(new Variant("bootOn", "the same + starter, telemetry on", args[5], Map.of()));
		}
		Map<String, List<Start>> results = new LinkedHashMap<>();
		variants.forEach((v) -> results.put(v.key(), new ArrayList<>()));
		String before = load();
		Path dir = Files.createTempDirectory("startup-attribution");
		for (int round = 0; round < starts; round++) {
			for (int k = 0; k < variants.size(); k++) {
				Variant v = variants.get((round + k) % variants.size());
				Path jfr = dir.resolve(v.key() + "-" + round + ".jfr");
				start(v, jfr, settings);
				results.get(v.key()).add(read(jfr));
				Files.delete(jfr);
			}
			System.err.printf("round %d/%d, load %s%n", round + 1, starts, load());
		}
		String after = load();
		Files.writeString(Path.of(args[3]), markdown(variants, results, starts, before, after));
	}

	static void start(Variant v, Path jfr, Path settings) throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-XX:TieredStopAtLevel=1",
				"-XX:StartFlightRecording=filename=" + jfr + ",settings=" + settings + ",dumponexit=true", "-jar", v.jar(),
				"--server.port=" + port)
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD);
		builder.environment().keySet().removeIf((k) -> k.startsWith("TELEMETRY_") || k.startsWith("OTEL_")
				|| k.startsWith("MANAGEMENT_") || k.startsWith("NEMO_GYM_"));
		builder.environment().putAll(v.env());
		Process process = builder.start();
		URI hello = URI.create("http://127.0.0.1:" + port + "/hello");
		try {
			while (true) {
				try {
					if (HTTP.send(HttpRequest.newBuilder(hello).timeout(Duration.ofSeconds(5)).build(),
							HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
						break;
					}
				}
				catch (IOException ex) {
					// not listening yet
				}
				if (!process.isAlive()) {
					throw new IllegalStateException(v.key() + " exited with " + process.exitValue());
				}
				process.waitFor(5, TimeUnit.MILLISECONDS);
			}
			process.destroy(); // SIGTERM: the recording is dumped on exit
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				throw new IllegalStateException(v.key() + " did not exit");
			}
		}
		finally {
			process.destroyForcibly();
		}
	}

	static Start read(Path jfr) throws IOException {
		double java = 0;
		double oursJava = 0;
		Map<String, Double> byEntry = new TreeMap<>();
		List<RecordedEvent> loads = new ArrayList<>();
		for (RecordedEvent event : RecordingFile.readAllEvents(jfr)) {
			String type = event.getEventType().getName();
			if (type.equals("jdk.ExecutionSample")) {
				if (!isMain(event.getThread("sampledThread"))) {
					continue;
				}
				java += PERIOD_MS;
				String entry = outermostOfOurs(event);
				// a class being loaded is counted by its load's duration, below
				if (entry != null && !loadingAClass(event)) {
					oursJava += PERIOD_MS;
					byEntry.merge(entry, PERIOD_MS, Double::sum);
				}
			}
			else if (type.equals("jdk.ClassLoad") && isMain(event.getThread())) {
				loads.add(event);
			}
		}
		loads.sort(Comparator.comparing(RecordedEvent::getStartTime));
		double load = 0, ours = 0, byOurs = 0, otel = 0;
		int oursClasses = 0;
		Instant end = Instant.MIN;
		for (RecordedEvent event : loads) {
			String name = event.getClass("loadedClass").getName();
			boolean isOurs = name.startsWith(OURS) && !name.startsWith(BENCH);
			if (isOurs) {
				oursClasses++;
			}
			if (event.getStartTime().isBefore(end)) {
				continue; // inside an enclosing load: counted there
			}
			end = event.getEndTime();
			double ms = event.getDuration().toNanos() / 1e6;
			load += ms;
			if (isOurs) {
				ours += ms;
			}
			else if (outermostOfOurs(event) != null) {
				if (name.startsWith("io.opentelemetry.")) {
					otel += ms;
				}
				else {
					byOurs += ms;
				}
			}
		}
		return new Start(java, oursJava, byEntry, load, ours, byOurs, otel, oursClasses);
	}

	static boolean loadingAClass(RecordedEvent event) {
		return event.getStackTrace().getFrames()
			.stream()
			.anyMatch((frame) -> frame.getMethod().getName().equals("loadClass"));
	}

	static boolean isMain(jdk.jfr.consumer.RecordedThread thread) {
		return thread != null && "main".equals(thread.getJavaName());
	}

	/** The starter's outermost frame on the event's stack, as Class.method, or null. */
	static String outermostOfOurs(RecordedEvent event) {
		if (event.getStackTrace() == null) {
			return null;
		}
		String found = null;
		for (RecordedFrame frame : event.getStackTrace().getFrames()) {
			String type = frame.getMethod().getType().getName();
			if (type.startsWith(OURS) && !type.startsWith(BENCH)) {
				found = type.substring(OURS.length()).replaceAll("\\$\\$Lambda.*", "\\$\\$Lambda") + "."
						+ frame.getMethod().getName();
			}
		}
		return found;
	}

	static String markdown(List<Variant> variants, Map<String, List<Start>> results, int starts, String before,
			String after) throws Exception {
		StringBuilder md = new StringBuilder("# Startup attribution: the starter's own time on the main thread\n\n");
		md.append("Generated ").append(Instant.now().toString().substring(0, 16)).append("Z by `bench/run.sh attribution ")
			.append(starts).append("` (`benchmarks/startup-cost/StartupAttribution.java`). Machine: `nproc` ")
			.append(Runtime.getRuntime().availableProcessors()).append(", Java ").append(Runtime.version())
			.append(". Load average (1/5/15 min) before: ").append(before).append(", after: ").append(after).append(".\n\n");
		md.append("Each variant started ").append(starts).append(" times, interleaved, with Flight Recorder ")
			.append("(`startup-attribution.jfc`: execution samples every 2 ms, every class load with its stack) to the ")
			.append("first `200` from `/hello`; the main thread's events only (it runs the startup to ready). Medians over the ")
			.append("starts. \"Java code\" is the samples with a frame of the starter on the stack and none loading a class (JFR ")
			.append("samples a thread only while it runs Java code); \"class loading\" is the main thread's class loads that no other encloses, by ")
			.append("duration. Not counted: Spring's own work on the starter's auto-configurations outside its frames, and the ")
			.append("JIT's on its code (other threads). The recorder slows every start alike; the starter's share is what ")
			.append("carries over.\n\n");
		md.append("| variant | main thread, Java code sampled (ms) | of it the starter's (ms) | main thread, class loading (ms) | ")
			.append("the starter's classes (ms) | OpenTelemetry's, loaded from the starter's code (ms) | others loaded from the starter's code (ms) | ")
			.append("the starter's on the main thread, in all (ms) | classes of the starter |\n|---|---|---|---|---|---|---|---|---|\n");
		for (Variant v : variants) {
			List<Start> s = results.get(v.key());
			md.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.1f | %.1f | %.1f | %.0f | %.0f |%n", v.name(),
					median(s, Start::javaMs), median(s, Start::oursJavaMs), median(s, Start::loadMs),
					median(s, Start::oursLoadMs), median(s, Start::otelLoadMs), median(s, Start::loadedByOursMs),
					median(s, (x) -> x.oursJavaMs() + x.oursLoadMs() + x.otelLoadMs() + x.loadedByOursMs()),
					median(s, (x) -> (double) x.oursClasses())));
		}
		for (Variant v : variants.stream().filter((v) -> v.key().endsWith("On") || v.key().endsWith("Off")).toList()) {
			Map<String, List<Double>> entries = new TreeMap<>();
			List<Start> s = results.get(v.key());
			for (Start start : s) {
				start.oursByEntry().forEach((k, ms) -> entries.computeIfAbsent(k, (x) -> new ArrayList<>()).add(ms));
			}
			md.append("\n").append(v.name()).append(", the starter's sampled Java code by entry point (mean ms per start): ");
			md.append(String.join(", ", entries.entrySet()
				.stream()
				.sorted((a, b) -> Double.compare(sum(b.getValue()), sum(a.getValue())))
				.limit(8)
				.map((e) -> String.format(Locale.ROOT, "`%s` %.1f", e.getKey(), sum(e.getValue()) / s.size()))
				.toList()));
			md.append(entries.isEmpty() ? "none" : "").append(".\n");
		}
		md.append("\nPer start (Java code of the starter / its classes' loading, ms):\n\n");
		for (Variant v : variants.stream().filter((v) -> v.key().endsWith("On") || v.key().endsWith("Off")).toList()) {
			md.append("- ").append(v.name()).append(": ").append(String.join(", ", results.get(v.key())
				.stream()
				.map((x) -> String.format(Locale.ROOT, "%.0f/%.0f", x.oursJavaMs(), x.oursLoadMs() + x.otelLoadMs() + x.loadedByOursMs()))
				.toList())).append('\n');
		}
		return md.toString();
	}

	static double sum(List<Double> values) {
		return values.stream().mapToDouble(Double::doubleValue).sum();
	}

	static double median(List<Start> starts, java.util.function.ToDoubleFunction<Start> f) {
		double[] v = starts.stream().mapToDouble(f).sorted().toArray();
		int n = v.length;
		return (n % 2 == 1) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}

	static String load() throws IOException {
		String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
		return parts[0] + " " + parts[1] + " " + parts[2];
	}

}
