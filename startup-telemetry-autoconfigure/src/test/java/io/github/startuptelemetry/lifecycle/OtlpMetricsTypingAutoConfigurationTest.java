package io.github.startuptelemetry.lifecycle;

import io.micrometer.registry.otlp.OtlpMeterRegistry;
import io.micrometer.registry.otlp.OtlpMetricsSender;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.otlp.OtlpMetricsExportAutoConfiguration;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class OtlpMetricsTypingAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, OpenTelemetrySdkAutoConfiguration.class,
				OtlpMetricsExportAutoConfiguration.class, OtlpMetricsTypingAutoConfiguration.class));

	@Test
	void bootsOtlpRegistrySendsThroughTheTypingSender() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(OtlpMeterRegistry.class);
			assertThat(context.getBean(OtlpMetricsSender.class)).isInstanceOf(TypedOtlpMetricsSender.class);
		});
	}

	@Test
	void noSenderWithoutBootsOtlpRegistry() {
		this.runner.withPropertyValues("management.otlp.metrics.export.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(OtlpMetricsSender.class));
	}

	@Test
	void noSenderWithTelemetryOff() {
		this.runner.withPropertyValues("telemetry.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(TypedOtlpMetricsSender.class));
	}

	@Test
	void theApplicationsOwnSenderWins() {
		OtlpMetricsSender own = (request) -> {
		};
		this.runner.withBean("ownSender", OtlpMetricsSender.class, () -> own)
			.run((context) -> assertThat(context.getBean(OtlpMetricsSender.class)).isSameAs(own));
	}

}
