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
import io.github.startuptelemetry.internal.BootLine;

/**
 * {@link SupervisorStartup} for launchers to autowire, fleet or not, telemetry on or off. A
 * process whose beans declare a {@link SupervisorStartup} dependency is a supervisor
 * ({@link SupervisorRole}): its own startup stages go into {@code gym.startup} instead of a server
 * report.
 */
@AutoConfiguration(afterName = { BootLine.OPENTELEMETRY_SDK, BootLine.BOOT_3_OPENTELEMETRY_SDK })
// Apart from the recording side (SupervisorTracingAutoConfiguration) and the fleet launcher, so that the
// import filter drops those by name and a plain server reads only this class. Lazy and read last, so
// that a plain server creates none of its beans and another SupervisorStartup is seen first.
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
