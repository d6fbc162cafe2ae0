package io.github.startuptelemetry.supervisor;

import java.util.function.Consumer;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;
import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.lifecycle.ChildTelemetrySettings;
import io.github.startuptelemetry.lifecycle.TelemetrySwitch;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.server.ProcessTimeline;

/**
 * {@link SupervisorStartup} for launchers to autowire, and the fleet launcher when
 * {@code telemetry.supervisor.servers} is set. A process whose beans declare a
 * {@link SupervisorStartup} dependency is a supervisor: its own Spring startup stages go into
 * {@code gym.startup} instead of a server report. {@link SupervisorRole} decides that from the
 * bean definitions, so when (or whether) the lazy startup bean is created changes nothing;
 * every other application keeps reporting itself as a server.
 */
@AutoConfiguration(afterName = "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration")
public final class SupervisorAutoConfiguration {

	/**
	 * With {@code telemetry.enabled=false}, or without OpenTelemetry: every method returns at once.
	 * Lazy, so that a server that never asks for it loads none of it.
	 */
	@Bean
	@Lazy
	@ConditionalOnMissingBean
	SupervisorStartup disabledSupervisorStartup(ObjectProvider<ChildTelemetryEnvironment> childEnvironment) {
		return SupervisorStartup.disabled(childEnvironment::getIfAvailable);
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

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(OpenTelemetry.class)
	@ConditionalOnTelemetryEnabled
	static class TracingConfiguration {

		/**
		 * Claims the process timeline for a supervisor before the server report could; never
		 * lazy, even under {@code spring.main.lazy-initialization}, so that the decision is made
		 * while the context refreshes.
		 */
		@Bean
		@Lazy(false)
		static SupervisorRole startupTelemetrySupervisorRole(ConfigurableListableBeanFactory beanFactory,
				ObjectProvider<ProcessTimeline> processTimeline) {
			return new SupervisorRole(beanFactory, processTimeline);
		}

		@Bean
		@Lazy
		@ConditionalOnMissingBean
		SupervisorStartup supervisorStartup(ObjectProvider<OpenTelemetry> openTelemetry, SupervisorRole role,
				ObjectProvider<ChildTelemetryEnvironment> childEnvironment,
				ObjectProvider<Consumer<ServerReport>> serverListeners, Environment environment) {
			return new OpenTelemetrySupervisorStartup(openTelemetry.getIfAvailable(OpenTelemetry::noop),
					role.timeline(), childEnvironment.getIfAvailable(), System.getenv(),
					serverListeners.orderedStream().toList(), TelemetrySwitch.startupSpans(environment));
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(MeterRegistry.class)
		static class MetricsConfiguration {

			@Bean
			@ConditionalOnMissingBean
			SupervisorStartupMetrics supervisorStartupMetrics(ObjectProvider<MeterRegistry> registry) {
				return new SupervisorStartupMetrics(registry);
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@Conditional(OnFleetCondition.class)
	@EnableConfigurationProperties(SupervisorProperties.class)
	static class FleetConfiguration {

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

}
