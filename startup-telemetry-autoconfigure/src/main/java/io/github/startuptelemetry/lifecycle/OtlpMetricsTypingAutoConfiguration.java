package io.github.startuptelemetry.lifecycle;

import io.micrometer.core.ipc.http.HttpUrlConnectionSender;
import io.micrometer.registry.otlp.OtlpHttpMetricsSender;
import io.micrometer.registry.otlp.OtlpMetricsSender;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.ConditionalOnEnabledMetricsExport;
import org.springframework.context.annotation.Bean;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;

/**
 * Gym's attribute types on the OTLP metrics wire: an {@link OtlpMetricsSender} bean for Boot's
 * OTLP meter registry, whose tags and resource attributes are strings, that types each payload
 * ({@link TypedOtlpMetricsSender}). Only where Boot's OTLP registry exists; a sender of the
 * application's own wins.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.micrometer.metrics.autoconfigure.export.otlp.OtlpMetricsExportAutoConfiguration")
// Boot's own condition for its OTLP registry, and the module of ConditionalOnEnabledMetricsExport (where
// OtlpMetricsExportAutoConfiguration lives): classes every such app loads anyway. Naming OtlpMetricsSender (same
// jar), the OTLP proto (the registry's runtime dependency) or Boot's configuration class here loaded 12 classes
// (protobuf's message hierarchy among them) in every server, even with the registry off.
@ConditionalOnClass(name = { "io.micrometer.registry.otlp.OtlpMeterRegistry",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.ConditionalOnEnabledMetricsExport" })
@ConditionalOnTelemetryEnabled
@ConditionalOnEnabledMetricsExport("otlp")
public final class OtlpMetricsTypingAutoConfiguration {

	/** Micrometer's default sender (what the registry builds without a bean), typing each payload. */
	@Bean
	@ConditionalOnMissingBean
	OtlpMetricsSender startupTelemetryOtlpMetricsSender() {
		return new TypedOtlpMetricsSender(new OtlpHttpMetricsSender(new HttpUrlConnectionSender()));
	}

}
