package io.github.startuptelemetry.it.jvmcache;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import io.github.startuptelemetry.it.jvmcache.JvmCacheFleet.Step;
import io.github.startuptelemetry.it.support.Jdks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The JVM cache on JDK 25 (JEP 483's AOT cache, trained in one start with JEP 514's
 * {@code -XX:AOTCacheOutput}), named by the servers' commands while the supervisor runs on the
 * tests' own Java: the supervisor reads which JDK a command's {@code java} is from that binary.
 * Trained, then used by a later supervisor, then reported stale once the jar changed, the
 * fleet still starting. Skipped, saying so, when no JDK 25+ is installed (the
 * {@code JDK25_HOME} variable, else {@code /usr/lib/jvm/*-25*}).
 */
class JvmCacheAotProcessTest {

	@TempDir
	Path tmp;

	@Test
	void anAotCacheOfAnotherJdkIsTrainedUsedAndReportedStale() throws Exception {
		Path java = Jdks.jdk25();
		assumeTrue(java != null, "no JDK 25+ found (JDK25_HOME, /usr/lib/jvm/*-25*): the AOT cache test is skipped");
		JvmCacheFleet fleet = new JvmCacheFleet(this.tmp, java.toString());

		Step train = fleet.run("train", "train");
		JsonNode training = train.jvmCache().get("trainings").get(0);
		assertThat(training.get("trained").asBoolean()).as(training.toString()).isTrue();
		assertThat(training.get("cacheKind").asString()).isEqualTo("aot");
		assertThat(training.get("java").asString()).matches("2\\d[.+-].*");
		train.assertUsedEverywhere("aot");

		Step use = fleet.run("use", "use");
		assertThat(use.jvmCache().get("trainings")).isEmpty();
		use.assertUsedEverywhere("aot");
		assertThat(use.log()).containsPattern("a +used: AOT cache, JDK 2\\d");
		assertThat(Files.readString(use.dir().resolve("run/a.jvm-cache.log"))).contains("[aot]");

		fleet.rebuildJar();
		Step stale = fleet.run("stale", "use");
		assertThat(stale.report().get("outcome").asString()).isEqualTo("ready");
		for (String server : List.of("a", "b")) {
			assertThat(stale.cache(server).get("reason").asString()).isEqualTo("stale");
		}
		fleet.assertOneCleanEntry("app.aot");
		assertThat(fleet.entries().get(0).getFileName().toString()).matches("server-aot2\\d-\\p{XDigit}{12}");
	}

}
