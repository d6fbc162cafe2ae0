package io.github.startuptelemetry.bench.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import io.github.startuptelemetry.it.support.Jdks;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench/run.sh jvm-cache [ROUNDS]}: what the JVM startup caches save the sample fleet,
 * on JDK 25 (AOT cache) and JDK 17 (AppCDS), against Spring's published expectation. Three
 * parts, each paired and interleaved:
 * <ol>
 * <li>the fleet: the sample supervisor with its sample fleet (two model servers, one resources
 * server, the sample-server jar) in {@code jvm-cache.mode=compare} with ROUNDS rounds, on each
 * JDK (the supervisor runs on it, so {@code {java}} is it), a fresh cache directory each: its
 * JSON report's comparison (spawn→ready, CPU, class share, stages), its training, and the
 * compare output as printed;</li>
 * <li>one server trained by hand, with the commands of docs/jvm-cache.md, the sample server
 * without its sleeps (a plain Boot web app with the starter and actuator, what Spring's figure
 * is for): the fat jar as built, extracted, and extracted with the cache, rotated each round,
 * time to Spring's "Started" line (the JVM's uptime it prints) and CPU by then;</li>
 * <li>what the class-share measurement would cost a server if read from a class-load log
 * ({@code -Xlog:class+load}) instead of the JVM's counters: one cached JDK 17 server with and
 * without that log.</li>
 * </ol>
 * Writes bench/results/jvm-cache.md and the measured section of docs/jvm-cache.md. Not part of
 * the normal build.
 */
class JvmCacheBenchmark {

	private static final Duration SUPERVISOR_TIMEOUT = Duration.ofMinutes(40);

	private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

	/** Spring's figure: the extracted jar with CDS against the executable jar, a minimal Spring MVC app. */
	private static final double SPRING_SPEEDUP = 1.5;

	private static final String SPRING_SOURCE = "Spring blog, S. Deleuze, \"Spring Boot CDS support and Project Leyden "
			+ "anticipation\", 2024-08-29, section *Data points* "
			+ "(https://spring.io/blog/2024/08/29/spring-boot-cds-support-and-project-leyden-anticipation): \"the "
			+ "extracted application combined with CDS allows approximately 1.5x faster startup [...] compared to "
			+ "running the executable JAR\" (minimal Spring MVC app, MacBook M2), and about 3x with Project Leyden's "
			+ "early-access builds (more than JDK 25's AOT cache holds). Spring Boot's reference (*AOT Cache*, "
			+ "*Class Data Sharing*) documents the training run but quotes no figure.";

	/** Spring's line that ends a start, with the JVM's uptime then. */
	private static final Pattern STARTED = Pattern.compile("Started \\S+ in [\\d.]+ seconds \\(process running for "
			+ "([\\d.]+)\\)");

	/** Where docs/jvm-cache.md takes the measured numbers. */
	private static final String DOCS_BEGIN = "<!-- bench/run.sh jvm-cache: begin -->";

	private static final String DOCS_END = "<!-- bench/run.sh jvm-cache: end -->";

	@TempDir
	Path tmp;

