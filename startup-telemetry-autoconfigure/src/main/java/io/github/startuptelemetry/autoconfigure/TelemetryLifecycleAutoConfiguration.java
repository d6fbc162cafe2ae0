package io.github.startuptelemetry.autoconfigure;

import io.opentelemetry.api.OpenTelemetry;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.lifecycle.TelemetryHandle;

/**
 * The process-wide telemetry lifecycle (NeMo RL's {@code setup}, for the JVM): the
 * process-global {@link TelemetryHandle} while the context runs, and a shutdown flush bounded
 * by {@code telemetry.shutdown-timeout}. Off ({@code telemetry.enabled=false}), none of this
 * is loaded.
 */
@AutoConfiguration(afterName = "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration")
@ConditionalOnTelemetryEnabled
public final class TelemetryLifecycleAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	static BoundedTelemetryShutdown boundedTelemetryShutdown(Environment environment) {
		TelemetryProperties properties = EarlyTelemetryProperties.bind(environment,
				LogFactory.getLog(BoundedTelemetryShutdown.class));
		return new BoundedTelemetryShutdown(properties.getShutdownTimeout());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(OpenTelemetry.class)
	@ConditionalOnBean(OpenTelemetry.class)
	static class HandleConfiguration {

		/** Set when the application's OpenTelemetry exists, cleared when the context closes. */
		@Bean
		@ConditionalOnMissingBean
		TelemetryHandle.Registration telemetryHandleRegistration(OpenTelemetry openTelemetry) {
			return TelemetryHandle.register(openTelemetry);
		}

	}

}
