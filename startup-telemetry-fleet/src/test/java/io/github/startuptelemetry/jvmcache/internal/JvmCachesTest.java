package io.github.startuptelemetry.jvmcache.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.report.JvmCacheReport;
import io.github.startuptelemetry.report.JvmCacheReport.ServerCache;
import io.github.startuptelemetry.report.JvmCacheReport.Training;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Training, looking up, applying and observing caches, on a stand-in JDK ({@link FakeJdk}): the
 * bookkeeping, fast. What real JVMs do with the caches is the process tests' part.
 */
class JvmCachesTest {

	@TempDir
	Path tmp;

	private Path java;

	private Path jar;

	private Path cache;

	private Path run;

	@BeforeEach
	void jdkAndJar() throws Exception {
		this.java = FakeJdk.install(this.tmp.resolve("jdk"), "17.0.9+1");
		this.jar = FakeJdk.bootJar(this.tmp.resolve("apps/server.jar"), "build 1");
		this.cache = this.tmp.resolve("cache");
		this.run = Files.createDirectories(this.tmp.resolve("run"));
	}

	@Test
	void oneTrainingPerDistinctCommandThenEachReplicaStartsWithItsCacheAndItsOwnArguments() throws Exception {
		JvmCaches caches = caches(Long.MAX_VALUE);
		List<Training> trained = caches.prepare(List.of(server("a-0", 1, true), server("a-1", 2, true),
				new JvmCaches.Server("py", List.of("python3", "stub.py"), null, Map.of(), true, true)));

		assertThat(trained).singleElement().satisfies((training) -> {
			assertThat(training.trained()).as(training.detail()).isTrue();
			assertThat(training.servers()).containsExactly("a-0", "a-1");
			assertThat(training.kind()).isEqualTo("appcds");
			assertThat(training.java()).isEqualTo("17.0.9+1 (Test)");
			assertThat(training.sizeBytes()).isPositive();
		});
		Path entry = Path.of(trained.get(0).entry());
		assertThat(entry.getParent()).isEqualTo(this.cache.toAbsolutePath());
		assertThat(entry.getFileName().toString()).startsWith("server-appcds17-");
		assertThat(entry.resolve("app.jsa")).exists();
		assertThat(entry.resolve("app/server.jar")).exists();
		assertThat(Files.readString(entry.resolve("training.log"))).contains("-XX:ArchiveClassesAtExit=" + entry.resolve("app.jsa"))
			.contains("-Dspring.context.exit=onRefresh")
			.contains("--server.port=…");

		List<String> command = caches.apply("a-1", command(7), this.run.resolve("a-1.log"), true);

		assertThat(command).containsExactly(this.java.toString(), "-XX:SharedArchiveFile=" + entry.resolve("app.jsa"),
				"-Xlog:cds=info:file=\"" + this.run.resolve("a-1.jvm-cache.log") + "\"::filecount=0",
				"-XX:TieredStopAtLevel=1", "-jar", entry.resolve("app/server.jar").toString(), "--server.port=7");
		assertThat(caches.apply("py", List.of("python3", "stub.py"), this.run.resolve("py.log"), true))
			.containsExactly("python3", "stub.py");
		assertThat(caches.observe("a-1", -1, false)).isEqualTo(new ServerCache("a-1", JvmCacheReport.USED, null,
				"appcds", "17.0.9+1 (Test)", -1, -1));
		assertThat(caches.observe("py", -1, false).reason()).isEqualTo(JvmCacheReport.NOT_JAVA);
		assertThat(caches.observe("py", -1, false).detail()).contains("it runs python3");
		assertThat(entry.resolve("last-used")).exists();
		// nothing of the caches anywhere but in their directory (the JVM's own log goes beside the server's)
		assertThat(filesOutside(this.cache, this.run, this.tmp.resolve("jdk"), this.tmp.resolve("apps"))).isEmpty();
	}

