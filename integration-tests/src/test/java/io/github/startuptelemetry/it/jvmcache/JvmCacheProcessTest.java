package io.github.startuptelemetry.it.jvmcache;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import io.github.startuptelemetry.it.jvmcache.JvmCacheFleet.Step;
import io.github.startuptelemetry.it.support.JsonSchemaSubset;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JVM cache on the Java that runs these tests (JDK 17 in CI: AppCDS), with real fleets of
 * two sample servers, each step a supervisor of its own: {@code train} trains one cache for
 * their one command and starts both with it; a later {@code compare} starts both with it
 * without training (most of their classes come from it) and prints the per-server before/after
 * of its rounds; a new build of the jar makes the cache stale, which the report
 * says, and the fleet still starts. Nothing is written under the cache directory but the one
 * entry.
 */
class JvmCacheProcessTest {

	@TempDir
	Path tmp;

	/** The cache of the Java that runs the tests, and the supervisor's: an AppCDS archive below JDK 24. */
	private static final int FEATURE = Runtime.version().feature();

	private static final String KIND = (FEATURE >= 24) ? "aot" : "appcds";

	@Test
	void theCacheTrainedByTheSupervisorIsUsedComparedAndReportedStaleOnceTheJarChanged() throws Exception {
		JvmCacheFleet fleet = new JvmCacheFleet(this.tmp, "{java}");

		Step train = fleet.run("train", "train");
		JsonNode training = train.jvmCache().get("trainings").get(0);
		assertThat(train.jvmCache().get("trainings")).hasSize(1);
		assertThat(training.get("trained").asBoolean()).as(training.toString()).isTrue();
		assertThat(training.get("cacheKind").asString()).isEqualTo(KIND);
		assertThat(training.get("servers")).extracting(JsonNode::asString).containsExactly("a", "b");
		assertThat(train.log()).contains("Trained the JVM cache of a, b in ");
		// training is the supervisor's stage, never a server's spawn→ready
		assertThat(train.report().get("supervisor").get("stages").findValuesAsString("name"))
			.containsSubsequence("jvm_cache_training", "spawn_servers");
		train.assertUsedEverywhere(KIND);
		assertThat(fleet.entries()).hasSize(1);

		// a later supervisor uses the cache without training: here one comparing, whose own startup
		// runs with the caches (its one round, two starts of the fleet, keeps the test short: the
		// benchmark runs ten)
		Step compare = fleet.run("compare", "compare", "--telemetry.supervisor.jvm-cache.rounds=1");
		assertThat(compare.jvmCache().get("trainings")).isEmpty();
		assertThat(compare.log()).containsPattern("a +used: (AppCDS archive|AOT cache), JDK .*; classes from a cache "
				+ "[\\d,]+ of [\\d,]+ \\(\\d+%\\)");
		assertThat(compare.log()).contains("JVM caches compared over 1 round (")
			.containsPattern("\\n  a  spawn→ready +\\S+ s → +\\S+ s ")
			.containsPattern("\\n  b  spawn→ready +\\S+ s → +\\S+ s ")
			.containsPattern("classes from a cache +1\\d% → +[789]\\d%")
			.contains("stage that moved most: ");
		JsonNode comparison = compare.jvmCache().get("comparison");
		assertThat(comparison.get("rounds").asInt()).isEqualTo(1);
		assertThat(comparison.get("completedRounds").asInt()).isEqualTo(1);
		assertThat(comparison.get("servers")).extracting((server) -> server.get("name").asString()).containsExactly("a", "b");
		JsonNode spawnToReady = comparison.get("servers").get(0).get("metrics").get(0);
		assertThat(spawnToReady.get("metric").asString()).isEqualTo("server");
		assertThat(spawnToReady.get("pairs")).hasSize(1);
		compare.assertUsedEverywhere(KIND);
		// the rounds are the supervisor's stage, before its startup's spawn
		assertThat(compare.report().get("supervisor").get("stages").findValuesAsString("name"))
			.containsSubsequence("jvm_cache_compare", "spawn_servers");
		// the fields the caches add are the schema's
		assertThat(JsonSchemaSubset.load(SampleJars.repositoryRoot().resolve("docs/startup-report.schema.json"))
			.problems(compare.report().toString())).isEmpty();
		Document page = Jsoup.parse(Files.readString(compare.dir().resolve("startup-report.html")));
		assertThat(page.select("section.jvm-cache tr.change[data-kind=server]").eachAttr("data-server"))
			.containsExactly("a", "b");
		assertThat(page.selectFirst("section.jvm-cache h2.rounds").attr("data-completed-rounds")).isEqualTo("1");

		fleet.rebuildJar();
		Step stale = fleet.run("stale", "use");
		assertThat(stale.report().get("outcome").asString()).isEqualTo("ready");
		for (String server : List.of("a", "b")) {
			JsonNode cache = stale.cache(server);
			assertThat(cache.get("used").asBoolean()).isFalse();
			assertThat(cache.get("reason").asString()).isEqualTo("stale");
			assertThat(cache.get("detail").asString()).contains("server.jar changed since its cache was trained");
			// the JDK's own archive only
			assertThat(cache.get("classShare").asDouble()).isLessThan(0.3);
		}
		assertThat(stale.log()).containsPattern("a +not used: stale \\(server.jar changed since its cache was trained");

		// the cache directory holds its one entry and its lock, nothing else
		fleet.assertOneCleanEntry(KIND.equals("aot") ? "app.aot" : "app.jsa");
		assertThat(fleet.entries().get(0).getFileName().toString()).startsWith("server-" + KIND + FEATURE + "-");
	}

}
