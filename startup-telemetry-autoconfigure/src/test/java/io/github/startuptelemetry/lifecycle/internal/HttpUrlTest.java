package io.github.startuptelemetry.lifecycle.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;


class HttpUrlTest {

	@Test
	void endpointsMustBeHttpUrlsWithAHost() {
		assertThat(BootOtlpProperties.endpointProblem("http://127.0.0.1:4318")).isNull();
		assertThat(BootOtlpProperties.endpointProblem("https://collector/v1/traces")).isNull();
		assertThat(BootOtlpProperties.endpointProblem("collector:4318")).isEqualTo("is not an http or https URL");
		assertThat(BootOtlpProperties.endpointProblem("http:///v1/traces")).isEqualTo("has no host");
		assertThat(BootOtlpProperties.endpointProblem("http://a b")).isEqualTo("is not a valid URL");
		assertThat(BootOtlpProperties.endpointProblem(" ")).isEqualTo("is empty");
	}

	@Test
	void anHttpUrlHasAnHttpSchemeInAnyCaseAndAHost() {
		assertThat(HttpUrl.isValid("http://127.0.0.1:9411/api/v2/spans")).isTrue();
		assertThat(HttpUrl.isValid("HTTPS://collector")).isTrue();
		assertThat(HttpUrl.isValid("ftp://host/x")).isFalse();
		assertThat(HttpUrl.isValid("/actuator/health")).isFalse();
		assertThat(HttpUrl.isValid(null)).isFalse();
		assertThat(HttpUrl.problem(" http://collector")).as("blanks are the caller's to strip")
			.isEqualTo("is not a valid URL");
	}

}