	@Test
	void theSampleFleetAndOneServerWithAndWithoutTheirCaches() throws Exception {
		int rounds = Integer.getInteger("bench.runs", 10);
		BenchReport md = new BenchReport("JVM startup caches: the sample fleet with and without",
				"bench/run.sh jvm-cache " + rounds);
		List<Jdk> jdks = new ArrayList<>();
		Path jdk25 = Jdks.jdk25();
		if (jdk25 != null) {
			jdks.add(new Jdk("JDK 25", "AOT cache", jdk25));
		}
		jdks.add(new Jdk("JDK " + Runtime.version().feature(), "AppCDS",
				Path.of(System.getProperty("java.home"), "bin", "java")));
		StringBuilder docs = new StringBuilder();

		md.line("Spring's expectation: **%.1f× faster startup** (%s", SPRING_SPEEDUP, SPRING_SOURCE + ")");
		md.line("");
		md.line("## 1. The sample fleet, trained and compared by the supervisor (`jvm-cache.mode=compare`)");
		md.line("");
		md.line("%d rounds per JDK; each round starts the fleet without and with its caches, the order alternating; "
				+ "medians without → with, the median of the per-round differences and their range [smallest, "
				+ "largest]. The sample fleet as configured (`sample-supervisor/src/main/resources/application.yml`: "
				+ "`{java} -XX:TieredStopAtLevel=1 -jar sample-server.jar`; the model servers sleep 1.5 s in their "
				+ "model loader, the resources server 0.3 s, each 0.2 s in its warm-up: waits no cache shortens). "
				+ "Without the cache a server runs the executable jar as built; with it, the extracted jar and its "
				+ "cache.", rounds);
		md.line("");
		md.line("| JDK | cache | server | spawn→ready without → with | median difference [range] | speed-up | CPU "
				+ "without → with | CPU difference | classes from a cache | stage that moved most |");
		md.line("|---|---|---|---|---|---|---|---|---|---|");
		Map<Jdk, Fleet> fleets = new LinkedHashMap<>();
		for (Jdk jdk : jdks) {
			Fleet fleet = fleet(jdk, rounds);
			fleets.put(jdk, fleet);
			for (JsonNode server : fleet.comparison().get("servers")) {
				JsonNode spawn = metric(server, "server");
				JsonNode cpu = metric(server, "cpu");
				JsonNode share = metric(server, "class-share");
				JsonNode moved = metric(server, server.get("movedMost").asString());
				md.line("| %s | %s | %s | %s → %s | %s [%s, %s] | %.2f× | %s → %s | %s | %s → %s | %s %s |", jdk.name(),
						jdk.cache(), server.get("name").asString(), s(spawn, "without"), s(spawn, "with"),
						signed(spawn.get("medianDelta").asDouble()), signed(spawn.get("minDelta").asDouble()),
						signed(spawn.get("maxDelta").asDouble()),
						spawn.get("without").asDouble() / spawn.get("with").asDouble(), s(cpu, "without"), s(cpu, "with"),
						signed(cpu.get("medianDelta").asDouble()) + percent(cpu), pct(share, "without"),
						pct(share, "with"), moved.get("name").asString(),
						signed(moved.get("medianDelta").asDouble()) + percent(moved));
			}
		}
		md.line("");
		for (Map.Entry<Jdk, Fleet> entry : fleets.entrySet()) {
			JsonNode training = entry.getValue().training();
			md.line("%s training (before the rounds, never counted in them): %s in %.1f s, %d MB in the cache directory "
					+ "(the extracted jar and the cache).", entry.getKey().name(), training.get("detail").asString(),
					training.get("durationMs").asDouble() / 1000, training.get("sizeBytes").asLong() >> 20);
		}
		md.line("");

		md.line("## 2. One server trained by hand (docs/jvm-cache.md's commands)");
		md.line("");
		md.line("The sample server without its sleeps (`--sample.model-loader.duration=0ms --sample.model-loader.warmup=0ms`: "
				+ "a Boot web app with the starter and actuator), the JVM's default flags, alone on the machine; "
				+ "%d rounds, the three variants rotated each round; time is the JVM's uptime at Spring's \"Started\" "
				+ "line, CPU the process's by then (/proc). Speed-up against the executable jar, as Spring's figure.",
				rounds);
		md.line("");
		md.line("| JDK | variant | started after (median) | range | speed-up vs executable jar | CPU (median) | classes "
				+ "from a cache (median) |");
		md.line("|---|---|---|---|---|---|---|");
		Map<Jdk, Map<String, Samples[]>> hands = new LinkedHashMap<>();
		for (Map.Entry<Jdk, Fleet> entry : fleets.entrySet()) {
			Map<String, Samples[]> hand = byHand(entry.getKey(), rounds);
			hands.put(entry.getKey(), hand);
			double jarMs = hand.get("executable jar")[0].median();
			hand.forEach((variant, samples) -> md.line("| %s | %s | %.0f ms | %.0f–%.0f ms | %.2f× | %.0f ms | %.0f%% |",
					entry.getKey().name(), variant, samples[0].median(), samples[0].percentile(0),
					samples[0].max(), jarMs / samples[0].median(), samples[1].median(), samples[2].median()));
		}
		md.line("");

		md.line("## 3. Counting the classes from a cache: JVM counters vs a class-load log");
		md.line("");
		Jdk appCds = jdks.get(jdks.size() - 1);
		Map<String, Samples[]> log = classLoadLogCost(appCds, fleets.get(appCds), rounds);
		md.line("The report's class share comes from the JVM's own counters (`java.cls.sharedLoadedClasses`, "
				+ "`java.cls.loadedClasses` in its hsperfdata file), which the JVM keeps anyway: reading them costs the "
				+ "server nothing and the supervisor %.0f µs per read (median of 200 reads of a live server's file). "
				+ "The alternative, `-Xlog:class+load:file=...` (what Spring's docs suggest to check a cache), costs "
				+ "every server a log line per class; one cached %s server (sleeps off), %d pairs:", this.perfReadUs,
				appCds.name(), rounds);
		md.line("");
		md.line("| variant | started after (median) | CPU (median) | classes from a cache |");
		md.line("|---|---|---|---|");
		log.forEach((variant, samples) -> md.line("| %s | %.0f ms | %.0f ms | %.0f%% |", variant, samples[0].median(),
				samples[1].median(), samples[2].median()));
		double logCpu = log.get("with -Xlog:class+load")[1].median() - log.get("counters only")[1].median();
		double logWall = log.get("with -Xlog:class+load")[0].median() - log.get("counters only")[0].median();
		md.line("");
		md.line("The log costs %+.0f ms to start and %+.0f ms of CPU (medians' difference).", logWall, logCpu);
		md.line("");

		md.line("## Against Spring's expectation");
		md.line("");
		for (Map.Entry<Jdk, Fleet> entry : fleets.entrySet()) {
			Map<String, Samples[]> hand = hands.get(entry.getKey());
			double handSpeedup = hand.get("executable jar")[0].median() / hand.get("extracted + cache")[0].median();
			double extractSpeedup = hand.get("executable jar")[0].median() / hand.get("extracted")[0].median();
			double fleetSpeedup = entry.getValue().criticalSpeedup();
			md.line("- %s: one server %.2f× (%s; extraction alone %.2f×); the sample fleet, its slowest server, "
					+ "%.2f× on spawn→ready (%s).", entry.getKey().name(), handSpeedup,
					BenchReport.verdict(handSpeedup >= SPRING_SPEEDUP), extractSpeedup, fleetSpeedup,
					BenchReport.verdict(fleetSpeedup >= SPRING_SPEEDUP));
		}
		md.line("");
		md.line("Where the fleet falls short of the single server, the reasons are in the table above: spawn→ready "
				+ "holds waits no cache shortens (the sample's 1.5 s + 0.2 s sleeps in a model server, the JVM's exec "
				+ "and the cache's mapping in `interpreter_start`, the probe), and three JVMs start at once on %d cores, "
				+ "so the CPU the caches save (the CPU column) shows as wall time only in part.",
				Runtime.getRuntime().availableProcessors());
		md.line("");
		Fleet first = fleets.values().iterator().next();
		md.line("## The compare output of one run (%s)", fleets.keySet().iterator().next().name());
		md.line("");
		md.line("```");
		md.line("%s", first.compareText());
		md.line("```");
		Path written = md.write("jvm-cache");
		updateDocs(written);
		assertThat(fleets.values()).allSatisfy((fleet) -> assertThat(fleet.comparison().get("completedRounds").asInt())
			.isEqualTo(rounds));
	}

