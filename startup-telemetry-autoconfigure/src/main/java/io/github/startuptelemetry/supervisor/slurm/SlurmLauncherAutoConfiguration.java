package io.github.startuptelemetry.supervisor.slurm;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

import io.github.startuptelemetry.supervisor.OnFleetCondition;

/**
 * The {@code slurm} launcher, for a fleet whose supervisor runs inside a Slurm allocation.
 * Conditioned like the fleet launcher it serves ({@code SupervisorAutoConfiguration}'s fleet
 * configuration): on a declared fleet only, telemetry on or off, since a fleet still starts
 * with telemetry off. The condition is evaluated from class metadata, so a process without a
 * fleet never loads this class (off means free: {@code OffPathClassLoadTest}).
 */
@AutoConfiguration
@Conditional(OnFleetCondition.class)
@EnableConfigurationProperties(SlurmProperties.class)
public final class SlurmLauncherAutoConfiguration {

	@Bean
	SlurmServerLauncher slurmServerLauncher(SlurmProperties properties) {
		return new SlurmServerLauncher(properties, System.getenv());
	}

}
