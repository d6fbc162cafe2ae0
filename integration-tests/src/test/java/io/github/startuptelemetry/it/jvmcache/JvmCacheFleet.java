package io.github.startuptelemetry.it.jvmcache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample supervisor with two sample servers (a and b, one command: one cache) on a given
 * {@code java}, its JVM cache in a given mode and directory, exiting once ready: the steps of
 * the JVM cache process tests, each a supervisor of its own (so that a cache must outlive the
 * process that trained it).
 */
final class JvmCacheFleet {

	static final Duration TIMEOUT = Duration.ofMinutes(5);

	/**
	 * The share of a server's loaded classes that must come from its cache: the sample server
	 * loads about 8,400 of its 9,600 classes (87%) from an AppCDS archive or AOT cache trained
	 * up to its context's refresh; what it loads later (the web server's start, the first
	 * requests) is not in it. Without a cache, the JDK's own archive gives 13%.
	 */
	static final double CLASS_SHARE_FLOOR = 0.75;

	private final Path dir;

	private final String java;

	private final Path jar;

	private final Path cache;

	/**
	 * @param dir the test's directory: the jar's copy, the cache, each step's reports and logs
	 * @param java the servers' {@code java}: {@code {java}} (the supervisor's) or another JDK's binary
	 */
	JvmCacheFleet(Path dir, String java) throws IOException {
		this.dir = dir;
		this.java = java;
		// a copy the test may change, as a new build would
		this.jar = Files.copy(SampleJars.server(), Files.createDirectories(dir.resolve("app")).resolve("server.jar"));
		this.cache = dir.resolve("cache");
	}

	Path cache() {
		return this.cache;
	}

	/** One supervisor: the fleet in {@code mode} ({@code more} properties after), until it exits. */
	Step run(String step, String mode, String... more) throws Exception {
		Path out = Files.createDirectories(this.dir.resolve(step));
		List<String> args = new ArrayList<>();
		args.addAll(server(0, "a"));
		args.addAll(server(1, "b"));
		args.addAll(List.of("--telemetry.supervisor.exit-when-ready=true",
				"--telemetry.supervisor.jvm-cache.mode=" + mode,
				"--telemetry.supervisor.jvm-cache.directory=" + this.cache,
				"--telemetry.supervisor.run-dir=" + out.resolve("run"),
				"--telemetry.supervisor.report.html=" + out.resolve("startup-report.html"),
				"--telemetry.supervisor.report.json=" + out.resolve("startup-report.json")));
		args.addAll(List.of(more));
		try (JavaProcess supervisor = JavaProcess.jar(SampleJars.supervisor())
			.env("MANAGEMENT_OTLP_METRICS_EXPORT_ENABLED", "false")
			.args(args.toArray(String[]::new))
			.start(this.dir.resolve(step + ".log"))) {
			int exit = supervisor.awaitExit(TIMEOUT);
			assertThat(exit).as(supervisor.log()).isZero();
			JsonNode report = new ObjectMapper().readTree(Files.readString(out.resolve("startup-report.json")));
			return new Step(supervisor.log(), report, out);
		}
	}

	private List<String> server(int index, String name) {
		String prefix = "--telemetry.supervisor.servers[" + index + "].";
		List<String> args = new ArrayList<>(List.of(prefix + "name=" + name));
		List<String> command = List.of(this.java, "-XX:TieredStopAtLevel=1", "-jar", this.jar.toString(),
				"--server.port={port}", "--spring.application.name={name}", "--sample.model-loader.duration=200ms",
				"--sample.model-loader.warmup=0ms");
		for (int i = 0; i < command.size(); i++) {
			args.add(prefix + "command[" + i + "]=" + command.get(i));
		}
		return args;
	}

	/**
	 * A new build of the server's jar: its content changes (a comment added to its zip
	 * directory's end record), its entries do not, so it still runs.
	 */
	void rebuildJar() throws IOException {
		byte[] bytes = Files.readAllBytes(this.jar);
		int end = bytes.length - 22;
		assertThat(end).isPositive();
		assertThat(new byte[] { bytes[end], bytes[end + 1], bytes[end + 2], bytes[end + 3] })
			.as("an end record without a comment closes the jar").containsExactly('P', 'K', 5, 6);
		byte[] comment = "rebuilt".getBytes();
		bytes[end + 20] = (byte) comment.length;
		bytes[end + 21] = 0;
		byte[] changed = new byte[bytes.length + comment.length];
		System.arraycopy(bytes, 0, changed, 0, bytes.length);
		System.arraycopy(comment, 0, changed, bytes.length, comment.length);
		Files.write(this.jar, changed);
	}

	/** The cache directory's entries (its subdirectories). */
	List<Path> entries() throws IOException {
		try (Stream<Path> all = Files.list(this.cache)) {
			return all.filter(Files::isDirectory).sorted().toList();
		}
	}

	/**
	 * What the one entry of the cache directory holds, top level: the extracted jar, the cache,
	 * its description, its training log and use mark, and nothing a training left behind (a
	 * JDK 25 training's temporary configuration, say).
	 */
	void assertOneCleanEntry(String cacheFile) throws IOException {
		assertThat(entries()).hasSize(1);
		try (Stream<Path> top = Files.list(this.cache)) {
			assertThat(top.map((path) -> path.getFileName().toString()))
				.containsExactlyInAnyOrder(".lock", entries().get(0).getFileName().toString());
		}
		try (Stream<Path> files = Files.list(entries().get(0))) {
			assertThat(files.map((path) -> path.getFileName().toString())).containsExactlyInAnyOrder("app", cacheFile,
					"entry.properties", "last-used", "training.log");
		}
	}

	/**
	 * One supervisor's run.
	 *
	 * @param log its output
	 * @param report its JSON report
	 * @param dir its directory (run directory, reports)
	 */
	record Step(String log, JsonNode report, Path dir) {

		JsonNode cache(String server) {
			for (JsonNode row : this.report.get("servers")) {
				if (row.get("name").asString().equals(server)) {
					return row.get("jvmCache");
				}
			}
			throw new AssertionError("no server " + server + " in " + this.report);
		}

		JsonNode jvmCache() {
			return this.report.get("jvmCache");
		}

		/** Every server started with its cache, the JVM took it, and most of its classes came from it. */
		void assertUsedEverywhere(String kind) {
			assertThat(this.report.get("outcome").asString()).isEqualTo("ready");
			for (String server : List.of("a", "b")) {
				JsonNode cache = cache(server);
				assertThat(cache.get("used").asBoolean()).as(server + ": " + cache).isTrue();
				assertThat(cache.get("cacheKind").asString()).isEqualTo(kind);
				assertThat(cache.get("classShare").asDouble()).as(server + ": " + cache).isGreaterThan(CLASS_SHARE_FLOOR);
				assertThat(cache.get("sharedClasses").asLong()).isLessThanOrEqualTo(cache.get("loadedClasses").asLong());
			}
		}

	}

}
