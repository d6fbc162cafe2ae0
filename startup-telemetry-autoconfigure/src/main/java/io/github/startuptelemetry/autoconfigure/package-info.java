/**
 * Configuration every module shares: {@code TelemetryProperties} and
 * {@code @ConditionalOnTelemetryEnabled}.
 */
@NullMarked
package io.github.startuptelemetry.autoconfigure;

import org.jspecify.annotations.NullMarked;
