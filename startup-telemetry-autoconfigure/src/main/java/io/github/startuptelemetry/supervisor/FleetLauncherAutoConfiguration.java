package io.github.startuptelemetry.supervisor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;

/**
 * The fleet launcher, when {@code telemetry.supervisor.servers} (or {@code .fleet}) is set,
 * telemetry on or off: a fleet still starts with telemetry off, on the do-nothing
 * {@link SupervisorStartup}. An incomplete fleet is declared too, so that it fails validation
 * naming the property.
 */
@AutoConfiguration(after = { SupervisorTracingAutoConfiguration.class, SupervisorAutoConfiguration.class })
@Conditional(OnFleetCondition.class)
@EnableConfigurationProperties(SupervisorProperties.class)
public final class FleetLauncherAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	FleetLauncher fleetLauncher(SupervisorProperties properties, SupervisorStartup startup,
			ObjectProvider<ServerLauncher> launchers, Environment environment) {
		return new FleetLauncher(properties, startup, launchers.orderedStream().toList(),
				environment.getProperty(TelemetryProperties.RUN_ID));
	}

	/** The default launcher: each server a process of this host. */
	@Bean
	LocalServerLauncher localServerLauncher() {
		return new LocalServerLauncher();
	}

}
