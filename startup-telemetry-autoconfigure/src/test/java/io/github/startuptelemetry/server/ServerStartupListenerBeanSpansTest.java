package io.github.startuptelemetry.server;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.metrics.ApplicationStartup;

import io.github.startuptelemetry.timeline.ServerTimeline;

import static org.assertj.core.api.Assertions.assertThat;

/** The listener as Boot runs it (from spring.factories), with a real context. */
class ServerStartupListenerBeanSpansTest {

	@Test
	void beansOfARealContextBecomeBeanSpans() {
		SpringApplication application = application();
		try (ConfigurableApplicationContext context = application
			.run("--telemetry.startup.bean-spans.threshold=0ms")) {
			assertThat(timeline(context).steps()).anySatisfy((span) -> {
				assertThat(span.beanName()).isEqualTo("greeting");
				assertThat(span.beanType()).isEqualTo(String.class.getName());
			});
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

	private static SpringApplication application() {
		SpringApplication application = new SpringApplication(GreetingConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		return application;
	}

	/** The timeline as the server reported it, at ready. */
	private static ServerTimeline timeline(ConfigurableApplicationContext context) {
		return context.getBean(ServerStartupReporter.class).lastReport();
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
