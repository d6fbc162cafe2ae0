package io.github.startuptelemetry.jvmcache.internal;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What a JVM's cds/aot log says about the cache it was started with (lines as JDK 17 and 25 write them). */
class JvmCacheLogTest {

	private static final Path JSA = Path.of("/c/e/app.jsa");

	private static final Path AOT = Path.of("/c/e/app.aot");

	@Test
	void jdk17TakingItsArchive() {
		JvmCacheLog log = JvmCacheLog.parse(List.of(
				"[0.020s][info][cds] trying to map /usr/lib/jvm/java-17-openjdk-amd64/lib/server/classes.jsa",
				"[0.020s][info][cds] Opened archive /usr/lib/jvm/java-17-openjdk-amd64/lib/server/classes.jsa.",
				"[0.020s][info][cds] trying to map /c/e/app.jsa", "[0.020s][info][cds] Opened archive /c/e/app.jsa.",
				"[0.229s][info][cds] CDS heap data needs to be relocated because the archive was created with an "
						+ "incompatible oop encoding mode.",
				"[0.230s][info][cds] full module graph: enabled"), JSA);

		assertThat(log.refused()).isFalse();
		assertThat(log.opened()).isTrue();
	}

	@Test
	void jdk17RefusingAnArchiveWhoseJarChangedSaysWhichJar() {
		JvmCacheLog log = JvmCacheLog.parse(List.of("[0.007s][info][cds       ] Opened archive /c/e/app.jsa.",
				"[0.295s][info][cds       ] UseSharedSpaces: A jar file is not the one used while building the shared "
						+ "archive file: lib/spring-core-7.0.8.jar",
				"[0.295s][info][cds       ] Unmapping region #0 at base 0x00007fbb38bc7000 (ReadWrite)",
				"[0.308s][warning][cds,dynamic] Unable to use shared archive. The top archive failed to load: /c/e/app.jsa"),
				JSA);

		assertThat(log.refused()).isTrue();
		assertThat(log.reason()).isEqualTo(
				"A jar file is not the one used while building the shared archive file: lib/spring-core-7.0.8.jar");
	}

	@Test
	void jdk17WithoutItsArchiveFile() {
		JvmCacheLog log = JvmCacheLog.parse(List.of("[0.027s][info][cds] trying to map /c/e/app.jsa",
				"[0.027s][info][cds] UseSharedSpaces: Specified shared archive not found (/c/e/app.jsa).",
				"[0.027s][info][cds] UseSharedSpaces: Unable to map shared spaces"), JSA);

		assertThat(log.refused()).isTrue();
		assertThat(log.opened()).isFalse();
		assertThat(log.reason()).isEqualTo("Specified shared archive not found (/c/e/app.jsa).");
	}

	@Test
	void jdk25RefusingACacheWhoseJarChangedSaysWhichJarAndWhatChanged() {
		JvmCacheLog log = JvmCacheLog.parse(List.of("[0.023s][info][aot] Opened AOT cache /c/e/app.aot.",
				"[0.227s][warning][aot] This file is not the one used while building the shared archive file: "
						+ "'lib/spring-core-7.0.8.jar', timestamp has changed",
				"[0.227s][error  ][aot] An error has occurred while processing the AOT cache. Run with -Xlog:aot for details.",
				"[0.227s][error  ][aot] shared class paths mismatch (hint: enable -Xlog:class+path=info to diagnose the failure)",
				"[0.235s][error  ][aot] Unable to map shared spaces"), AOT);

		assertThat(log.refused()).isTrue();
		assertThat(log.opened()).isTrue();
		assertThat(log.reason()).isEqualTo("This file is not the one used while building the shared archive file: "
				+ "'lib/spring-core-7.0.8.jar', timestamp has changed");
	}

	@Test
	void jdk25TakingItsCache() {
		JvmCacheLog log = JvmCacheLog.parse(List.of("[0.029s][info][aot] trying to map /c/e/app.aot",
				"[0.029s][info][aot] Opened AOT cache /c/e/app.aot.",
				"[0.257s][info][aot] Using AOT-linked classes: true (static archive: has aot-linked classes)"), AOT);

		assertThat(log.refused()).isFalse();
		assertThat(log.opened()).isTrue();
	}

	@Test
	void anEmptyOrMissingLogSaysNothing() {
		assertThat(JvmCacheLog.parse(List.of(), AOT)).isEqualTo(new JvmCacheLog(false, null, false));
		assertThat(JvmCacheLog.read(Path.of("/nonexistent/x.log"), AOT)).isEqualTo(new JvmCacheLog(false, null, false));
	}

}
