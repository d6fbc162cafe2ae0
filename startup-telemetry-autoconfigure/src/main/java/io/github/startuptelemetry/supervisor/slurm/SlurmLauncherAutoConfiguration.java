package io.github.startuptelemetry.supervisor.slurm;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

import io.github.startuptelemetry.supervisor.OnFleetCondition;

/** The {@code slurm} launcher, for a fleet whose supervisor runs inside a Slurm allocation. */
@AutoConfiguration
@Conditional(OnFleetCondition.class)
@EnableConfigurationProperties(SlurmProperties.class)
public final class SlurmLauncherAutoConfiguration {

	@Bean
	SlurmServerLauncher slurmServerLauncher(SlurmProperties properties) {
		return new SlurmServerLauncher(properties, System.getenv());
	}

}
