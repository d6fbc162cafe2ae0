/**
 * Shared configuration of the starter: {@code TelemetryProperties} (every {@code telemetry.*}
 * property but the supervisor's) and {@code @ConditionalOnTelemetryEnabled}, the one switch as
 * an auto-configuration condition.
 */
package io.github.startuptelemetry.autoconfigure;
