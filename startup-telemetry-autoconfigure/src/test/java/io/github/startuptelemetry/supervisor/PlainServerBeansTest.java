package io.github.startuptelemetry.supervisor;

import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.stereotype.Component;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the supervisor side creates in a whole application, with every auto-configuration on
 * this classpath (Boot's, OpenTelemetry's, the actuator's and ours, through the import filter),
 * as a user's server meets them: nothing at all in a plain server, whatever telemetry says; the
 * role, the lazy startup and its metrics in an application whose bean asks for a
 * {@link SupervisorStartup}, even lazily.
 */
class PlainServerBeansTest {

	private static final List<String> SUPERVISOR_PACKAGES = List.of("io.github.startuptelemetry.supervisor.",
			"io.github.startuptelemetry.fleet.", "io.github.startuptelemetry.launch.");

	@ParameterizedTest
	@ValueSource(strings = { "true", "false" })
	void aPlainServerCreatesNoSupervisorBean(String enabled) {
		try (ConfigurableApplicationContext context = run(PlainServer.class, enabled)) {
			TreeSet<String> ours = ours(context);
			System.out.printf("Singletons of ours in a plain server (telemetry.enabled=%s):%n  %s%n", enabled,
					String.join("\n  ", ours));
			if (Boolean.parseBoolean(enabled)) {
				assertThat(ours).as("the starter is there").contains("startupTelemetryProcessTimeline ("
						+ "io.github.startuptelemetry.timeline.internal.ProcessTimeline)");
			}
			assertThat(ours).as("singletons of the supervisor's packages")
				.noneMatch((singleton) -> SUPERVISOR_PACKAGES.stream().anyMatch(singleton::contains));
			assertThat(context.getBeanFactory().containsSingleton("startupTelemetrySupervisorRole")).isFalse();
			assertThat(context.getBeanFactory().containsBeanDefinition("startupTelemetrySupervisorRole")).isFalse();
		}
	}

	@Test
	void aLazyLauncherAmongEveryAutoConfigurationMakesTheProcessASupervisor() {
		try (ConfigurableApplicationContext context = run(LazyLauncher.class, "true")) {
			assertThat(context.getBeanFactory().containsSingleton("startupTelemetrySupervisorRole")).isTrue();
			assertThat(context.getBeanFactory().containsSingleton("supervisorStartupMetrics")).isTrue();
			assertThat(context.getBeanFactory().containsSingleton("supervisorStartup")).as("still lazy").isFalse();
			assertThat(context.getBean(LazyLauncher.class).startup.getObject())
				.isInstanceOf(OpenTelemetrySupervisorStartup.class);
		}
	}

	/** Every singleton whose bean is a class of the starter's: its name and class. */
	private static TreeSet<String> ours(ConfigurableApplicationContext context) {
		TreeSet<String> ours = new TreeSet<>();
		for (String name : context.getBeanFactory().getSingletonNames()) {
			Object bean = context.getBeanFactory().getSingleton(name);
			String type = (bean != null) ? bean.getClass().getName() : "";
			boolean test = type.startsWith(PlainServerBeansTest.class.getName());
			if (!test && (type.startsWith("io.github.startuptelemetry.")
					|| name.startsWith("io.github.startuptelemetry.") || name.startsWith("startupTelemetry"))) {
				ours.add(name + " (" + type + ")");
			}
		}
		return ours;
	}

	private static ConfigurableApplicationContext run(Class<?> application, String enabled) {
		return new SpringApplicationBuilder(application).web(WebApplicationType.NONE)
			.run("--spring.main.banner-mode=off", "--telemetry.startup.log-summary=false",
					"--telemetry.enabled=" + enabled, "--management.opentelemetry.tracing.export.otlp.enabled=false",
					"--management.otlp.metrics.export.enabled=false");
	}

	/** A server with a bean of its own, as PetClinic has a few hundred. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class PlainServer {

		@Bean
		Greeter greeter() {
			return new Greeter();
		}

	}

	static class Greeter {

	}

	/** A launcher of the application's own that asks for its startup only when it first uses it. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Component
	static class LazyLauncher {

		final ObjectProvider<SupervisorStartup> startup;

		LazyLauncher(ObjectProvider<SupervisorStartup> startup) {
			this.startup = startup;
		}

	}

}
