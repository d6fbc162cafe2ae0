package io.github.startuptelemetry.server;

import java.util.function.Consumer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;
import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.autoconfigure.internal.ConditionalOnBootOpenTelemetryTracing;
import io.github.startuptelemetry.export.internal.ExportSettings;
import io.github.startuptelemetry.export.internal.StartupExport;
import io.github.startuptelemetry.export.internal.StartupExportConfiguration;
import io.github.startuptelemetry.export.internal.StartupHistograms;
import io.github.startuptelemetry.report.internal.ReportFile;
import io.github.startuptelemetry.internal.BootLine;
import io.github.startuptelemetry.internal.HostName;
import io.github.startuptelemetry.timeline.internal.PlatformPrelude;
import io.github.startuptelemetry.tracing.internal.StartupSamplerPostProcessor;
import io.github.startuptelemetry.lifecycle.TelemetryLifecycleAutoConfiguration;
import io.github.startuptelemetry.report.StartupReportBuilder;
import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * What reports a server's own startup timeline (recorded from before the context exists by
 * {@link ServerStartupListener}): through the application's OpenTelemetry and Micrometer beans when
 * it has them, else the starter's own SDK once there is somewhere to export to
 * ({@link StartupExport}).
 */
@AutoConfiguration(after = TelemetryLifecycleAutoConfiguration.class,
		afterName = { BootLine.OPENTELEMETRY_SDK, BootLine.BOOT_3_OPENTELEMETRY_SDK })
@ConditionalOnClass(name = "io.opentelemetry.api.OpenTelemetry")
@ConditionalOnTelemetryEnabled
@EnableConfigurationProperties(TelemetryProperties.class)
@Import(StartupExportConfiguration.class)
public final class StartupTelemetryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ServerStartupReporter serverStartupReporter(StartupExport export, TelemetryProperties properties,
			Environment environment, ObjectProvider<Consumer<ServerTimeline>> consumers,
			ObjectProvider<PlatformPrelude> platform) {
		TelemetryProperties.Startup startup = properties.getStartup();
		return new ServerStartupReporter(export, serverName(startup, environment), startup.getServerType(),
				startup.isLogSummary(), properties.getShutdownTimeout(), consumers.orderedStream().toList(),
				platform.getIfUnique());
	}

	/**
	 * Wraps the application's sampler so that startup spans are always sampled: with Boot's
	 * tracing (the starter's own SDK samples them itself). Declared as a {@link BeanPostProcessor},
	 * so that its method names no SDK type; the class condition on a configuration class, not on
	 * a bean method (Spring Boot's rule).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBootOpenTelemetryTracing
	static class SamplerConfiguration {

		@Bean
		static BeanPostProcessor startupSamplerPostProcessor() {
			return new StartupSamplerPostProcessor();
		}

	}

	/**
	 * The name on the spans, the histograms and the summary line: {@code telemetry.startup.server-name},
	 * else {@code spring.application.name}, else what the resource's service is called then too,
	 * by Boot's rule ({@link ExportSettings#DEFAULT_SERVICE_NAME}, {@code unknown_service}).
	 */
	static String serverName(TelemetryProperties.Startup startup, Environment environment) {
		if (startup.getServerName() != null && !startup.getServerName().isBlank()) {
			return startup.getServerName();
		}
		return environment.getProperty("spring.application.name", ExportSettings.DEFAULT_SERVICE_NAME);
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
	 * The stage histograms, on whatever the application has ({@link StartupHistograms}: its
	 * Micrometer registry, OpenTelemetry meters). A method of its own, not a nested configuration
	 * (one class file fewer to read, load and instantiate).
	 */
	@Bean
	@ConditionalOnMissingBean
	StartupStageMetrics startupStageMetrics(StartupHistograms histograms) {
		return new StartupStageMetrics(histograms);
	}

	/** The {@code startup-timeline} actuator endpoint, with the actuator (its class condition on a class, as above). */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
	static class TimelineEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnAvailableEndpoint
		StartupTimelineEndpoint startupTimelineEndpoint(ServerStartupReporter reporter) {
			return new StartupTimelineEndpoint(reporter);
		}

	}

}
