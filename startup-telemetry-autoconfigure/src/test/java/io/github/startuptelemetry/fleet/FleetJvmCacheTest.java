package io.github.startuptelemetry.fleet;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.fleet.SupervisorProperties.JvmCacheMode;

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

}