	@Test
	void aServerThatOnlyUsesCachesStartsWithTheOneTrainedForItsCommandBeforeTheStartup() throws Exception {
		JvmCaches caches = caches(Long.MAX_VALUE);

		// two servers of one command: a may be trained, b only uses (its own jvm-cache.mode: use)
		List<Training> trained = caches.prepare(List.of(server("a", 1, true), server("b", 2, false)));

		assertThat(trained).singleElement().satisfies((training) -> assertThat(training.servers()).containsExactly("a"));
		assertThat(caches.apply("b", command(2), this.run.resolve("b.log"), true))
			.contains("-XX:SharedArchiveFile=" + Path.of(trained.get(0).entry()).resolve("app.jsa"));
		assertThat(caches.observe("b", -1, false).reason()).isEqualTo(JvmCacheReport.USED);
	}

	@Test
	void aLaterSupervisorUsesTheCacheWithoutTrainingAndARoundWithoutCachesLeavesTheCommandAlone() throws Exception {
		caches(Long.MAX_VALUE).prepare(List.of(server("a", 1, true)));
		JvmCaches later = caches(Long.MAX_VALUE);

		assertThat(later.prepare(List.of(server("a", 1, false)))).isEmpty();
		assertThat(later.apply("a", command(1), this.run.resolve("a.log"), true)).anyMatch((arg) -> arg.startsWith(
				"-XX:SharedArchiveFile="));
		assertThat(later.apply("a", command(1), this.run.resolve("a.log"), false)).isEqualTo(command(1));
		assertThat(later.observe("a", -1, false).reason()).isEqualTo(JvmCacheReport.WITHOUT);
	}

	@Test
	void aChangedJarOrJvmMakesTheCacheStaleNewOptionsNeedTheirOwnAndNothingTrainsWithoutAsking() throws Exception {
		JvmCaches missing = caches(Long.MAX_VALUE);
		missing.prepare(List.of(server("a", 1, false)));
		assertThat(started(missing, "a").reason()).isEqualTo(JvmCacheReport.MISSING);
		assertThat(this.cache.resolve("server-appcds17")).doesNotExist();
		caches(Long.MAX_VALUE).prepare(List.of(server("a", 1, true)));

		FakeJdk.bootJar(this.jar, "build 2");
		JvmCaches rebuilt = caches(Long.MAX_VALUE);
		rebuilt.prepare(List.of(server("a", 1, false)));

		assertThat(rebuilt.apply("a", command(1), this.run.resolve("a.log"), true)).isEqualTo(command(1));
		ServerCache stale = rebuilt.observe("a", -1, false);
		assertThat(stale.reason()).isEqualTo(JvmCacheReport.STALE);
		assertThat(stale.detail()).contains("server.jar changed since its cache was trained");

		caches(Long.MAX_VALUE).prepare(List.of(server("a", 1, true)));
		assertThat(entries()).as("the stale entry is replaced").hasSize(1);
		JvmCaches otherOptions = caches(Long.MAX_VALUE);
		otherOptions.prepare(List.of(new JvmCaches.Server("a", List.of(this.java.toString(), "-Xmx1g", "-jar",
				this.jar.toString()), null, Map.of(), true, false)));
		assertThat(started(otherOptions, "a").reason()).isEqualTo(JvmCacheReport.MISSING);
		assertThat(otherOptions.observe("a", -1, false).detail()).contains("no cache trained for this JVM and these "
				+ "options (17.0.9+1 (Test), -Xmx1g)");

		FakeJdk.install(this.tmp.resolve("jdk"), "17.0.10+2");
		JvmCaches updated = caches(Long.MAX_VALUE);
		updated.prepare(List.of(server("a", 1, false)));
		assertThat(started(updated, "a").reason()).isEqualTo(JvmCacheReport.STALE);
		assertThat(updated.observe("a", -1, false).detail())
			.isEqualTo("the JVM changed since its cache was trained: 17.0.9+1 (Test) then, 17.0.10+2 (Test) now");
	}

