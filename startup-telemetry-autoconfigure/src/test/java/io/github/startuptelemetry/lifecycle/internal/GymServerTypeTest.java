package io.github.startuptelemetry.lifecycle.internal;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A Java server under a Python Gym supervisor takes its type from Gym's configuration, as Gym's servers do. */
class GymServerTypeTest {

	/** What Gym's {@code env.py} hands each server: the whole configuration, as OmegaConf writes it. */
	private static final String CONFIG = """
			policy_model:
			  responses_api_models:
			    java_model:
			      entrypoint: app.py
			      host: 127.0.0.1
			      port: 8001
			math_resources:
			  resources_servers:
			    math:
			      entrypoint: app.py
			telemetry:
			  enabled: true
			""";

	@Test
	void theFirstKeyUnderTheServersEntryIsItsType() {
		assertThat(GymServerType.of(env("policy_model", CONFIG))).isEqualTo("responses_api_models");
		assertThat(GymServerType.of(env("math_resources", CONFIG))).isEqualTo("resources_servers");
	}

	@Test
	void anythingElseIsNoTypeNeverAFailure() {
		assertThat(GymServerType.of(Map.of())).isNull();
		assertThat(GymServerType.of(Map.of("NEMO_GYM_CONFIG_PATH", "policy_model"))).isNull();
		assertThat(GymServerType.of(env("absent", CONFIG))).isNull();
		assertThat(GymServerType.of(env("telemetry", CONFIG))).as("not one of Gym's server types").isNull();
		assertThat(GymServerType.of(env("policy_model", "policy_model: [unclosed"))).isNull();
		assertThat(GymServerType.of(env("policy_model", "policy_model: 3"))).isNull();
		assertThat(GymServerType.of(env("policy_model", "policy_model:\n  !!java.lang.Object {}: x"))).isNull();
	}

	private static Map<String, String> env(String path, String config) {
		return Map.of("NEMO_GYM_CONFIG_PATH", path, "NEMO_GYM_CONFIG_DICT", config);
	}

}
