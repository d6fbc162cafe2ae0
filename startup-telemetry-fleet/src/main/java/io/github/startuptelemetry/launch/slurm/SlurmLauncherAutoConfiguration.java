package io.github.startuptelemetry.launch.slurm;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import io.github.startuptelemetry.launch.ConditionalOnFleet;

/**
 * The {@code slurm} launcher, for a fleet whose supervisor runs inside a Slurm allocation.
 * Conditioned like the fleet launcher it serves ({@code FleetLauncherAutoConfiguration}): on a
 * declared fleet only, telemetry on or off, since a fleet still starts with telemetry off. In an
 * application the starter's import filter ({@code TelemetryAutoConfigurationFilter}) drops it by
 * name without a fleet, so Boot does not even read this class file; the condition stays for an
 * import of it.
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
