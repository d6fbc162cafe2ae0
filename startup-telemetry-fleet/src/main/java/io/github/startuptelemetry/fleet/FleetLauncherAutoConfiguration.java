package io.github.startuptelemetry.fleet;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.launch.ConditionalOnFleet;
import io.github.startuptelemetry.launch.ServerLauncher;
import io.github.startuptelemetry.supervisor.ChildTelemetryEnvironment;
import io.github.startuptelemetry.supervisor.SupervisorAutoConfiguration;
import io.github.startuptelemetry.supervisor.SupervisorStartup;
import io.github.startuptelemetry.supervisor.SupervisorTracingAutoConfiguration;

/**
 * The fleet launcher, when {@code telemetry.supervisor.servers} (or {@code .fleet}) is set,
 * telemetry on or off. Before the supervisor's configurations, so that the supervisor's role sees
 * the fleet launcher's {@link SupervisorStartup} dependency when it is decided.
 */
@AutoConfiguration(before = { SupervisorTracingAutoConfiguration.class, SupervisorAutoConfiguration.class })
@ConditionalOnFleet
@EnableConfigurationProperties
public final class FleetLauncherAutoConfiguration {

	/** {@code depends-on}'s values: an empty one is {@code ready}, a wrong one fails saying what belongs there. */
	@Bean
	@ConfigurationPropertiesBinding
	static DependencyConditionConverter dependencyConditionConverter() {
		return new DependencyConditionConverter();
	}

	/** {@code depends-on} as a list of names, each to be ready, beside the map form. */
	@Bean
	static DependsOnListForm dependsOnListForm() {
		return new DependsOnListForm();
	}

	/** Bound to {@code telemetry.supervisor.*}, and checked then by its validator. */
	@Bean
	SupervisorProperties supervisorProperties(Environment environment) {
		return new SupervisorProperties().validatedBy(new SupervisorPropertiesValidator(environment));
	}

	@Bean
	@ConditionalOnMissingBean
	FleetLauncher fleetLauncher(SupervisorProperties properties, SupervisorStartup startup,
			ObjectProvider<ServerLauncher> launchers, Environment environment,
			ObjectProvider<ChildTelemetryEnvironment> childEnvironment) {
		return new FleetLauncher(properties, startup, launchers.orderedStream().toList(),
				environment.getProperty(TelemetryProperties.RUN_ID), childEnvironment.getIfAvailable());
	}

}
