package io.github.startuptelemetry.launch.slurm;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import io.github.startuptelemetry.launch.ConditionalOnFleet;

/**
 * The {@code slurm} launcher, for a fleet whose supervisor runs inside a Slurm allocation; on a
 * declared fleet only, telemetry on or off, like the fleet launcher it serves.
 */
@AutoConfiguration
@ConditionalOnFleet
@EnableConfigurationProperties(SlurmProperties.class)
public final class SlurmLauncherAutoConfiguration {

	@Bean
	SlurmServerLauncher slurmServerLauncher(SlurmProperties properties) {
		return new SlurmServerLauncher(properties, System.getenv());
	}

}
