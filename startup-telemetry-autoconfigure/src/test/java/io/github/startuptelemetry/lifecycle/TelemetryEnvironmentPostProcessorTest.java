package io.github.startuptelemetry.lifecycle;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** The one post-processor every process runs: both kinds of defaults when on, nothing when off. */
class TelemetryEnvironmentPostProcessorTest {

	private final TelemetryEnvironmentPostProcessor postProcessor = new TelemetryEnvironmentPostProcessor(
			(destination) -> destination.get());

	@Test
	void onAddsTheProcessIdentityToTheResource() {
		MockEnvironment environment = new MockEnvironment().withProperty("telemetry.rank", "3");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getPropertySources().contains(ResourceAttributeDefaults.PROPERTY_SOURCE_NAME)).isTrue();
		assertThat(environment.getProperty("management.opentelemetry.resource-attributes[nv.dl.rank]")).isEqualTo("3");
	}

	@Test
	void offAddsNothing() {
		MockEnvironment environment = new MockEnvironment().withProperty("telemetry.enabled", "false")
			.withProperty("telemetry.rank", "3");
		int before = environment.getPropertySources().size();
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getPropertySources().size()).isEqualTo(before);
		assertThat(environment.getProperty("management.opentelemetry.resource-attributes[nv.dl.rank]")).isNull();
	}

}
