package io.github.startuptelemetry.export.internal;

import io.opentelemetry.api.OpenTelemetry;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The process's startup export and Gym's histograms, imported by every auto-configuration that
 * reports (the server's, the supervisor's, the lifecycle's), so that each works imported on its
 * own; registered once however many import it.
 */
@Configuration(proxyBeanMethods = false)
public class StartupExportConfiguration {

	/**
	 * Where the process's startup telemetry goes, and the thread that sends it: the application's
	 * OpenTelemetry, or an SDK of the starter's built only once there is something to send
	 * somewhere. Settings are read, and anything loaded, on that thread, after ready.
	 */
	@Bean
	@ConditionalOnMissingBean
	static StartupExport startupTelemetryExport(Environment environment, ObjectProvider<OpenTelemetry> openTelemetry,
			ListableBeanFactory beanFactory) {
		return new StartupExport(environment, System.getenv(), openTelemetry, beanFactory);
	}

	/** Gym's two histograms, on the application's Micrometer registry and OpenTelemetry meters. */
	@Bean
	@ConditionalOnMissingBean
	static StartupHistograms startupTelemetryHistograms(StartupExport export) {
		return new StartupHistograms(export);
	}

}
