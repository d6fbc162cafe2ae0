package io.github.startuptelemetry.readiness;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;

/**
 * The {@link ReadinessWarmUp} of an application that is told which path will be probed
 * ({@code telemetry.startup.warm-up.path}, set by the fleet launcher); nothing otherwise, and
 * nothing with {@code telemetry.enabled=false}. Without a web server it never does anything.
 */
@AutoConfiguration
@ConditionalOnClass(name = "org.springframework.boot.web.server.WebServer")
@ConditionalOnTelemetryEnabled
@ConditionalOnProperty(name = "telemetry.startup.warm-up.path")
@EnableConfigurationProperties(WarmUpProperties.class)
public final class ReadinessWarmUpAutoConfiguration {

	@Bean
	ReadinessWarmUp startupTelemetryReadinessWarmUp(WarmUpProperties properties) {
		return new ReadinessWarmUp(properties);
	}

}