	@Test
	void aCacheTheJvmRefusedIsReportedWithItsReasonNotUsedAgainAndRetrainedOnRequest() throws Exception {
		JvmCaches caches = caches(Long.MAX_VALUE);
		caches.prepare(List.of(server("a", 1, true)));
		caches.apply("a", command(1), this.run.resolve("a.log"), true);
		Files.writeString(this.run.resolve("a.jvm-cache.log"), """
				[0.1s][info][cds] UseSharedSpaces: A jar file is not the one used while building the shared archive file: lib/x.jar
				[0.1s][warning][cds,dynamic] Unable to use shared archive. The top archive failed to load: app.jsa
				""");

		ServerCache refused = caches.observe("a", -1, false);

		assertThat(refused.reason()).isEqualTo(JvmCacheReport.REFUSED);
		assertThat(refused.detail()).isEqualTo("A jar file is not the one used while building the shared archive file: "
				+ "lib/x.jar");
		JvmCaches later = caches(Long.MAX_VALUE);
		later.prepare(List.of(server("a", 1, false)));
		assertThat(later.apply("a", command(1), this.run.resolve("a.log"), true)).isEqualTo(command(1));
		assertThat(later.observe("a", -1, false).detail()).startsWith("refused by the JVM when last used: A jar file");
		JvmCaches retrain = caches(Long.MAX_VALUE);
		assertThat(retrain.prepare(List.of(server("a", 1, true)))).singleElement()
			.satisfies((training) -> assertThat(training.trained()).isTrue());
		retrain.apply("a", command(1), this.run.resolve("a.log"), true);
		Files.deleteIfExists(this.run.resolve("a.jvm-cache.log"));
		assertThat(retrain.observe("a", -1, false).reason()).isEqualTo(JvmCacheReport.USED);
	}

	@Test
	void aFailedTrainingSaysWhyAndTheServerStartsAsItIs() throws Exception {
		JvmCaches caches = caches(Long.MAX_VALUE);
		List<Training> trained = caches.prepare(List.of(new JvmCaches.Server("a", command(1), null,
				Map.of("FAKE_JAVA_FAIL", "1"), true, true)));

		assertThat(trained).singleElement().satisfies((training) -> {
			assertThat(training.trained()).isFalse();
			assertThat(training.detail()).contains("the training start exited with 3")
				.contains("Error: training failed on purpose");
		});
		assertThat(caches.apply("a", command(1), this.run.resolve("a.log"), true)).isEqualTo(command(1));
		assertThat(caches.observe("a", -1, false).reason()).isEqualTo(JvmCacheReport.TRAINING_FAILED);
		// incomplete, kept for its log until the next training evicts it
		Path entry = Path.of(trained.get(0).entry());
		assertThat(entry.resolve("training.log")).exists();
		assertThat(entry.resolve("entry.properties")).doesNotExist();
		caches(Long.MAX_VALUE).prepare(List.of(server("a", 1, true)));
		assertThat(entry.resolve("entry.properties")).exists();
	}

	@Test
	void aTrainingStartThatNeverExitsIsStoppedAtTheTimeout() throws Exception {
		JvmCaches caches = new JvmCaches(new JvmCaches.Settings("train", this.cache, Long.MAX_VALUE, Duration.ofMillis(500)));
		long start = System.nanoTime();

		List<Training> trained = caches.prepare(List.of(new JvmCaches.Server("a", command(1), null,
				Map.of("FAKE_JAVA_SLEEP", "1"), true, true)));

		assertThat(trained.get(0).trained()).isFalse();
		assertThat(trained.get(0).detail()).contains("still running after the training timeout");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
	}

	@Test
	void theDirectoryIsBoundedTheLeastRecentlyUsedEntryGoesFirst() throws Exception {
		Path other = FakeJdk.bootJar(this.tmp.resolve("apps/other.jar"), "other");
		caches(Long.MAX_VALUE).prepare(List.of(server("a", 1, true)));
		long oneEntry = CacheDirectory.size(this.cache);

		// room for one entry and a half: training the second one evicts the first
		caches(oneEntry * 3 / 2).prepare(List.of(new JvmCaches.Server("b", List.of(this.java.toString(), "-jar",
				other.toString()), null, Map.of(), true, true)));

		assertThat(entries()).singleElement().satisfies((entry) -> assertThat(entry).startsWith("other-appcds17-"));
	}

