package io.github.startuptelemetry.supervisor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigureOrder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.lifecycle.internal.ChildTelemetrySettings;
import io.github.startuptelemetry.internal.BootClassNames;

/**
 * {@link SupervisorStartup} for launchers to autowire, fleet or not, telemetry on or off. A
 * process whose beans declare a {@link SupervisorStartup} dependency is a supervisor: its own
 * Spring startup stages go into {@code gym.startup} instead of a server report.
 * {@link SupervisorRole} is decided from the bean definitions, so when (or whether) the lazy
 * startup bean is created changes nothing; every other application keeps reporting itself as a
 * server. The recording side is {@link SupervisorTracingAutoConfiguration} (telemetry on), the
 * fleet launcher {@code FleetLauncherAutoConfiguration} (a declared fleet): separate, so that
 * the starter's import filter drops them by name where they cannot apply, and a plain server
 * reads only this class. Lazy, like its beans, and read last: a plain server creates none of
 * them, and an application's or another starter's {@code SupervisorStartup} is seen first.
 */
@AutoConfiguration(afterName = BootClassNames.OPENTELEMETRY_SDK)
@AutoConfigureOrder(Ordered.LOWEST_PRECEDENCE)
@Lazy
public final class SupervisorAutoConfiguration {

	/**
	 * With {@code telemetry.enabled=false}, or without OpenTelemetry: every method returns at once.
	 * Lazy, so that a server that never asks for it loads none of it.
	 */
	@Bean
	@Lazy
	@ConditionalOnMissingBean
	SupervisorStartup disabledSupervisorStartup(ObjectProvider<ChildTelemetryEnvironment> childEnvironment) {
		return new DisabledSupervisorStartup(childEnvironment::getIfAvailable);
	}

	/**
	 * The settings every server inherits (the supervisor's telemetry configuration as
	 * {@code TELEMETRY_*} and {@code OTEL_*} env), resolved once when a supervisor first needs
	 * them; a misconfiguration is reported then, once, by the supervisor.
	 */
	@Bean
	@Lazy
	@ConditionalOnMissingBean
	ChildTelemetryEnvironment childTelemetryEnvironment(Environment environment) {
		ChildTelemetrySettings settings = ChildTelemetrySettings.of(environment);
		settings.validate();
		return settings::forServer;
	}

}
