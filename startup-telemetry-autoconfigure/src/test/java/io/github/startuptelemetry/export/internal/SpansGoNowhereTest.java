package io.github.startuptelemetry.export.internal;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.SdkTracerProviderBuilderCustomizer;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StartupExport#spansGoNowhere()}: only Boot's SDK with nothing to export to is "nowhere";
 * anything of the application's that could receive a span, or an endpoint, is "somewhere".
 */
class SpansGoNowhereTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OpenTelemetrySdkAutoConfiguration.class,
				OpenTelemetryTracingAutoConfiguration.class, StartupTelemetryAutoConfiguration.class));

	@Test
	void bootsSdkWithNoExporterAndNoEndpointIsNowhere() {
		this.runner.run((context) -> assertThat(context.getBean(StartupExport.class).spansGoNowhere()).isTrue());
	}

	@Test
	void anEndpointIsSomewhere() {
		this.runner.withPropertyValues("telemetry.export.otlp.endpoint=http://127.0.0.1:4318")
			.run((context) -> assertThat(context.getBean(StartupExport.class).spansGoNowhere()).isFalse());
		this.runner.withPropertyValues("management.opentelemetry.tracing.export.otlp.endpoint=http://127.0.0.1:4318/v1/traces")
			.run((context) -> assertThat(context.getBean(StartupExport.class).spansGoNowhere()).isFalse());
	}

	@Test
	void aSpanExporterOfTheApplicationsIsSomewhere() {
		this.runner.withBean(InMemorySpanExporter.class, InMemorySpanExporter::create)
			.run((context) -> assertThat(context.getBean(StartupExport.class).spansGoNowhere()).isFalse());
	}

	@Test
	void aSpanProcessorOrCustomizerOfTheApplicationsIsSomewhere() {
		this.runner.withUserConfiguration(OwnProcessor.class)
			.run((context) -> assertThat(context.getBean(StartupExport.class).spansGoNowhere()).isFalse());
		this.runner.withBean(SdkTracerProviderBuilderCustomizer.class, () -> (builder) -> {
		}).run((context) -> assertThat(context.getBean(StartupExport.class).spansGoNowhere()).isFalse());
	}

	@Test
	void anOpenTelemetryOfTheApplicationsIsSomewhere() {
		this.runner.withUserConfiguration(OwnOpenTelemetry.class)
			.run((context) -> assertThat(context.getBean(StartupExport.class).spansGoNowhere()).isFalse());
	}

	@Test
	void withoutAnOpenTelemetryThereIsNothingToAsk() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(StartupTelemetryAutoConfiguration.class))
			.run((context) -> assertThat(context.getBean(StartupExport.class).spansGoNowhere()).isFalse());
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnProcessor {

		@Bean
		SpanProcessor ownSpanProcessor() {
			return SimpleSpanProcessor.create(InMemorySpanExporter.create());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnOpenTelemetry {

		@Bean
		OpenTelemetry openTelemetry() {
			// its exporter is inside it, not a bean
			return OpenTelemetrySdk.builder()
				.setTracerProvider(SdkTracerProvider.builder()
					.addSpanProcessor(SimpleSpanProcessor.create(InMemorySpanExporter.create()))
					.build())
				.build();
		}

	}

}
