package io.github.startuptelemetry.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.task.SimpleAsyncTaskExecutor;

import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.StepTiming;

import static org.assertj.core.api.Assertions.assertThat;

/** The listener as Boot runs it (from spring.factories), with a real context. */
class ServerStartupListenerBeanSpansTest {

	@Test
	void beansOfARealContextBecomeBeanSpans() {
		SpringApplication application = application();
		try (ConfigurableApplicationContext context = application
			.run("--telemetry.startup.bean-spans.threshold=0ms")) {
			// Spring's phases, then singleton creation with the beans inside it
			assertThat(timeline(context).steps()).extracting(StepTiming::step)
				.contains("spring.context.beans.post-process", "startup.singletons");
			StepTiming singletons = timeline(context).steps()
				.stream()
				.filter((step) -> step.step().equals("startup.singletons"))
				.findFirst()
				.orElseThrow();
			assertThat(singletons.children()).anySatisfy((span) -> {
				assertThat(span.beanName()).isEqualTo("greeting");
				assertThat(span.beanType()).isEqualTo(String.class.getName());
			});
			assertThat(timeline(context).unattributedNs()).isPresent();
			assertThat(timeline(context).unattributedNs().getAsLong()).isNotNegative();
		}
	}

	@Test
	void aBeanBootstrappedInTheBackgroundIsAChildOfSingletonCreationNotOfTheMainThreadsBean() {
		SpringApplication application = new SpringApplication(BackgroundConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		try (ConfigurableApplicationContext context = application.run()) {
			StepTiming singletons = timeline(context).steps()
				.stream()
				.filter((step) -> step.step().equals("startup.singletons"))
				.findFirst()
				.orElseThrow();
			assertThat(context.getBean(BackgroundConfiguration.class).backgroundThread).startsWith("bootstrap-");
			assertThat(singletons.children()).extracting(StepTiming::label).contains("background", "foreground");
			StepTiming foreground = singletons.children()
				.stream()
				.filter((step) -> "foreground".equals(step.beanName()))
				.findFirst()
				.orElseThrow();
			// it overlapped the background bean, which is nevertheless not nested in it
			assertThat(foreground.children()).extracting(StepTiming::label).doesNotContain("background");
			assertThat(singletons.selfNs()).isNotNegative();
		}
	}

	@Test
	void aServerWithoutSupervisorWritesItsOwnJsonReportWhenAskedTo(@TempDir Path tmp) throws Exception {
		Path report = tmp.resolve("reports/startup-report.json");
		SpringApplication application = application();
		try (ConfigurableApplicationContext context = application.run("--telemetry.startup.report.json=" + report,
				"--telemetry.run-id=run-7")) {
			// written on the export thread, after ready
			context.getBean(ServerStartupReporter.class).awaitReport(java.time.Duration.ofSeconds(30));
			String document = Files.readString(report);
			assertThat(document).contains("\"schemaVersion\": 1", "\"kind\": \"server\"", "\"runId\": \"run-7\"",
					"\"unattributedMs\"");
			assertThat((List<?>) JsonText.parseObject(document).get("servers")).singleElement().satisfies((server) -> {
				assertThat(((Map<?, ?>) server).get("outcome")).isEqualTo("ready");
				assertThat((List<?>) ((Map<?, ?>) server).get("stages")).anySatisfy(
						(stage) -> assertThat(((Map<?, ?>) stage).get("name")).isEqualTo("beans_instantiated"));
			});
		}
		try (ConfigurableApplicationContext context = application().run()) {
			assertThat(context.getBeanNamesForType(Consumer.class)).doesNotContain("serverJsonReport");
		}
	}

	@Test
	void theApplicationsBufferingStartupStaysOne() {
		SpringApplication application = application();
		BufferingApplicationStartup buffering = new BufferingApplicationStartup(1000);
		application.setApplicationStartup(buffering);
		try (ConfigurableApplicationContext context = application.run()) {
			assertThat(context.getBeanFactory().getApplicationStartup())
				.isInstanceOf(BufferingApplicationStartup.class);
			assertThat(buffering.getBufferedTimeline().getEvents()).isNotEmpty();
		}
	}

	@Test
	void offMeansNoWrapperAtAll() {
		SpringApplication application = application();
		try (ConfigurableApplicationContext context = application.run("--telemetry.startup.bean-spans.enabled=false")) {
			assertThat(application.getApplicationStartup()).isSameAs(ApplicationStartup.DEFAULT);
			assertThat(timeline(context).steps()).isEmpty();
		}
	}

	@Test
	void settingsComeFromTheBoundPropertiesAndABadValueIsIgnored() {
		SpringApplication application = application();
		try (ConfigurableApplicationContext context = application.run("--telemetry.startup.worker=on",
				"--telemetry.startup.bean-spans.threshold=soon")) {
			assertThat(timeline(context).worker()).isTrue();
			assertThat(timeline(context).steps()).noneMatch((span) -> "greeting".equals(span.beanName()));
		}
	}

	@Test
	void settingsInTheApplicationsConfigFilesCountLikeTheCommandLine() {
		// loaded by Boot's own listener, after this one has already seen the environment prepared
		SpringApplication application = application();
		try (ConfigurableApplicationContext context = application
			.run("--spring.config.name=startup-telemetry-config-file-test")) {
			assertThat(timeline(context).worker()).isTrue();
			assertThat(timeline(context).steps()).flatExtracting(StepTiming::children)
				.anyMatch((span) -> "greeting".equals(span.beanName()));
		}
	}

	private static SpringApplication application() {
		SpringApplication application = new SpringApplication(GreetingConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		return application;
	}

	/** The timeline as the server reported it, at ready. */
	private static ServerTimeline timeline(ConfigurableApplicationContext context) {
		return context.getBean(ServerStartupReporter.class).awaitReport(java.time.Duration.ofSeconds(30));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(StartupTelemetryAutoConfiguration.class)
	static class BackgroundConfiguration {

		private final CountDownLatch backgroundStarted = new CountDownLatch(1);

		private volatile String backgroundThread;

		@Bean
		Executor bootstrapExecutor() {
			return new SimpleAsyncTaskExecutor("bootstrap-");
		}

		/** Created on a bootstrap thread while {@link #foreground()} is created on the main one. */
		@Bean(bootstrap = Bean.Bootstrap.BACKGROUND)
		String background() throws InterruptedException {
			this.backgroundThread = Thread.currentThread().getName();
			this.backgroundStarted.countDown();
			Thread.sleep(100);
			return "background";
		}

		/** Waits until the background bean is under way: they overlap, whatever the order. */
		@Bean
		String foreground() throws InterruptedException {
			this.backgroundStarted.await(10, TimeUnit.SECONDS);
			Thread.sleep(100);
			return "foreground";
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(StartupTelemetryAutoConfiguration.class)
	static class GreetingConfiguration {

		@Bean
		String greeting() {
			return "hello";
		}

	}

}
