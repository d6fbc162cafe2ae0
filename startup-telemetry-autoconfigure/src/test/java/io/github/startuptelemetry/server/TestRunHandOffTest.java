package io.github.startuptelemetry.server;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;
import io.github.startuptelemetry.timeline.internal.ProcessTimeline;

/**
 * A test's context hands its startup to its test run (startup-telemetry-test) instead of
 * reporting it: no spans, no log line, no report at the endpoint; a failed one too, without the
 * failure's own line.
 */
@ExtendWith(OutputCaptureExtension.class)
class TestRunHandOffTest {

	@Test
	void aTestRunTakesTheStartupInPlaceOfTheReporter(CapturedOutput output) {
		List<ServerTimeline> taken = new CopyOnWriteArrayList<>();
		try (ConfigurableApplicationContext context = start(App.class, taken)) {
			assertThat(taken).singleElement().satisfies((timeline) -> {
				assertThat(timeline.serverName()).isEqualTo("hand-off");
				assertThat(timeline.stages()).extracting(Stage::name)
					.endsWith(StageNames.ENVIRONMENT_PREPARED, StageNames.CONTEXT_PREPARED,
							StageNames.BEANS_INSTANTIATED, StageNames.CONTEXT_REFRESHED,
							StageNames.APPLICATION_STARTED, StageNames.APPLICATION_READY);
				assertThat(timeline.steps()).flatExtracting(StepTiming::children)
					.extracting(StepTiming::beanName)
					.contains("slowBean");
				assertThat(timeline.traceId()).isNull();
			});
			ServerStartupReporter reporter = context.getBean(ServerStartupReporter.class);
			assertThat(reporter.awaitReport(Duration.ofMillis(200))).isNull();
			context.getBean(OpenTelemetrySdk.class).getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
			assertThat(context.getBean(InMemorySpanExporter.class).getFinishedSpanItems()).isEmpty();
		}
		assertThat(output).doesNotContain("Startup of 'hand-off'");
	}

	@Test
	void withoutATestRunTheStartupIsReportedAsBefore(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start(App.class, null)) {
			ServerTimeline report = context.getBean(ServerStartupReporter.class).awaitReport(Duration.ofSeconds(30));
			assertThat(report).isNotNull();
			context.getBean(OpenTelemetrySdk.class).getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
			assertThat(context.getBean(InMemorySpanExporter.class).getFinishedSpanItems()).isNotEmpty();
		}
		assertThat(output).contains("Startup of 'hand-off'");
	}

	@Test
	void aFailedStartupGoesToTheTestRunWithTheStageItFailedIn(CapturedOutput output) {
		List<ServerTimeline> taken = new CopyOnWriteArrayList<>();
		assertThatException().isThrownBy(() -> start(Broken.class, taken).close());
		assertThat(taken).singleElement().satisfies((timeline) -> assertThat(timeline.stages()).extracting(Stage::name)
			.endsWith(StageNames.CONTEXT_PREPARED, StageNames.BEANS_INSTANTIATED));
		assertThat(output).doesNotContain("Startup of 'hand-off' failed");
	}

	private static ConfigurableApplicationContext start(Class<?> app, List<ServerTimeline> testRun) {
		SpringApplicationBuilder builder = new SpringApplicationBuilder(app).web(WebApplicationType.NONE)
			.properties("spring.application.name=hand-off", "spring.main.banner-mode=off");
		if (testRun != null) {
			// as startup-telemetry-test's context customizer does, before the context is refreshed
			Consumer<ServerTimeline> consumer = testRun::add;
			builder.initializers((ApplicationContextInitializer<ConfigurableApplicationContext>) (context) -> context
				.getBeanFactory()
				.registerSingleton(ProcessTimeline.TEST_RUN_BEAN_NAME, consumer));
		}
		return builder.run();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		@Bean
		InMemorySpanExporter inMemorySpanExporter() {
			return InMemorySpanExporter.create();
		}

		@Bean
		Object slowBean() throws InterruptedException {
			Thread.sleep(40);
			return new Object();
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Broken {

		@Bean
		Object brokenBean() {
			throw new IllegalStateException("broken on purpose");
		}

	}

}
