package io.github.startuptelemetry.launch.local;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.startuptelemetry.launch.ConditionalOnFleet;

/**
 * The {@code local} launcher, the default: each server a process of this host. On a declared
 * fleet only, like every launcher.
 */
@AutoConfiguration
@ConditionalOnFleet
public final class LocalLauncherAutoConfiguration {

	@Bean
	LocalServerLauncher localServerLauncher() {
		return new LocalServerLauncher();
	}

}
