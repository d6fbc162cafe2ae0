package io.github.startuptelemetry.lifecycle;

import java.time.Duration;

import io.micrometer.tracing.exporter.SpanExportingPredicate;
import io.opentelemetry.api.OpenTelemetry;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;
import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.autoconfigure.internal.ConditionalOnBootOpenTelemetry;
import io.github.startuptelemetry.autoconfigure.internal.EarlyTelemetryProperties;
import io.github.startuptelemetry.export.internal.StartupExportConfiguration;
import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;
import io.github.startuptelemetry.internal.BootLine;

/**
 * The process-wide telemetry lifecycle (NeMo RL's {@code setup}, for the JVM): where the startup
 * telemetry goes ({@code StartupExport}), Gym's histograms, the {@link TelemetryHandle}, the
 * bounded shutdown flush, the resource's int-typed attributes and NeMo Gym's span groups.
 */
@AutoConfiguration(afterName = { BootLine.OPENTELEMETRY_SDK, BootLine.BOOT_3_OPENTELEMETRY_SDK })
@ConditionalOnTelemetryEnabled
@Import(StartupExportConfiguration.class)
public final class TelemetryLifecycleAutoConfiguration {

	private static final String OPEN_TELEMETRY = "io.opentelemetry.api.OpenTelemetry";

	@Bean
	@ConditionalOnMissingBean
	static BoundedTelemetryShutdown boundedTelemetryShutdown(Environment environment) {
		// the one property it needs, not the whole tree (the context binds that later)
		Duration timeout = EarlyTelemetryProperties.bind(environment, TelemetryProperties.SHUTDOWN_TIMEOUT,
				Bindable.of(Duration.class), new TelemetryProperties().getShutdownTimeout(),
				LogFactory.getLog(BoundedTelemetryShutdown.class));
		return new BoundedTelemetryShutdown(timeout);
	}

	/**
	 * Set when the application's OpenTelemetry exists, cleared when the context closes. A
	 * method of its own, not a nested configuration (one class file fewer to read, load and
	 * instantiate), so its signature names no OpenTelemetry type; without OpenTelemetry's class
	 * {@code @ConditionalOnBean} backs off too (a type it cannot load matches no bean).
	 */
	@Bean
	@ConditionalOnBean(type = OPEN_TELEMETRY)
	@ConditionalOnMissingBean
	static TelemetryHandle.Registration telemetryHandleRegistration(ObjectProvider<OpenTelemetry> openTelemetry) {
		return TelemetryHandle.register(openTelemetry.getObject());
	}

	/**
	 * Boot's OpenTelemetry resource with nemo-lens's int-typed attributes as ints; only with
	 * Boot's OpenTelemetry support (the starter's own SDK types its resource itself). A class
	 * condition belongs on a configuration class, not on a bean method (Spring Boot's rule).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBootOpenTelemetry
	static class TypedResourceConfiguration {

		@Bean
		static TypedResourcePostProcessor startupTelemetryTypedResourcePostProcessor() {
			return new TypedResourcePostProcessor();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(SpanExportingPredicate.class)
	static class SpanGroupConfiguration {

		/** Startup spans are exported only while NeMo Gym's startup span group is selected. */
		@Bean
		SpanExportingPredicate startupSpanGroupPredicate(Environment environment) {
			boolean startup = TelemetrySwitch.startupSpans(environment);
			return (span) -> startup || !SpanNames.isStartupSpan(span.getName());
		}

	}

}
