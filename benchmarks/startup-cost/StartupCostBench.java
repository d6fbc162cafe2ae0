import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
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
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * What the starter costs at startup, paired and interleaved. By default issue 22's rows, the price
 * of admission: a plain Boot web app ({@code benchmarks/plain-app}: the web starter and one
 * controller, as its user has it: {@code plain}) against the same app with the starter added, on
 * ({@code plainOn}) and with {@code TELEMETRY_ENABLED=false} ({@code plainOff}); and a Boot app with
 * actuator and Boot's OpenTelemetry ({@code benchmarks/startup-app}, {@code boot}) against the same
 * with the starter ({@code bootOn}); each to its first {@code 200} from its own controller
 * ({@code /hello}). Beside them, selectable with VARIANTS: the plain app with the starter and its
 * gRPC add-on ({@code plainGrpc}, {@code plain-app-grpc.jar} beside the plain starter jar: what
 * OkHttp, Okio and Kotlin on the class path cost, against the plain app and against
 * {@code plainOn}) or with the other candidate, the upstream gRPC sender on grpc-netty-shaded
 * ({@code plainGrpcUpstream}, {@code plain-app-grpc-upstream.jar}), the same plain app built on Boot 3.5 and
 * 4.1 without and with the starter ({@code plain35}/{@code plain35On}, {@code plain41}/{@code plain41On}:
 * {@code compat/boot-<line>/plain-app}, what the starter costs a user of that line), and issue 14's older rows, all of
 * {@code benchmarks/startup-app} to {@code /actuator/health}:
 * <ol>
 * <li>baseline: Boot + OpenTelemetry, no starter ({@code startup-app-baseline.jar});
 * <li>baseline with Boot's OTLP meter push silenced the way the starter silences it while no
 * endpoint is configured ({@code management.otlp.metrics.export.enabled=false}, what the
 * starter's {@code OtlpExportDefaults} sets);
 * <li>starter on ({@code startup-app-starter.jar}), with the JVM's counters per stage, as by default;
 * <li>starter on with those counters off ({@code TELEMETRY_STARTUP_COUNTERS=false}, which skips the
 * JVM's management beans altogether): the difference to the row above is the counters' own cost;
 * <li>starter present, {@code TELEMETRY_ENABLED=false};
 * <li>the same with the starter's two jars first on the class path instead of last (a copy of
 * {@code startup-app-starter.jar} with {@code BOOT-INF/classpath.idx} reordered): where a user who
 * declares the starter before Boot's starters puts them. Boot's launcher looks every class and
 * resource up jar by jar in that order, so a jar in front is asked, and misses, for every class
 * of the jars behind it;
 * <li>floor: the baseline jar, meter push silenced, with {@code BENCH_FLOOR=true}, which has the
 * app do the contract's minimum by hand ({@code ContractFloor}: marks at Boot's events, a sampled
 * root span and 8 stage spans at ready, a flush, 8 stage histograms). Against the silenced
 * baseline it is what any implementation of the contract costs in this app; "starter on" against
 * it is what the starter costs beyond that.
 * </ol>
 * One start = spawn of {@code java -XX:TieredStopAtLevel=1 -jar ...} until the first {@code 200}
 * (polled every 5 ms), then SIGKILL. Wall = that time; CPU =
 * utime + stime of the JVM at that moment (/proc, 10 ms ticks). A round starts every variant
 * once, in an order rotated each round; each variant is paired with the baseline of its own
 * round, and the ratio is taken pair by pair; the table shows medians of those ratios (and of
 * the CPU differences), with their spread. One uncounted warm-up round first; one extra start
 * per variant with {@code -Xlog:class+load} and {@code -Xlog:gc} afterwards for class counts and
 * G1's {@code Metadata GC Threshold} cycles before the first {@code 200}, and {@value #GC_STARTS} in
 * all for the silenced baseline and the floor, the two nearest G1's second mark (never timed).
 *
 * Usage: java benchmarks/startup-cost/StartupCostBench.java PAIRS STARTER_JAR BASELINE_JAR OUT.md
 * [PLAIN_STARTER_JAR PLAIN_BASELINE_JAR [KEYS]] (text of OUT.md below {@link #NOTES_MARKER} is kept).
 * KEYS, or else the env var {@code VARIANTS}: a comma list of variant keys to run ({@code plainOn},
 * {@code plainOnNoPreload} (the same without the starter's class preload: what the preload is
 * worth, paired with plainOn when both run), {@code plainGrpc} and {@code plainGrpcUpstream}
 * (paired with plainOn too when both run), {@code plainOff}, {@code bootOn}, and the old
 * {@code silenced}, {@code on}, {@code onNoCounters}, {@code off}, {@code offFirst},
 * {@code floor}); each runs with the baseline it is paired with, and
 * only the rows and targets whose variants ran are written. Without it: {@link #DEFAULT_KEYS}.
 * <p>
 * Every median comes with its 95% interval (the pairs resampled), and a target's verdict is
 * "met" or "MISSED" only when the whole interval says so, else "unresolved", with about how many
 * pairs would resolve it. Runs of the same jars pool: {@code java ...StartupCostBench.java --pool
 * OUT.md RESULT.md...} takes the pairs of earlier results files ({@link #pool}).
 */
public class StartupCostBench {

	static final double QUIET_LOAD = 2.0;

	static final long CLOCK_TICKS = 100;

	/** Untimed {@code -Xlog:gc} starts of the silenced baseline and the floor (the class-count start included). */
	static final int GC_STARTS = 5;

	static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build();

	/**
	 * One way of starting an app.
	 * @param base the key of the variant it is paired with (itself for a baseline)
	 * @param path what is polled for the first {@code 200}
	 */
	record Variant(String key, String name, Path jar, Map<String, String> env, List<String> args, String base,
			String path) {
	}

	/**
	 * Each row of the paired table: a variant and the one it is paired with (a row is written when
	 * both ran). "plainOn" against "plainOff" is the on path's own cost, the same jar in the same
	 * round: what remains when the jars' presence, which both carry, cancels out.
	 */
	static final String[][] ROWS = { { "plainOn", "plain" }, { "plainOnNoPreload", "plain" }, { "plainOn", "plainOnNoPreload" },
			{ "plainGrpc", "plain" }, { "plainGrpc", "plainOn" }, { "plainGrpcUpstream", "plain" },
			{ "plainGrpcUpstream", "plainOn" }, { "plain35On", "plain35" }, { "plain41On", "plain41" },
			{ "plainOff", "plain" }, { "plainOn", "plainOff" }, { "bootOn", "boot" },
			{ "silenced", "baseline" }, { "on", "baseline" }, { "on", "silenced" },
			{ "onNoCounters", "silenced" }, { "on", "onNoCounters" }, { "off", "baseline" }, { "offFirst", "baseline" },
			{ "off", "silenced" }, { "floor", "silenced" }, { "on", "floor" } };

	/** The variants of issue 22, run when VARIANTS names none. */
	static final List<String> DEFAULT_KEYS = List.of("plain", "plainOn", "plainOff", "boot", "bootOn");

	record Sample(double wallMs, double cpuMs) {
	}

	record Classes(int all, int ours, int zipkin, int otel, int otelSdk, List<String> oursNames,
			List<Integer> metadataCycles) {
	}

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals("--pool")) {
			pool(Path.of(args[1]), Arrays.stream(args).skip(2).map(Path::of).toList());
			return;
		}
		int pairs = Integer.parseInt(args[0]);
		Path starter = Path.of(args[1]);
		Path baseline = Path.of(args[2]);
		Path out = Path.of(args[3]);
		// the plain web app's jars, beside the Boot app's (the issue-22 rows); optional for the old rows alone
		Path plainStarter = (args.length > 5) ? Path.of(args[4]) : null;
		Path plainBaseline = (args.length > 5) ? Path.of(args[5]) : null;
		String keys = (args.length > 6) ? args[6] : System.getenv("VARIANTS");
		List<String> only = (keys == null || keys.isBlank()) ? DEFAULT_KEYS
				: Arrays.stream(keys.split(",")).map(String::strip).filter((k) -> !k.isEmpty()).toList();
		List<Variant> variants = select(variants(starter, baseline, plainStarter, plainBaseline, only), only);
		double[] loadBefore = loadAverage();
		long began = System.nanoTime();
		for (Variant v : variants) {
			start(v, null); // warm-up round: page cache, the launcher's JIT; not counted
		}
		Map<String, List<Sample>> samples = new LinkedHashMap<>();
		variants.forEach((v) -> samples.put(v.key(), new ArrayList<>()));
		double maxLoad = loadBefore[0];
		for (int round = 0; round < pairs; round++) {
			for (int k = 0; k < variants.size(); k++) {
				Variant v = variants.get((round + k) % variants.size());
				samples.get(v.key()).add(start(v, null));
			}
			maxLoad = Math.max(maxLoad, loadAverage()[0]);
			System.err.printf("round %d/%d done%n", round + 1, pairs);
		}
		Map<String, Classes> classes = new LinkedHashMap<>();
		for (Variant v : variants) {
			classes.put(v.key(), classes(v));
		}
		double[] loadAfter = loadAverage();
		double minutes = (System.nanoTime() - began) / 60e9;
		String md = report(pairs, variants, samples, classes, loadBefore, loadAfter, maxLoad, minutes);
		Files.createDirectories(out.toAbsolutePath().getParent());
		Files.writeString(out, md + keptNotes(out));
		System.out.println(md);
	}

	/** Every variant this benchmark knows; the plain app's only with its jars (a pooling run passes none: names only). */
	static List<Variant> variants(Path starter, Path baseline, Path plainStarter, Path plainBaseline, List<String> only)
			throws IOException {
		String health = "/actuator/health";
		String hello = "/hello";
		List<Variant> all = new ArrayList<>(List.of(
				new Variant("baseline", "baseline (Boot + OpenTelemetry, no starter)", baseline, Map.of(), List.of(),
						"baseline", health),
				new Variant("silenced", "baseline, OTLP meter push silenced", baseline, Map.of(),
						List.of("--management.otlp.metrics.export.enabled=false"), "baseline", health),
				new Variant("on", "starter on", starter, Map.of(), List.of(), "baseline", health),
				new Variant("onNoCounters", "starter on, JVM counters off", starter,
						Map.of("TELEMETRY_STARTUP_COUNTERS", "false"), List.of(), "baseline", health),
				new Variant("off", "starter present, TELEMETRY_ENABLED=false", starter,
						Map.of("TELEMETRY_ENABLED", "false"), List.of(), "baseline", health),
				new Variant("offFirst", "the same, the starter's jars first on the class path",
						only.contains("offFirst") ? oursFirst(starter) : starter,
						Map.of("TELEMETRY_ENABLED", "false"), List.of(), "baseline", health),
				new Variant("floor", "floor: the contract's minimum, hand-written in the baseline", baseline,
						Map.of("BENCH_FLOOR", "true"), List.of("--management.otlp.metrics.export.enabled=false"),
						"baseline", health),
				new Variant("boot", "Boot app with actuator and OpenTelemetry, no starter", baseline, Map.of(), List.of(),
						"boot", hello),
				new Variant("bootOn", "the same + starter, telemetry on", starter, Map.of(), List.of(), "boot", hello)));
		if (plainStarter != null) {
			all.add(new Variant("plain", "plain Boot web app (web starter, one controller)", plainBaseline, Map.of(),
					List.of(), "plain", hello));
			all.add(new Variant("plainOn", "plain app + starter, telemetry on", plainStarter, Map.of(), List.of(),
					"plain", hello));
			all.add(new Variant("plainOnNoPreload", "plain app + starter, on, TELEMETRY_STARTUP_PRELOAD=false",
					plainStarter, Map.of("TELEMETRY_STARTUP_PRELOAD", "false"), List.of(), "plain", hello));
			all.add(new Variant("plainGrpc", "plain app + starter + gRPC add-on, telemetry on",
					plainStarter.resolveSibling("plain-app-grpc.jar"), Map.of(), List.of(), "plain", hello));
			all.add(new Variant("plainGrpcUpstream", "plain app + starter + upstream gRPC sender (grpc-netty-shaded), on",
					plainStarter.resolveSibling("plain-app-grpc-upstream.jar"), Map.of(), List.of(), "plain", hello));
			all.add(new Variant("plainOff", "plain app + starter, TELEMETRY_ENABLED=false", plainStarter,
					Map.of("TELEMETRY_ENABLED", "false"), List.of(), "plain", hello));
			// the same app on the other Boot lines (compat/boot-<line>/plain-app: the same sources, its own Boot parent)
			for (String line : List.of("3.5", "4.1")) {
				String key = "plain" + line.replace(".", "");
				// the repository: four levels above benchmarks/plain-app/target/<jar> (pooling passes no real jar)
				Path repository = plainStarter.toAbsolutePath();
				for (int level = 0; level < 4 && repository.getParent() != null; level++) {
					repository = repository.getParent();
				}
				Path jars = repository.resolve("compat/boot-" + line + "/plain-app/target");
				all.add(new Variant(key, "plain app on Boot " + line, jars.resolve("plain-app-baseline.jar"), Map.of(),
						List.of(), key, hello));
				all.add(new Variant(key + "On", "plain app on Boot " + line + " + starter, telemetry on",
						jars.resolve("plain-app-starter.jar"), Map.of(), List.of(), key, hello));
			}
		}
		return all;
	}

	/** The variants named in {@code only} and the baselines they are paired with, in their usual order. */
	static List<Variant> select(List<Variant> all, List<String> only) {
		List<String> known = all.stream().map(Variant::key).toList();
		for (String key : only) {
			if (!known.contains(key)) {
				throw new IllegalArgumentException("Unknown variant '" + key + "' (known: " + String.join(", ", known)
						+ "; plain, plainOn, plainOnNoPreload, plainGrpc, plainGrpcUpstream, plainOff and the Boot lines' "
						+ "plain35, plain35On, plain41, plain41On need the plain app's jars)");
			}
		}
		List<String> wanted = new ArrayList<>(only);
		for (Variant v : all) {
			if (only.contains(v.key())) {
				wanted.add(v.base());
			}
		}
		// the old rows: the floor and the on variants are compared with the silenced baseline, which runs with them
		if (only.contains("floor") || only.contains("on") || only.contains("onNoCounters")) {
			wanted.add("silenced");
			wanted.add("baseline");
		}
		return all.stream().filter((v) -> wanted.contains(v.key())).toList();
	}

	/** Hand-written notes below this line of the results file survive a re-run (evidence that a run can't regenerate). */
	static final String NOTES_MARKER = "<!-- notes below this line are kept when the benchmark rewrites the file -->";

	static String keptNotes(Path out) throws IOException {
		if (!Files.exists(out)) {
			return "";
		}
		String old = Files.readString(out);
		int at = old.indexOf(NOTES_MARKER);
		return (at < 0) ? "" : "\n" + old.substring(at);
	}

	/**
	 * A copy of the fat jar with the starter's jars moved to the front of
	 * {@code BOOT-INF/classpath.idx} (every other entry as it was; nested jars stay stored).
	 */
	static Path oursFirst(Path jar) throws IOException {
		Path copy = Files.createTempFile("startup-app-ours-first", ".jar");
		copy.toFile().deleteOnExit();
		try (ZipFile in = new ZipFile(jar.toFile()); ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(copy))) {
			for (ZipEntry entry : in.stream().toList()) {
				byte[] bytes;
				try (InputStream stream = in.getInputStream(entry)) {
					bytes = stream.readAllBytes();
				}
				if (entry.getName().equals("BOOT-INF/classpath.idx")) {
					List<String> lines = new String(bytes).lines().toList();
					List<String> reordered = new ArrayList<>(lines.stream().filter(StartupCostBench::ours).toList());
					reordered.addAll(lines.stream().filter((l) -> !ours(l)).toList());
					bytes = (String.join("\n", reordered) + "\n").getBytes();
				}
				ZipEntry copied = new ZipEntry(entry.getName());
				copied.setTime(entry.getTime());
				if (entry.getMethod() == ZipEntry.STORED) {
					CRC32 crc = new CRC32();
					crc.update(bytes);
					copied.setMethod(ZipEntry.STORED);
					copied.setSize(bytes.length);
					copied.setCompressedSize(bytes.length);
					copied.setCrc(crc.getValue());
				}
				out.putNextEntry(copied);
				out.write(bytes);
				out.closeEntry();
			}
		}
		return copy;
	}

	static boolean ours(String classpathIndexLine) {
		return classpathIndexLine.contains("BOOT-INF/lib/startup-telemetry-");
	}

	/** One start; with {@code jvmOptions} (logs), not timed then. */
	static Sample start(Variant variant, List<String> jvmOptions) throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1"));
		if (jvmOptions != null) {
			command.addAll(jvmOptions);
		}
		command.addAll(List.of("-jar", variant.jar().toString(), "--server.port=" + port));
		command.addAll(variant.args());
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD);
		builder.environment().keySet().removeIf((k) -> k.startsWith("TELEMETRY_") || k.startsWith("OTEL_")
				|| k.startsWith("MANAGEMENT_") || k.startsWith("NEMO_GYM_") || k.equals("TRACEPARENT"));
		builder.environment().putAll(variant.env());
		URI health = URI.create("http://127.0.0.1:" + port + variant.path());
		long t0 = System.nanoTime();
		Process process = builder.start();
		try {
			while (!healthy(health)) {
				if (!process.isAlive()) {
					throw new IllegalStateException(variant.name() + " exited with " + process.exitValue());
				}
				if (System.nanoTime() - t0 > TimeUnit.SECONDS.toNanos(180)) {
					throw new IllegalStateException(variant.name() + " not healthy after 180 s");
				}
				process.waitFor(5, TimeUnit.MILLISECONDS);
			}
			double wallMs = (System.nanoTime() - t0) / 1e6;
			return new Sample(wallMs, cpuMs(process.pid()));
		}
		finally {
			process.destroyForcibly(); // SIGKILL: shutdown is not part of a start
			process.waitFor(30, TimeUnit.SECONDS);
		}
	}

	static Classes classes(Variant variant) throws Exception {
		Path log = Files.createTempFile("startup-cost-classes", ".log");
		Path gc = Files.createTempFile("startup-cost-gc", ".log");
		try {
			// filecount=0: the JVM truncates the file instead of first archiving it as *.0 beside it
			start(variant, List.of("-Xlog:class+load=info:file=" + log + "::filecount=0",
					"-Xlog:gc:file=" + gc + "::filecount=0"));
			List<Integer> cycles = new ArrayList<>(List.of(metadataCycles(gc)));
			int gcStarts = (variant.key().equals("silenced") || variant.key().equals("floor")) ? GC_STARTS : 1;
			while (cycles.size() < gcStarts) {
				start(variant, List.of("-Xlog:gc:file=" + gc + "::filecount=0"));
				cycles.add(metadataCycles(gc));
			}
			List<String> names = Files.readAllLines(log)
				.stream()
				.filter((l) -> l.contains("[class,load] "))
				.map((l) -> l.substring(l.indexOf("[class,load] ") + 13).split(" ")[0])
				.toList();
			List<String> ours = names.stream()
				.filter((n) -> n.startsWith("io.github.startuptelemetry.") && !n.startsWith("io.github.startuptelemetry.bench."))
				.map((n) -> n.replaceAll("\\$\\$Lambda.*", "\\$\\$Lambda"))
				.toList();
			int zipkin = (int) names.stream()
				.filter((n) -> n.startsWith("zipkin2.") || n.startsWith("io.opentelemetry.exporter.zipkin."))
				.count();
			int otel = (int) names.stream().filter((n) -> n.startsWith("io.opentelemetry.")).count();
			int sdk = (int) names.stream().filter((n) -> n.startsWith("io.opentelemetry.sdk.")).count();
			return new Classes(names.size(), ours.size(), zipkin, otel, sdk, ours, cycles);
		}
		finally {
			Files.deleteIfExists(log);
			Files.deleteIfExists(gc);
		}
	}

	/**
	 * G1 pauses that began a concurrent cycle because metaspace reached its mark, up to the
	 * SIGKILL at the first {@code 200} ({@code -Xlog:gc}: one line per pause, with its cause).
	 */
	static int metadataCycles(Path gcLog) throws IOException {
		return (int) Files.readAllLines(gcLog).stream().filter((l) -> l.contains("(Metadata GC Threshold)")).count();
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

	/** utime + stime of the process, from /proc (clock ticks of 10 ms). */
	static double cpuMs(long pid) throws IOException {
		String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 1000.0 / CLOCK_TICKS;
	}

	static double[] loadAverage() {
		try {
			String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
			return new double[] { Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]) };
		}
		catch (IOException | RuntimeException ex) {
			return new double[] { Double.NaN, Double.NaN, Double.NaN };
		}
	}

	static double median(double[] values) {
		double[] s = values.clone();
		Arrays.sort(s);
		int n = s.length;
		return (n % 2 == 1) ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	}

	static double[] values(List<Sample> samples, ToDoubleFunction<Sample> f) {
		return samples.stream().mapToDouble(f).toArray();
	}

	/** Per pair: variant / its round's baseline - 1, in percent. */
	static double[] ratios(List<Sample> variant, List<Sample> base, ToDoubleFunction<Sample> f) {
		double[] r = new double[variant.size()];
		for (int i = 0; i < r.length; i++) {
			r[i] = (f.applyAsDouble(variant.get(i)) / f.applyAsDouble(base.get(i)) - 1) * 100;
		}
		return r;
	}

	/** Per pair: variant - its round's baseline, in ms. */
	static double[] deltas(List<Sample> variant, List<Sample> base, ToDoubleFunction<Sample> f) {
		double[] d = new double[variant.size()];
		for (int i = 0; i < d.length; i++) {
			d[i] = f.applyAsDouble(variant.get(i)) - f.applyAsDouble(base.get(i));
		}
		return d;
	}

	static String spread(double[] v, String format) {
		double[] s = v.clone();
		Arrays.sort(s);
		return String.format(Locale.ROOT, format + " … " + format, s[0], s[s.length - 1]);
	}

	static long slower(double[] ratios) {
		return Arrays.stream(ratios).filter((r) -> r > 0).count();
	}

	static String report(int pairs, List<Variant> variants, Map<String, List<Sample>> samples,
			Map<String, Classes> classes, double[] before, double[] after, double maxLoad, double minutes)
			throws Exception {
		StringBuilder md = new StringBuilder("# Startup cost of the starter\n\n");
		md.append("Generated ").append(LocalDateTime.now().withNano(0))
			.append(" by `bench/run.sh startup` (`benchmarks/startup-cost/StartupCostBench.java`).\n\n");
		boolean loaded = before[0] > QUIET_LOAD || after[0] > QUIET_LOAD;
		if (loaded) {
			md.append(String.format(Locale.ROOT, "**Taken under load**: load average %.2f before, %.2f after (1 min), "
					+ "above %.0f on %d cores. Other work shared the CPUs; the pairing cancels slow drift, not a "
					+ "neighbour's bursts, so the ratios below are noisier than the targets' margins and no verdict "
					+ "here is final.%n%n", before[0], after[0], QUIET_LOAD, Runtime.getRuntime().availableProcessors()));
		}
		md.append(machine(before, after, maxLoad)).append("\n\n");
		md.append(String.format(Locale.ROOT, "Runs: %d pairs per variant (%d rounds of %d starts, order rotated each "
				+ "round, after one uncounted warm-up round; %d timed starts in all, %.1f minutes with the class-count "
				+ "starts). One start = spawn of `java -XX:TieredStopAtLevel=1 -jar <app>.jar` until the first "
				+ "`200` from the app's own controller (`/hello`; the old rows: `/actuator/health`; 5 ms polling), then SIGKILL. Wall = that time; CPU = utime+stime of "
				+ "the JVM at that moment (10 ms ticks). Each variant is paired with the baseline started in its own "
				+ "round; ratios and differences are taken pair by pair, then the median (spread = min … max over "
				+ "the pairs; \"slower\" = pairs where the variant took longer). The 95%% interval of each median is "
				+ "the pairs resampled (%d bootstrap resamples, percentile interval): a target is met when the whole "
				+ "interval is within it, missed when the whole interval is beyond it, and otherwise unresolved by this "
				+ "run, with the number of pairs that would resolve it at this run's spread.%n%n", pairs, pairs, variants.size(),
				pairs * variants.size(), minutes, RESAMPLES));

		List<Sample> base = samples.get("baseline");
		List<Sample> silenced = samples.get("silenced");
		ToDoubleFunction<Sample> wall = Sample::wallMs;
		ToDoubleFunction<Sample> cpu = Sample::cpuMs;

		Map<String, Medians> medians = pairedTable(md, variants, paired(samples));

		md.append("\nAbsolute values per variant (medians, spread min … max):\n\n");
		md.append("| variant | wall (ms) | wall spread | CPU (ms) | CPU spread | classes | io.opentelemetry | io.opentelemetry.sdk | Zipkin | startup-telemetry | metaspace cycles, per untimed start | starts with the 2nd |\n");
		md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
		for (Variant v : variants) {
			List<Sample> s = samples.get(v.key());
			Classes c = classes.get(v.key());
			long second = c.metadataCycles().stream().filter((n) -> n >= 2).count();
			md.append(String.format(Locale.ROOT, "| %s | %.0f | %s | %.0f | %s | %d | %d | %d | %d | %d | %s | %d/%d |%n",
					v.name(), median(values(s, wall)), spread(values(s, wall), "%.0f"), median(values(s, cpu)),
					spread(values(s, cpu), "%.0f"), c.all(), c.otel(), c.otelSdk(), c.zipkin(), c.ours(),
					String.join(", ", c.metadataCycles().stream().map(String::valueOf).toList()), second,
					c.metadataCycles().size()));
		}
		md.append("\nClass counts are from one extra, untimed start per variant with `-Xlog:class+load`. ");
		for (String offKey : List.of("plainOff", "off")) {
			if (classes.containsKey(offKey)) {
				md.append("Classes of the starter loaded with telemetry off (").append(offKey).append("): ")
					.append(String.join(", ", classes.get(offKey).oursNames().stream().map((n) -> "`" + n.replace("io.github.startuptelemetry.", "") + "`").toList()))
					.append(". ");
			}
		}
		if (samples.containsKey("silenced") || samples.containsKey("floor")) {
			md.append(String.format(Locale.ROOT, "%n%nMetaspace cycles: G1 pauses with the cause `Metadata GC Threshold` up to the "
				+ "first `200` (`-Xlog:gc` of that class-count start, and of %d untimed starts in all for the silenced "
				+ "baseline and the floor). The first comes at `MetaspaceSize` (21 MB) in every start; G1 then sets the "
				+ "next mark from what is in use (≈ 36 MB committed in this app), which the silenced baseline ends just "
				+ "under: a start with a 2nd cycle paid its young pause, concurrent mark and remark (≈ 40 ms of GC-thread "
				+ "CPU, startup-cost-parts.md) inside the window.%n", GC_STARTS));
		}
		else {
			md.append("\n");
		}

		if (samples.containsKey("floor")) {
			md.append("\n\"Floor\" is the baseline jar with the meter push silenced and `BENCH_FLOOR=true`: the app itself ")
			.append("(`ContractFloor`, no class of the starter) takes a `System.nanoTime()` mark at each of Boot's events of ")
			.append("a stage and at ready emits a sampled root span (under a random remote sampled parent, as a supervisor's ")
			.append("traceparent gives) and 8 stage spans with explicit timestamps and 3-4 attributes, force-flushes ")
			.append("Boot's `SdkTracerProvider` and records 8 stage `DistributionSummary`s with Gym's 14 SLO boundaries: ")
			.append("the contract's minimum, whoever implements it. \"Starter on\" vs \"floor\" is what the starter costs ")
			.append("beyond it.\n");
		}
		if (samples.containsKey("offFirst")) {
			md.append("\n`benchmarks/startup-app` declares the starter after Boot's starters, so its two jars ")
			.append("are last in `BOOT-INF/classpath.idx`; the row \"the same, the starter's jars first on the class path\" ")
			.append("is the off variant with them moved to the front of that index (what declaring the starter first gives): ")
			.append("Boot's launcher looks every class and resource up jar by jar in index order, and a jar in front is asked, ")
			.append("and misses, for every class of the jars behind it.\n");
		}
		if (samples.containsKey("onNoCounters")) {
			md.append("\n\"Starter on\" has the JVM's counters per stage on, as by default (`startup.jvm.*` on every stage ")
			.append("span: one read of the platform MXBeans at each stage boundary, the first of which looks them up); ")
			.append("\"starter on, JVM counters off\" is the same start with `TELEMETRY_STARTUP_COUNTERS=false`, which ")
			.append("reads no MXBean at all. The row \"starter on\" vs \"starter on, JVM counters off\" is the counters' own ")
			.append("share (pairs from the same round).\n");
		}
		md.append("\nAll pairs (wall ms / CPU ms, in round order):\n\n");
		for (Variant v : variants) {
			md.append("- ").append(v.name()).append(": ");
			md.append(String.join(", ", samples.get(v.key())
				.stream()
				.map((s) -> String.format(Locale.ROOT, "%.0f/%.0f", s.wallMs(), s.cpuMs()))
				.toList()));
			md.append('\n');
		}

		issue22Targets(md, medians, classes, loaded ? " (under load: indicative only)" : "");
		Medians off = medians.get("off/baseline");
		Medians on = medians.get("on/silenced");
		Medians floor = medians.get("floor/silenced");
		Medians beyond = medians.get("on/floor");
		Classes offClasses = classes.get("off");
		String caveat = loaded ? " (under load: indicative only)" : "";
		if (off != null || on != null || floor != null) {
			md.append("\n## The old rows' targets (issue 14, retired by issue 22)\n\n");
		}
		if (off != null) {
			md.append(String.format(Locale.ROOT, "- Off vs baseline: wall ≤ +0.5%%: %+.2f%% → %s; CPU ≤ +0.5%%: %+.2f%% (%+.0f ms) → %s%s%n",
					off.wall(), off.wallVerdict(0.5), off.cpu(), off.cpuMs(), off.cpuVerdict(0.5), caveat));
			md.append(String.format(Locale.ROOT, "- Off: no Zipkin class loaded: %d → %s; ≤ 10 classes of ours: %d → %s%n",
					offClasses.zipkin(), verdict(offClasses.zipkin() == 0), offClasses.ours(), verdict(offClasses.ours() <= 10)));
		}
		if (on != null) {
			md.append(String.format(Locale.ROOT, "- On vs the silenced baseline: wall ≤ +2%%: %+.2f%% → %s; CPU ≤ +40 ms: %+.0f ms → %s%s%n",
					on.wall(), on.wallVerdict(2), on.cpuMs(), verdict(on.cpuMs() <= 40), caveat));
		}
		if (floor != null) {
			md.append(String.format(Locale.ROOT, "- For comparison, not a target: floor vs silenced baseline: %+.0f ms CPU / %+.2f%% wall "
					+ "(what the contract's minimum costs in this app)%s%s%n", floor.cpuMs(), floor.wall(),
					(beyond != null) ? String.format(Locale.ROOT, "; starter on vs floor: %+.0f ms CPU / %+.2f%% wall", beyond.cpuMs(), beyond.wall()) : "",
					caveat));
		}
		md.append("\nWhere the on path's cost goes, part by part (hand-written, not regenerated): "
				+ "[startup-cost-parts.md](startup-cost-parts.md).\n");
		return md.toString();
	}

	/**
	 * Pools the pairs of earlier runs ({@code bench/run.sh startup-pool}): each file's "All pairs"
	 * lines, paired within their file as in its run, the rows' pairs put together and their medians
	 * and intervals taken again. Runs of the same jars only: a pool across a change measures nothing.
	 */
	static void pool(Path out, List<Path> files) throws IOException {
		Path none = Path.of("none");
		List<Variant> variants = variants(none, none, none, none, List.of());
		Map<String, String> keys = new LinkedHashMap<>();
		variants.forEach((v) -> keys.put(v.name(), v.key()));
		Map<String, Paired> pooled = new LinkedHashMap<>();
		StringBuilder sources = new StringBuilder();
		for (Path file : files) {
			Map<String, List<Sample>> samples = new LinkedHashMap<>();
			String generated = "";
			boolean pairs = false;
			for (String line : Files.readAllLines(file)) {
				if (line.startsWith("Generated ")) {
					generated = line.substring("Generated ".length(), line.indexOf(' ', "Generated ".length()));
				}
				else if (line.startsWith("All pairs")) {
					pairs = true;
				}
				else if (pairs && line.startsWith("- ") && line.contains(": ")) {
					String name = line.substring(2, line.lastIndexOf(": "));
					String key = keys.get(name);
					if (key == null) {
						throw new IllegalArgumentException(file + ": no variant is called '" + name + "'");
					}
					samples.put(key, Arrays.stream(line.substring(line.lastIndexOf(": ") + 2).split(", "))
						.map((pair) -> pair.split("/"))
						.map((pair) -> new Sample(Double.parseDouble(pair[0]), Double.parseDouble(pair[1])))
						.toList());
				}
				else if (pairs && line.startsWith("#")) {
					pairs = false;
				}
			}
			if (samples.isEmpty()) {
				throw new IllegalArgumentException(file + " has no \"All pairs\" lines: not a startup-cost result");
			}
			Map<String, Paired> rows = paired(samples);
			sources.append(String.format(Locale.ROOT, "- `%s` (%s): %s%n", file.getFileName(), generated,
					String.join(", ", rows.entrySet().stream().map((e) -> e.getKey() + " " + e.getValue().variant().size()).toList())));
			rows.forEach((row, p) -> pooled.merge(row, p, (a, b) -> new Paired(
					Stream.concat(a.variant().stream(), b.variant().stream()).toList(),
					Stream.concat(a.base().stream(), b.base().stream()).toList())));
		}
		StringBuilder md = new StringBuilder("# Startup cost of the starter, runs pooled\n\n");
		md.append("Generated ").append(LocalDateTime.now().withNano(0))
			.append(" by `bench/run.sh startup-pool` from the pairs of these runs (file, when it ran, pairs per row):\n\n")
			.append(sources)
			.append("\nEach run's pairs are taken as it paired them (same round); the pairs of all runs are then one sample, ")
			.append("and each median's 95% interval is that sample resampled (").append(RESAMPLES)
			.append(" bootstrap resamples, percentile interval). Load and machine: in each run's own file.\n\n");
		Map<String, Medians> medians = pairedTable(md, variants, pooled);
		issue22Targets(md, medians, Map.of(), "");
		Files.createDirectories(out.toAbsolutePath().getParent());
		Files.writeString(out, md.toString() + keptNotes(out));
		System.out.println(md);
	}

	/** A row's pairs: the i-th start of the variant with the i-th of the one it is paired with. */
	record Paired(List<Sample> variant, List<Sample> base) {
	}

	/**
	 * A row's medians over its pairs: wall and CPU in percent (each with its 95% interval), the CPU
	 * difference in ms, and how many pairs.
	 */
	record Medians(double wall, double[] wallInterval, double cpu, double[] cpuInterval, double cpuMs, int pairs) {

		String wallVerdict(double target) {
			return verdict(this.wall, this.wallInterval, this.pairs, target);
		}

		String cpuVerdict(double target) {
			return verdict(this.cpu, this.cpuInterval, this.pairs, target);
		}

	}

	/** The rows of {@link #ROWS} whose two variants ran, keyed "variant/base", in that order. */
	static Map<String, Paired> paired(Map<String, List<Sample>> samples) {
		Map<String, Paired> paired = new LinkedHashMap<>();
		for (String[] row : ROWS) {
			if (samples.containsKey(row[0]) && samples.containsKey(row[1])) {
				paired.put(row[0] + "/" + row[1], new Paired(samples.get(row[0]), samples.get(row[1])));
			}
		}
		return paired;
	}

	/** The pairs of every row whose two variants ran: the table, and per row its medians and their intervals. */
	static Map<String, Medians> pairedTable(StringBuilder md, List<Variant> variants, Map<String, Paired> rows) {
		ToDoubleFunction<Sample> wall = Sample::wallMs;
		ToDoubleFunction<Sample> cpu = Sample::cpuMs;
		md.append("| variant | vs | wall Δ median | its 95% interval | wall Δ spread | slower pairs | CPU Δ median | its 95% interval | CPU Δ (ms) median | CPU Δ spread | slower pairs |\n");
		md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
		Map<String, Medians> medians = new LinkedHashMap<>();
		for (Map.Entry<String, Paired> entry : rows.entrySet()) {
			String[] row = entry.getKey().split("/");
			List<Sample> v = entry.getValue().variant();
			List<Sample> b = entry.getValue().base();
			double[] wr = ratios(v, b, wall);
			double[] cr = ratios(v, b, cpu);
			double[] cd = deltas(v, b, cpu);
			double[] wci = medianInterval(wr);
			double[] cci = medianInterval(cr);
			medians.put(entry.getKey(), new Medians(median(wr), wci, median(cr), cci, median(cd), wr.length));
			md.append(String.format(Locale.ROOT, "| %s | %s | %+.2f%% | %+.1f … %+.1f | %s | %d/%d | %+.2f%% | %+.1f … %+.1f | %+.0f | %s | %d/%d |%n",
					name(variants, row[0]), name(variants, row[1]), median(wr), wci[0], wci[1], spread(wr, "%+.1f%%"),
					slower(wr), wr.length, median(cr), cci[0], cci[1], median(cd), spread(cd, "%+.0f"), slower(cr), cr.length));
		}
		return medians;
	}

	/** Issue 22's targets, for the rows that ran ({@code classes} may lack the off variant's: a pooled report). */
	static void issue22Targets(StringBuilder md, Map<String, Medians> medians, Map<String, Classes> classes,
			String underLoad) {
		Medians plainOn = medians.get("plainOn/plain");
		Medians plainOff = medians.get("plainOff/plain");
		Medians bootOn = medians.get("bootOn/boot");
		if (plainOn != null || plainOff != null || bootOn != null) {
			md.append("\n## Targets (issue 22: the price of admission)\n\n");
		}
		if (plainOn != null) {
			md.append(String.format(Locale.ROOT, "- Plain web app + starter, on: wall ≤ +3%%: %+.2f%% → %s; CPU ≤ +5%%: %+.2f%% (%+.0f ms) → %s%s%n",
					plainOn.wall(), plainOn.wallVerdict(3), plainOn.cpu(), plainOn.cpuMs(), plainOn.cpuVerdict(5), underLoad));
		}
		if (plainOff != null) {
			Classes offClasses = classes.get("plainOff");
			md.append(String.format(Locale.ROOT, "- The same, `TELEMETRY_ENABLED=false`: wall ≤ +0.5%%: %+.2f%% → %s; CPU ≤ +0.5%%: %+.2f%% (%+.0f ms) → %s%s",
					plainOff.wall(), plainOff.wallVerdict(0.5), plainOff.cpu(), plainOff.cpuMs(), plainOff.cpuVerdict(0.5), underLoad));
			if (offClasses != null) {
				md.append(String.format(Locale.ROOT, "; ≤ 10 classes of ours: %d → %s; no SDK class: %d → %s",
						offClasses.ours(), verdict(offClasses.ours() <= 10), offClasses.otelSdk(), verdict(offClasses.otelSdk() == 0)));
			}
			md.append('\n');
		}
		if (bootOn != null) {
			md.append(String.format(Locale.ROOT, "- Boot app with actuator and OpenTelemetry + starter, on: wall ≤ +1%%: %+.2f%% → %s; CPU ≤ +2%%: %+.2f%% (%+.0f ms) → %s%s%n",
					bootOn.wall(), bootOn.wallVerdict(1), bootOn.cpu(), bootOn.cpuMs(), bootOn.cpuVerdict(2), underLoad));
		}
	}

	static String name(List<Variant> variants, String key) {
		return variants.stream().filter((v) -> v.key().equals(key)).findFirst().orElseThrow().name();
	}

	static String verdict(boolean met) {
		return met ? "met" : "MISSED";
	}

	/**
	 * A ratio target's verdict from a median and its 95% interval over {@code pairs}: met or
	 * missed only when the whole interval says so; otherwise unresolved, with about how many pairs
	 * would resolve it if the median held (the interval narrows as 1/sqrt(pairs)).
	 */
	static String verdict(double median, double[] interval, int pairs, double target) {
		double low = interval[0];
		double high = interval[1];
		if (high <= target) {
			return "met (95% interval " + signed(low) + " … " + signed(high) + ")";
		}
		if (low > target) {
			return "MISSED (95% interval " + signed(low) + " … " + signed(high) + ")";
		}
		double half = (high - low) / 2;
		double margin = Math.max(Math.abs(median - target), 0.1);
		long needed = Math.round(pairs * (half / margin) * (half / margin));
		return String.format(Locale.ROOT, "unresolved (95%% interval %s … %s, ±%.1f points: about %d pairs would tell)",
				signed(low), signed(high), half, needed);
	}

	static String signed(double percent) {
		return String.format(Locale.ROOT, "%+.1f%%", percent);
	}

	/** Resamples of the pairs for a median's interval; a fixed seed, so that a report is reproducible from its pairs. */
	static final int RESAMPLES = 4000;

	/** The 95% percentile interval of the median of {@code values}, by resampling them with replacement. */
	static double[] medianInterval(double[] values) {
		SplittableRandom random = new SplittableRandom(22);
		double[] medians = new double[RESAMPLES];
		double[] resample = new double[values.length];
		for (int b = 0; b < RESAMPLES; b++) {
			for (int i = 0; i < values.length; i++) {
				resample[i] = values[random.nextInt(values.length)];
			}
			medians[b] = median(resample);
		}
		Arrays.sort(medians);
		return new double[] { medians[(int) (0.025 * RESAMPLES)], medians[(int) (0.975 * RESAMPLES) - 1] };
	}

	static String machine(double[] before, double[] after, double maxLoad) throws Exception {
		String cpu = Files.readAllLines(Path.of("/proc/cpuinfo"))
			.stream()
			.filter((l) -> l.startsWith("model name"))
			.findFirst()
			.map((l) -> l.substring(l.indexOf(':') + 2))
			.orElse("unknown");
		Process version = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
			.redirectErrorStream(true)
			.start();
		String javaVersion = new String(version.getInputStream().readAllBytes()).strip().replace("\n", "; ");
		version.waitFor();
		return String.format(Locale.ROOT, "Machine: `nproc` %d (%s), %s %s; `java -version`: %s. Load average "
				+ "(1/5/15 min) before: %.2f/%.2f/%.2f, after: %.2f/%.2f/%.2f; highest 1-min value seen between rounds: "
				+ "%.2f (the benchmark's own JVM starts count in it).", Runtime.getRuntime().availableProcessors(), cpu,
				System.getProperty("os.name"), System.getProperty("os.version"), javaVersion, before[0], before[1],
				before[2], after[0], after[1], after[2], maxLoad);
	}

}
