package io.github.startuptelemetry.supervisor;

import java.util.function.Consumer;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;
import io.github.startuptelemetry.lifecycle.TelemetrySwitch;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.server.ProcessTimeline;

/**
 * The recording {@link SupervisorStartup} and the {@link SupervisorRole} that claims the process
 * timeline for it, with telemetry on. Before {@link SupervisorAutoConfiguration}, whose
 * do-nothing startup then backs off.
 */
@AutoConfiguration(before = SupervisorAutoConfiguration.class,
		afterName = "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration")
@ConditionalOnClass(OpenTelemetry.class)
@ConditionalOnTelemetryEnabled
public final class SupervisorTracingAutoConfiguration {

	/**
	 * Claims the process timeline for a supervisor before the server report could; never lazy,
	 * even under {@code spring.main.lazy-initialization}, so that the decision is made while the
	 * context refreshes.
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
		return new OpenTelemetrySupervisorStartup(openTelemetry.getIfAvailable(OpenTelemetry::noop), role.timeline(),
				childEnvironment.getIfAvailable(), System.getenv(), serverListeners.orderedStream().toList(),
				TelemetrySwitch.startupSpans(environment));
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static class MetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		SupervisorStartupMetrics supervisorStartupMetrics(ObjectProvider<MeterRegistry> registry,
				SupervisorRole role) {
			return new SupervisorStartupMetrics(registry, role);
		}

	}

}
