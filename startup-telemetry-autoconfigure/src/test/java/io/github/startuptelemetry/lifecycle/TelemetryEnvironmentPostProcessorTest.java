package io.github.startuptelemetry.lifecycle;

import java.net.URL;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one post-processor every process runs: both kinds of defaults when on, nothing when off; Boot
 * 3's registration of it does nothing where Boot 4's runs; one HTTP sender chosen, by the name the
 * SDK there reads.
 */
class TelemetryEnvironmentPostProcessorTest {

	private final TelemetryEnvironmentPostProcessor postProcessor = new TelemetryEnvironmentPostProcessor(
			(destination) -> destination.get());

	@AfterEach
	void clearTheSenderChoice() {
		System.clearProperty(TelemetryEnvironmentDefaults.HTTP_SENDER_PROPERTY);
		System.clearProperty(TelemetryEnvironmentDefaults.SDK_HTTP_SENDER_PROPERTY);
	}

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

	@Test
	void bootThreesRegistrationDoesNothingOnBootFour() {
		MockEnvironment environment = new MockEnvironment().withProperty("telemetry.rank", "3");
		int before = environment.getPropertySources().size();
		new Boot3TelemetryEnvironmentPostProcessor((destination) -> destination.get())
			.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getPropertySources().size()).isEqualTo(before);
	}

	/** OkHttp's sender beside the starter's JDK one (here, through Boot's OpenTelemetry): OkHttp, under 1.55's name. */
	@Test
	void withBothHttpSendersOkHttpIsChosenUnderTheSdksName() {
		this.postProcessor.postProcessEnvironment(new MockEnvironment(), new SpringApplication());
		assertThat(System.getProperty(TelemetryEnvironmentDefaults.HTTP_SENDER_PROPERTY))
			.isEqualTo(TelemetryEnvironmentDefaults.OKHTTP_SENDER);
		assertThat(System.getProperty(TelemetryEnvironmentDefaults.SDK_HTTP_SENDER_PROPERTY))
			.as("the name since OpenTelemetry 1.59, which 1.55 does not read").isNull();
	}

	/** OpenTelemetry 1.62 (Boot 4.1's) warns at the old name each time it builds an exporter: the new one there. */
	@Test
	void whereTheSenderSpiMovedIntoTheSdkItsNewNameIsSet() {
		ClassLoader sdk162 = new ClassLoader(getClass().getClassLoader()) {

			@Override
			public URL getResource(String name) {
				return name.equals("io/opentelemetry/sdk/common/export/HttpSenderProvider.class")
						? super.getResource("java/lang/Object.class") : super.getResource(name);
			}

		};
		this.postProcessor.postProcessEnvironment(new MockEnvironment(),
				new SpringApplication(new DefaultResourceLoader(sdk162)));
		assertThat(System.getProperty(TelemetryEnvironmentDefaults.SDK_HTTP_SENDER_PROPERTY))
			.isEqualTo(TelemetryEnvironmentDefaults.OKHTTP_SENDER);
		assertThat(System.getProperty(TelemetryEnvironmentDefaults.HTTP_SENDER_PROPERTY)).isNull();
	}

	@Test
	void aChoiceOfTheApplicationsUnderEitherNameIsKept() {
		System.setProperty(TelemetryEnvironmentDefaults.SDK_HTTP_SENDER_PROPERTY, "mine");
		this.postProcessor.postProcessEnvironment(new MockEnvironment(), new SpringApplication());
		assertThat(System.getProperty(TelemetryEnvironmentDefaults.HTTP_SENDER_PROPERTY)).isNull();
		assertThat(System.getProperty(TelemetryEnvironmentDefaults.SDK_HTTP_SENDER_PROPERTY)).isEqualTo("mine");
	}

}
