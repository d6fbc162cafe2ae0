package io.github.startuptelemetry.server;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.metrics.ApplicationStartup;

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

	private static SpringApplication application() {
		SpringApplication application = new SpringApplication(GreetingConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		return application;
	}

	private static ServerStartupTimeline timeline(ConfigurableApplicationContext context) {
		return context.getBean(ServerStartupTimeline.BEAN_NAME, ServerStartupTimeline.class);
	}

	@Configuration(proxyBeanMethods = false)
	static class GreetingConfiguration {

		@Bean
		String greeting() {
			return "hello";
		}

	}

}
