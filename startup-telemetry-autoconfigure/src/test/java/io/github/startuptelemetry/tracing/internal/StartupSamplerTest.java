package io.github.startuptelemetry.tracing.internal;

import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration;

/** The server's auto-configuration installs {@link StartupSampler} around the application's sampler. */
class StartupSamplerTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OpenTelemetrySdkAutoConfiguration.class,
				OpenTelemetryTracingAutoConfiguration.class, StartupTelemetryAutoConfiguration.class));

	@Test
	void presentByDefault() {
		this.runner.run((context) -> assertThat(context.getBean(Sampler.class)).isInstanceOf(StartupSampler.class));
	}

	@Test
	void startupSamplerWrapsTheApplicationsSampler() {
		this.runner.withPropertyValues("management.tracing.sampling.probability=0.1").run((context) -> {
			StartupSampler sampler = (StartupSampler) context.getBean(Sampler.class);
			assertThat(sampler.getDescription()).startsWith("StartupSampler{ParentBased{root:TraceIdRatioBased{0.1");
		});
	}

	@Test
	void disabledLeavesTheApplicationsSamplerAlone() {
		this.runner.withPropertyValues("telemetry.enabled=false")
			.run((context) -> assertThat(context.getBean(Sampler.class)).isNotInstanceOf(StartupSampler.class));
	}

}
