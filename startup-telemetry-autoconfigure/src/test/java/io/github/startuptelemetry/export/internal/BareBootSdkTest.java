package io.github.startuptelemetry.export.internal;

import io.opentelemetry.api.OpenTelemetry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot's OpenTelemetry SDK without its tracing, as Boot 3.5 builds one in any application with the
 * actuator once the starter brought the SDK: its spans would go nowhere, so the starter's own SDK
 * carries the startup there, as in an application without one. And the oldest SDK the starter
 * takes, by its version.
 */
class BareBootSdkTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OpenTelemetrySdkAutoConfiguration.class,
				StartupTelemetryAutoConfiguration.class))
		.withPropertyValues("telemetry.export.otlp.endpoint=http://127.0.0.1:9");

	@Test
	void bootsSdkWithoutATracerProviderIsPassedOverForTheStartersOwn() {
		this.runner.run((context) -> {
			StartupExport export = context.getBean(StartupExport.class);
			OpenTelemetry tracing = export.tracing();
			assertThat(tracing).isNotNull().isNotSameAs(context.getBean(OpenTelemetry.class));
			assertThat(export.ownSdkBuilt()).isTrue();
			export.close(System.nanoTime());
		});
	}

	@Test
	void bootsSdkWithItsTracingCarriesTheStartup() {
		this.runner.withConfiguration(AutoConfigurations.of(OpenTelemetryTracingAutoConfiguration.class))
			.run((context) -> {
				StartupExport export = context.getBean(StartupExport.class);
				assertThat(export.tracing()).isSameAs(context.getBean(OpenTelemetry.class));
				assertThat(export.ownSdkBuilt()).isFalse();
			});
	}

	@Test
	void theOldestSdkTakenIsSpringBoot35s() {
		assertThat(StartupExport.supportsSdk("1.49.0")).isTrue();
		assertThat(StartupExport.supportsSdk("1.55.0")).isTrue();
		assertThat(StartupExport.supportsSdk("1.62.0")).isTrue();
		assertThat(StartupExport.supportsSdk("2.0.0-alpha")).isTrue();
		assertThat(StartupExport.supportsSdk("1.48.1")).isFalse();
		assertThat(StartupExport.supportsSdk("1.9.0")).isFalse();
		assertThat(StartupExport.supportsSdk("0.99")).isFalse();
		assertThat(StartupExport.supportsSdk("unknown")).as("unreadable: not refused").isTrue();
	}

}
