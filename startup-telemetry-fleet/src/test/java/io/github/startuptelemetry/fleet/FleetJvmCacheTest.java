package io.github.startuptelemetry.fleet;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.fleet.SupervisorProperties.JvmCacheMode;
import io.github.startuptelemetry.report.JvmCacheReport;

import static org.assertj.core.api.Assertions.assertThat;

/** When the fleet has JVM caches at all, and where they live. */
class FleetJvmCacheTest {

	@Test
	void offForTheFleetAndEveryServerMeansNoCachesAtAllAndOneServerOnIsEnough() {
		SupervisorProperties properties = new SupervisorProperties();
		SupervisorProperties.Server server = new SupervisorProperties.Server();
		server.setName("a");
		server.setCommand(List.of("java", "-jar", "a.jar"));
		properties.setServers(List.of(server));

		assertThat(FleetJvmCache.of(properties, null, () -> 0, null, null)).isNull();
		server.getJvmCache().setMode(JvmCacheMode.USE);
		assertThat(FleetJvmCache.of(properties, null, () -> 0, null, null)).isNotNull();
		properties.getJvmCache().setMode(JvmCacheMode.TRAIN);
		server.getJvmCache().setMode(JvmCacheMode.OFF);
		assertThat(FleetJvmCache.of(properties, null, () -> 0, null, null)).isNull();
	}

	@Test
	void theDirectoryIsTheConfiguredOneElseUnderTheUsersCache() {
		SupervisorProperties.JvmCache settings = new SupervisorProperties.JvmCache();
		Path expected = (System.getenv("XDG_CACHE_HOME") != null && !System.getenv("XDG_CACHE_HOME").isBlank())
				? Path.of(System.getenv("XDG_CACHE_HOME"), "startup-telemetry", "jvm-cache")
				: Path.of(System.getProperty("user.home"), ".cache", "startup-telemetry", "jvm-cache");
		assertThat(FleetJvmCache.directory(settings)).isEqualTo(expected);
		settings.setDirectory(Path.of("/srv/cache"));
		assertThat(FleetJvmCache.directory(settings)).isEqualTo(Path.of("/srv/cache"));
	}

	@Test
	void aServerNotLaunchedInThisStartSaysSoWhateverAnEarlierStartOfItGot(@TempDir Path tmp) {
		SupervisorProperties properties = new SupervisorProperties();
		SupervisorProperties.Server server = new SupervisorProperties.Server();
		server.setName("a");
		server.setCommand(List.of("{java}", "-jar", tmp.resolve("a.jar").toString()));
		properties.setServers(List.of(server));
		properties.getJvmCache().setMode(JvmCacheMode.USE);
		properties.getJvmCache().setDirectory(tmp.resolve("cache"));
		FleetJvmCache caches = FleetJvmCache.of(properties, null, () -> 4242, null, null);
		caches.beforeStartup(new RoundStartup(null));
		ServerPlan plan = FleetPlan.plan(properties, () -> 4242).get(0);

		// a compare round started it without the caches; in the next start it is never launched (a
		// dependency failed first), or its command was made but its launcher threw
		caches.commands(false).command(plan, tmp.resolve("a.log"));
		JvmCacheReport never = caches.report(List.of(new FleetServer(plan)));
		caches.commands(true).command(plan, tmp.resolve("a.log"));
		JvmCacheReport failedLaunch = caches.report(List.of(new FleetServer(plan)));

		assertThat(never.server("a").orElseThrow().reason()).isEqualTo(JvmCacheReport.NOT_STARTED);
		assertThat(failedLaunch.server("a").orElseThrow().reason()).isEqualTo(JvmCacheReport.NOT_STARTED);
	}

}