	@Test
	void aTrainingStartStoppedAtTheTimeoutKeepsTheCacheItsJvmWroteAsItExited() throws Exception {
		// long enough for the stand-in to be waiting for SIGTERM when it comes
		JvmCaches caches = new JvmCaches(new JvmCaches.Settings("train", this.cache, Long.MAX_VALUE, Duration.ofSeconds(3)));

		List<Training> trained = caches.prepare(List.of(new JvmCaches.Server("a", command(1), null,
				Map.of("FAKE_JAVA_UNTIL_TERM", "1"), true, true)));

		assertThat(trained).singleElement().satisfies((training) -> {
			assertThat(training.trained()).as(training.detail()).isTrue();
			assertThat(training.detail()).contains("stopped at the training timeout");
		});
		assertThat(Files.readString(Path.of(trained.get(0).entry()).resolve("training.log")))
			.contains("still running after the training timeout");
		assertThat(caches.apply("a", command(1), this.run.resolve("a.log"), true))
			.anyMatch((arg) -> arg.startsWith("-XX:SharedArchiveFile="));
	}

	@Test
	void aCacheDeletedSinceItWasLookedUpIsNotGivenToItsServerWhichStartsAsItIs() throws Exception {
		Path other = FakeJdk.bootJar(this.tmp.resolve("apps/other.jar"), "other");
		caches(Long.MAX_VALUE).prepare(List.of(server("a", 1, true)));
		long oneEntry = CacheDirectory.size(this.cache);
		JvmCaches caches = caches(oneEntry * 3 / 2);

		// a's cache is there when looked up; training b's then evicts it (least recently used) to keep the bound
		caches.prepare(List.of(server("a", 1, true), new JvmCaches.Server("b", List.of(this.java.toString(), "-jar",
				other.toString()), null, Map.of(), true, true)));

		assertThat(entries()).singleElement().satisfies((entry) -> assertThat(entry).startsWith("other-appcds17-"));
		// not started with a cache and an extracted jar that are gone (the JVM would not find the jar)
		assertThat(caches.apply("a", command(1), this.run.resolve("a.log"), true)).isEqualTo(command(1));
		ServerCache a = caches.observe("a", -1, false);
		assertThat(a.reason()).isEqualTo(JvmCacheReport.MISSING);
		assertThat(a.detail()).contains("was deleted since it was looked up");
	}

	/** What the cache did for {@code name} once started (with the cache if it has one). */
	private ServerCache started(JvmCaches caches, String name) {
		caches.apply(name, command(1), this.run.resolve(name + ".log"), true);
		return caches.observe(name, -1, false);
	}

	@Test
	void aServerThatWasNeverLaunchedSaysSo() throws Exception {
		JvmCaches caches = caches(Long.MAX_VALUE);
		caches.prepare(List.of(server("a", 1, true)));

		assertThat(caches.observe("a", -1, false).reason()).isEqualTo(JvmCacheReport.NOT_STARTED);
	}

	private JvmCaches caches(long maxBytes) {
		return new JvmCaches(new JvmCaches.Settings("train", this.cache, maxBytes, Duration.ofMinutes(1)));
	}

	private JvmCaches.Server server(String name, int port, boolean train) {
		return new JvmCaches.Server(name, command(port), null, Map.of(), true, train);
	}

	private List<String> command(int port) {
		return List.of(this.java.toString(), "-XX:TieredStopAtLevel=1", "-jar", this.jar.toString(),
				"--server.port=" + port);
	}

	private List<String> entries() throws Exception {
		try (Stream<Path> dirs = Files.list(this.cache)) {
			return dirs.filter(Files::isDirectory).map((dir) -> dir.getFileName().toString()).sorted().toList();
		}
	}

	private List<Path> filesOutside(Path... dirs) throws Exception {
		try (Stream<Path> all = Files.walk(this.tmp)) {
			return all.filter(Files::isRegularFile)
				.filter((file) -> Stream.of(dirs).noneMatch((dir) -> file.startsWith(dir.toAbsolutePath())))
				.sorted(Comparator.naturalOrder())
				.toList();
		}
	}

}