	/** Median read time of a live server's counters, set by {@link #classLoadLogCost}. */
	private double perfReadUs = Double.NaN;

	/** The sample supervisor in compare mode on {@code jdk}: its report's comparison and training. */
	private Fleet fleet(Jdk jdk, int rounds) throws Exception {
		String tag = jdk.name().replace(' ', '-').toLowerCase(Locale.ROOT);
		Path dir = Files.createDirectories(this.tmp.resolve(tag));
		Path json = dir.resolve("startup-report.json");
		List<String> command = List.of(jdk.java().toString(), "-XX:TieredStopAtLevel=1", "-jar",
				SampleJars.supervisor().toString(), "--telemetry.supervisor.exit-when-ready=true",
				"--telemetry.supervisor.jvm-cache.mode=compare", "--telemetry.supervisor.jvm-cache.rounds=" + rounds,
				"--telemetry.supervisor.jvm-cache.directory=" + dir.resolve("cache"),
				"--telemetry.supervisor.run-dir=" + dir.resolve("run"),
				"--telemetry.supervisor.report.json=" + json,
				"--telemetry.supervisor.report.html=" + dir.resolve("startup-report.html"));
		Path log = dir.resolve("supervisor.log");
		ProcessBuilder builder = new ProcessBuilder(command).directory(SampleJars.repositoryRoot().toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		builder.environment().put("MANAGEMENT_OTLP_METRICS_EXPORT_ENABLED", "false");
		System.err.printf("%s: the sample fleet, %d rounds without and with its caches%n", jdk.name(), rounds);
		Process process = builder.start();
		try {
			assertThat(process.waitFor(SUPERVISOR_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
			assertThat(process.exitValue()).as(Files.readString(log)).isZero();
		}
		finally {
			process.destroyForcibly();
		}
		JsonNode cache = new ObjectMapper().readTree(Files.readString(json)).get("jvmCache");
		String output = Files.readString(log);
		int from = output.indexOf("JVM caches compared over");
		int to = output.indexOf("HTML waterfall:", from);
		return new Fleet(cache.get("comparison"), cache.get("trainings").get(0), dir.resolve("cache"),
				(from >= 0) ? output.substring(from, (to > from) ? to : output.length()).strip() : "(not found)");
	}

	/**
	 * One server trained by hand with docs/jvm-cache.md's commands, then started as the
	 * executable jar, extracted, and extracted with its cache, rotated; for each, the JVM's
	 * uptime at "Started" and its CPU then.
	 */
	private Map<String, Samples[]> byHand(Jdk jdk, int rounds) throws Exception {
		Path dir = Files.createDirectories(this.tmp.resolve("hand-" + jdk.name().replace(' ', '-')));
		Path jar = Files.copy(SampleJars.server(), dir.resolve("sample-server.jar"));
		String java = jdk.java().toString();
		run(dir, java, "-Djarmode=tools", "-jar", "sample-server.jar", "extract", "--destination", "application");
		Path app = dir.resolve("application");
		boolean aot = jdk.cache().startsWith("AOT");
		String cache = aot ? "app.aot" : "application.jsa";
		// trained with the jar's path as the starts below give it: the JVM refuses a cache whose
		// class path differs (a relative path here left the cache unused: 0-14% of classes from it)
		run(app, java, aot ? "-XX:AOTCacheOutput=" + cache : "-XX:ArchiveClassesAtExit=" + cache,
				"-Dspring.context.exit=onRefresh", "-jar", app.resolve("sample-server.jar").toString());
		assertThat(app.resolve(cache)).exists();
		Map<String, List<String>> variants = new LinkedHashMap<>();
		variants.put("executable jar", List.of("-jar", jar.toString()));
		variants.put("extracted", List.of("-jar", app.resolve("sample-server.jar").toString()));
		variants.put("extracted + cache", List.of(aot ? "-XX:AOTCache=" + app.resolve(cache)
				: "-XX:SharedArchiveFile=" + app.resolve(cache), "-jar", app.resolve("sample-server.jar").toString()));
		System.err.printf("%s: one server by hand, %d rounds of %s%n", jdk.name(), rounds, variants.keySet());
		return rotate(jdk, variants, rounds, dir);
	}

	/** A cached server with and without {@code -Xlog:class+load} to a file; the counters' read time on the side. */
	private Map<String, Samples[]> classLoadLogCost(Jdk jdk, Fleet fleet, int rounds) throws Exception {
		Path entry;
		try (Stream<Path> entries = Files.list(fleet.cacheDir())) {
			entry = entries.filter(Files::isDirectory).findFirst().orElseThrow();
		}
		Path app;
		try (Stream<Path> jars = Files.list(entry.resolve("app"))) {
			app = jars.filter((file) -> file.toString().endsWith(".jar")).findFirst().orElseThrow();
		}
		String cache = "-XX:SharedArchiveFile=" + entry.resolve("app.jsa");
		Path dir = Files.createDirectories(this.tmp.resolve("class-load-log"));
		Map<String, List<String>> variants = new LinkedHashMap<>();
		// the fleet's cache, trained with the fleet's flags
		variants.put("counters only", List.of("-XX:TieredStopAtLevel=1", cache, "-jar", app.toString()));
		variants.put("with -Xlog:class+load", List.of("-XX:TieredStopAtLevel=1", cache,
				"-Xlog:class+load=info:file=" + dir.resolve("classes.log"), "-jar", app.toString()));
		System.err.printf("%s: the class-load log's cost, %d rounds%n", jdk.name(), rounds);
		return rotate(jdk, variants, rounds, dir);
	}

	/** Each variant once a round, the order rotated; [started after, CPU by then, % of classes from a cache] per variant. */
	private Map<String, Samples[]> rotate(Jdk jdk, Map<String, List<String>> variants, int rounds, Path dir)
			throws Exception {
		List<String> names = new ArrayList<>(variants.keySet());
		Map<String, Samples[]> samples = new LinkedHashMap<>();
		names.forEach((name) -> samples.put(name, new Samples[] { new Samples(), new Samples(), new Samples() }));
		for (int round = 0; round < rounds; round++) {
			for (int k = 0; k < names.size(); k++) {
				String name = names.get((round + k) % names.size());
				double[] measured = started(jdk, variants.get(name), dir.resolve("start.log"));
				for (int i = 0; i < measured.length; i++) {
					samples.get(name)[i].add(measured[i]);
				}
			}
		}
		return samples;
	}

	/**
	 * One start until Spring's "Started" line: [the JVM's uptime then, its CPU then (ms), the share of its classes
	 * loaded from a cache then (%, the proof the cache was taken)]; then stopped.
	 */
	private double[] started(Jdk jdk, List<String> variant, Path log) throws Exception {
		List<String> command = new ArrayList<>(List.of(jdk.java().toString()));
		command.addAll(variant);
		command.addAll(List.of("--server.port=0", "--sample.model-loader.duration=0ms", "--sample.model-loader.warmup=0ms",
				"--management.otlp.metrics.export.enabled=false"));
		Process process = new ProcessBuilder(command).directory(log.getParent().toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
			while (System.nanoTime() < deadline) {
				Matcher started = STARTED.matcher(Files.readString(log, StandardCharsets.UTF_8));
				if (started.find()) {
					double cpu = ProcessCpu.ms(process.pid());
					Map<String, Long> counters = HotSpotCounters.of(process.pid());
					long shared = counters.getOrDefault(HotSpotCounters.SHARED_CLASSES, 0L);
					long other = counters.getOrDefault(HotSpotCounters.CLASSES, 0L);
					double share = (shared + other > 0) ? 100.0 * shared / (shared + other) : Double.NaN;
					if (Double.isNaN(this.perfReadUs) && variant.stream().noneMatch((arg) -> arg.startsWith("-Xlog"))) {
						this.perfReadUs = perfReadUs(process.pid());
					}
					return new double[] { Double.parseDouble(started.group(1)) * 1000, cpu, share };
				}
				if (!process.isAlive()) {
					throw new AssertionError("exited before it started:\n" + Files.readString(log));
				}
				// another process writes the log: poll it, bounded by its exit and the deadline
				process.waitFor(10, TimeUnit.MILLISECONDS);
			}
			throw new AssertionError("not started within " + START_TIMEOUT + ":\n" + Files.readString(log));
		}
		finally {
			process.destroy();
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor();
			}
		}
	}

	/** The median time to read a live JVM's counters file, in µs, over 200 reads. */
	private static double perfReadUs(long pid) {
		Samples reads = new Samples();
		for (int i = 0; i < 200; i++) {
			long start = System.nanoTime();
			HotSpotCounters.of(pid);
			reads.add((System.nanoTime() - start) / 1000.0);
		}
		return reads.median();
	}

	private static void run(Path dir, String... command) throws IOException, InterruptedException {
		Path log = dir.resolve("training.log");
		Process process = new ProcessBuilder(command).directory(dir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
			.start();
		assertThat(process.waitFor(10, TimeUnit.MINUTES)).isTrue();
		assertThat(process.exitValue()).as(Files.readString(log)).isZero();
	}

	/** docs/jvm-cache.md's measured section, between its markers, replaced by this result. */
	private static void updateDocs(Path result) throws IOException {
		Path docs = SampleJars.repositoryRoot().resolve("docs/jvm-cache.md");
		if (!Files.exists(docs) || System.getProperty("bench.out") == null) {
			return;
		}
		String page = Files.readString(docs);
		int begin = page.indexOf(DOCS_BEGIN);
		int end = page.indexOf(DOCS_END);
		if (begin < 0 || end < begin) {
			return;
		}
		String body = Files.readString(result).replaceFirst("^# [^\n]*\n", "").replaceAll("(?m)^## ", "#### ").strip();
		Files.writeString(docs, page.substring(0, begin + DOCS_BEGIN.length()) + "\n\n" + body + "\n\n"
				+ page.substring(end));
	}

	private static JsonNode metric(JsonNode server, String name) {
		for (JsonNode metric : server.get("metrics")) {
			if (metric.get("metric").asString().equals(name) || metric.get("name").asString().equals(name)) {
				return metric;
			}
		}
		throw new AssertionError("no " + name + " in " + server);
	}

	private static String s(JsonNode metric, String field) {
		return String.format(Locale.ROOT, "%.2f s", metric.get(field).asDouble() / 1000);
	}

	private static String pct(JsonNode metric, String field) {
		return String.format(Locale.ROOT, "%.0f%%", metric.get(field).asDouble());
	}

	private static String signed(double ms) {
		return String.format(Locale.ROOT, "%+.2f s", ms / 1000);
	}

	private static String percent(JsonNode metric) {
		JsonNode relative = metric.get("relativeDelta");
		return (relative == null || relative.isNull()) ? ""
				: String.format(Locale.ROOT, " (%+.0f%%)", 100 * relative.asDouble());
	}

	/**
	 * A JDK to measure.
	 *
	 * @param name how the result names it
	 * @param cache its cache's kind
	 * @param java its binary
	 */
	private record Jdk(String name, String cache, Path java) {

	}

	/**
	 * One fleet's compare.
	 *
	 * @param comparison its report's {@code jvmCache.comparison}
	 * @param training its training
	 * @param cacheDir its cache directory
	 * @param compareText the comparison as the supervisor printed it
	 */
	private record Fleet(JsonNode comparison, JsonNode training, Path cacheDir, String compareText) {

		/** spawn→ready without over with, for the server slowest without: the one that holds the fleet back. */
		double criticalSpeedup() {
			double best = Double.NaN;
			double slowest = -1;
			for (JsonNode server : this.comparison.get("servers")) {
				JsonNode spawn = metric(server, "server");
				if (spawn.get("without").asDouble() > slowest) {
					slowest = spawn.get("without").asDouble();
					best = spawn.get("without").asDouble() / spawn.get("with").asDouble();
				}
			}
			return best;
		}

	}

}
