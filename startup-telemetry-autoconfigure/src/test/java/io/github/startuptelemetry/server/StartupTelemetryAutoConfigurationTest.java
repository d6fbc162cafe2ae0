package io.github.startuptelemetry.server;

import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.export.internal.StartupExport;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link StartupTelemetryAutoConfiguration} provides; the sampler is tested in {@code tracing}. */
class StartupTelemetryAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OpenTelemetrySdkAutoConfiguration.class,
				OpenTelemetryTracingAutoConfiguration.class, StartupTelemetryAutoConfiguration.class));

	@Test
	void presentByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(ServerStartupReporter.class)
				.hasSingleBean(TelemetryProperties.class)
				.hasSingleBean(StartupStageMetrics.class);
			assertThat(context.getBean(Sampler.class).getDescription()).startsWith("StartupSampler{");
		});
	}

	@Test
	void theEndpointWhenExposedAndWithTheActuatorTheStageMetricsAlways() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=startuptimeline")
			.run((context) -> assertThat(context).hasSingleBean(StartupTimelineEndpoint.class)
				.hasSingleBean(StartupStageMetrics.class));
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=startuptimeline")
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class, Endpoint.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(ServerStartupReporter.class)
				.doesNotHaveBean(StartupTimelineEndpoint.class)
				.hasSingleBean(StartupStageMetrics.class));
	}

	@Test
	void aPlainApplicationWithoutBootsTelemetryGetsTheReporterAndNoSamplerOfBoots() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(StartupTelemetryAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.opentelemetry",
					"org.springframework.boot.micrometer", "io.micrometer.core"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(ServerStartupReporter.class)
				.hasSingleBean(StartupExport.class)
				.hasSingleBean(StartupStageMetrics.class)
				.doesNotHaveBean(Sampler.class)
				.doesNotHaveBean(StartupTimelineEndpoint.class));
	}

	@Test
	void theEndpointOnlyWhenAvailable() {
		this.runner.run((context) -> assertThat(context).as("not exposed")
			.doesNotHaveBean(StartupTimelineEndpoint.class)
			.hasSingleBean(ServerStartupReporter.class));
	}

	@Test
	void serverNameDefaultsToTheApplicationName() {
		this.runner.withPropertyValues("spring.application.name=inference", "telemetry.startup.server-type=model")
			.run((context) -> assertThat(context.getBean(TelemetryProperties.class).getStartup().getServerType())
				.isEqualTo("model"));
		this.runner.withPropertyValues("spring.application.name=inference")
			.run((context) -> assertThat(StartupTelemetryAutoConfiguration.serverName(
					context.getBean(TelemetryProperties.class).getStartup(), context.getEnvironment()))
				.isEqualTo("inference"));
		this.runner.withPropertyValues("spring.application.name=inference", "telemetry.startup.server-name=model-0")
			.run((context) -> assertThat(StartupTelemetryAutoConfiguration.serverName(
					context.getBean(TelemetryProperties.class).getStartup(), context.getEnvironment()))
				.isEqualTo("model-0"));
		// named nowhere: Boot's default service name, as the resource has it then
		this.runner.run((context) -> assertThat(StartupTelemetryAutoConfiguration.serverName(
				context.getBean(TelemetryProperties.class).getStartup(), context.getEnvironment()))
			.isEqualTo("unknown_service"));
	}

	@Test
	void backsOffWhenTheUserDefinesAReporter() {
		this.runner.withUserConfiguration(UserReporter.class).run((context) -> {
			assertThat(context).hasSingleBean(ServerStartupReporter.class);
			assertThat(context.getBean(ServerStartupReporter.class)).isSameAs(UserReporter.REPORTER);
		});
	}

	@Test
	void disabledLeavesNothingBehind() {
		this.runner.withPropertyValues("telemetry.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ServerStartupReporter.class)
				.doesNotHaveBean(TelemetryProperties.class)
				.doesNotHaveBean(StartupStageMetrics.class);
			assertThat(context.getBean(Sampler.class).getDescription()).doesNotStartWith("StartupSampler{");
		});
	}

	@Test
	void disabledNeedsNoOpenTelemetrySdk() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(StartupTelemetryAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("io.opentelemetry.sdk"))
			.withPropertyValues("telemetry.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ServerStartupReporter.class));
	}

	@Test
	void invalidValuesAreIgnoredRatherThanFailingTheServer() {
		this.runner.withPropertyValues("telemetry.shutdown-timeout=soon", "telemetry.rank=first").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(TelemetryProperties.class).getRank()).isNull();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class UserReporter {

		static final ServerStartupReporter REPORTER = new ServerStartupReporter(null, "mine", null, false, java.time.Duration.ZERO, List.of(), null);

		@Bean
		ServerStartupReporter myReporter() {
			return REPORTER;
		}

	}

}
