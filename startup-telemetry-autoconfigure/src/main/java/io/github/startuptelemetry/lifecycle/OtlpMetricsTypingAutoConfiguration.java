package io.github.startuptelemetry.lifecycle;

import io.micrometer.core.ipc.http.HttpUrlConnectionSender;
import io.micrometer.registry.otlp.OtlpHttpMetricsSender;
import io.micrometer.registry.otlp.OtlpMetricsSender;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;
import io.github.startuptelemetry.internal.BootLine;

/**
 * Gym's attribute types on the OTLP metrics wire: an {@link OtlpMetricsSender} bean for Boot's
 * OTLP meter registry, whose tags and resource attributes are strings, that types each payload
 * ({@link TypedOtlpMetricsSender}). Only where Boot's OTLP registry exists; a sender of the
 * application's own wins.
 */
@AutoConfiguration(beforeName = { BootLine.OTLP_METRICS, BootLine.BOOT_3_OTLP_METRICS })
// the registry's own class, and Boot's configuration of it as a class file (OtlpRegistry): naming OtlpMetricsSender
// (same jar), the OTLP proto (the registry's runtime dependency) or Boot's configuration class here loaded 12
// classes (protobuf's message hierarchy among them) in every server, even with the registry off
@ConditionalOnClass(name = "io.micrometer.registry.otlp.OtlpMeterRegistry")
@ConditionalOnTelemetryEnabled
@Conditional(OtlpMetricsTypingAutoConfiguration.OtlpRegistry.class)
public final class OtlpMetricsTypingAutoConfiguration {

	/** Micrometer's default sender (what the registry builds without a bean), typing each payload. */
	@Bean
	@ConditionalOnMissingBean
	OtlpMetricsSender startupTelemetryOtlpMetricsSender() {
		return new TypedOtlpMetricsSender(new OtlpHttpMetricsSender(new HttpUrlConnectionSender()));
	}

	/**
	 * Boot's OTLP registry configuration is there (under this Boot line's name) and on, as Boot's
	 * own {@code @ConditionalOnEnabledMetricsExport("otlp")} decides it, whose package differs
	 * between the lines: its own switch, else the default of all registries, else on.
	 */
	static class OtlpRegistry extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			if (!BootLine.onClassPath(BootLine.OTLP_METRICS_CONFIGURATION)) {
				return ConditionOutcome.noMatch("no OTLP meter registry configuration of Boot's");
			}
			Environment environment = context.getEnvironment();
			Boolean enabled = environment.getProperty("management.otlp.metrics.export.enabled", Boolean.class);
			if (enabled == null) {
				enabled = environment.getProperty("management.defaults.metrics.export.enabled", Boolean.class, true);
			}
			return enabled ? ConditionOutcome.match("Boot's OTLP meter registry is on")
					: ConditionOutcome.noMatch("Boot's OTLP meter registry is off");
		}

	}

}
