package io.github.startuptelemetry.server;

import java.util.function.Consumer;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;
import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.internal.report.ReportFile;
import io.github.startuptelemetry.internal.support.HostName;
import io.github.startuptelemetry.internal.timeline.PlatformPrelude;
import io.github.startuptelemetry.internal.tracing.StartupSamplerPostProcessor;
import io.github.startuptelemetry.report.StartupReportBuilder;
import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * A server's own startup timeline, reported through the application's OpenTelemetry and
 * Micrometer beans. Off ({@code telemetry.enabled=false}), none of this is even loaded. The
 * timeline itself is recorded from before the context exists ({@link ServerStartupListener});
 * this configuration provides what reports it.
 */
@AutoConfiguration(afterName = "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration")
@ConditionalOnClass(name = "io.opentelemetry.api.OpenTelemetry")
@ConditionalOnTelemetryEnabled
@EnableConfigurationProperties(TelemetryProperties.class)
public final class StartupTelemetryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ServerStartupReporter serverStartupReporter(ObjectProvider<OpenTelemetry> openTelemetry,
			TelemetryProperties properties, Environment environment,
			ObjectProvider<Consumer<ServerTimeline>> consumers, ObjectProvider<PlatformPrelude> platform) {
		TelemetryProperties.Startup startup = properties.getStartup();
		return new ServerStartupReporter(openTelemetry.getIfAvailable(), serverName(startup, environment),
				startup.getServerType(), startup.isLogSummary(), consumers.orderedStream().toList(),
				platform.getIfUnique());
	}

	/**
	 * Wraps the application's sampler so that startup spans are always sampled. Declared as a
	 * {@link BeanPostProcessor}, so this class's methods name no SDK type: a method of its own,
	 * not a nested configuration (one class file fewer to read, load and instantiate).
	 */
	@Bean
	@ConditionalOnClass(name = "io.opentelemetry.sdk.trace.samplers.Sampler")
	static BeanPostProcessor startupSamplerPostProcessor() {
		return new StartupSamplerPostProcessor();
	}

	static String serverName(TelemetryProperties.Startup startup, Environment environment) {
		if (startup.getServerName() != null && !startup.getServerName().isBlank()) {
			return startup.getServerName();
		}
		return environment.getProperty("spring.application.name", "application");
	}

	/**
	 * The lone server's JSON document, when {@code telemetry.startup.report.json} names a file.
	 * A configuration of its own, so that a server without one never loads the report's classes.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "telemetry.startup.report.json")
	static class JsonReportConfiguration {

		@Bean
		Consumer<ServerTimeline> serverJsonReport(TelemetryProperties properties) {
			ReportFile file = ReportFile.serverJson(properties.getStartup().getReport().getJson());
			return (timeline) -> file.write(StartupReportBuilder.ofServer(timeline).run(
					properties.getRunId(), HostName.get()).build());
		}

	}

	/**
	 * The stage histograms, with Micrometer. A method of its own, not a nested configuration (one
	 * class file fewer to read, load and instantiate): its signature names only our type and
	 * {@code ObjectProvider}.
	 */
	@Bean
	@ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
	@ConditionalOnMissingBean
	StartupStageMetrics startupStageMetrics(ObjectProvider<MeterRegistry> registry) {
		return new StartupStageMetrics(registry);
	}

	/** The {@code startup-timeline} actuator endpoint, with the actuator; a method of its own, as above. */
	@Bean
	@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	StartupTimelineEndpoint startupTimelineEndpoint(ServerStartupReporter reporter) {
		return new StartupTimelineEndpoint(reporter);
	}

}
