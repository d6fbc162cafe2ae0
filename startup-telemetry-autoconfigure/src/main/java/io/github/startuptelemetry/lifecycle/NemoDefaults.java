package io.github.startuptelemetry.lifecycle;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import io.github.startuptelemetry.lifecycle.internal.BootOtlpProperties;
import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.contract.NemoEnv;
import io.github.startuptelemetry.contract.ResourceAttributes;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;
import io.github.startuptelemetry.lifecycle.internal.ProcessResourceAttributes;

/**
 * Reads NeMo Gym's and nemo-lens's settings ({@link NemoEnv}: {@code NEMO_GYM_OTEL_*}, else
 * {@code NEMO_LENS_*}) as lowest-precedence defaults of ours, so that a Java server a Gym
 * supervisor spawns follows the fleet's switches; {@code telemetry.*}, {@code TELEMETRY_*} and
 * anything else the user configured win.
 */
final class NemoDefaults {

	static final String PROPERTY_SOURCE_NAME = "startupTelemetryNemoEnvironment";

	static final String TRACES_EXPORT_ENABLED_PROPERTY = BootOtlpProperties.TRACES_EXPORT_ENABLED_PROPERTY;

	private NemoDefaults() {
	}

	/**
	 * Add NeMo's settings in {@code env} to {@code environment}, as its lowest-precedence
	 * source. Not called when ours said off ({@link OtlpEnvironmentPostProcessor} checks
	 * first), so the off path loads no NeMo class.
	 */
	static void apply(ConfigurableEnvironment environment, Map<String, String> env) {
		Map<String, Object> defaults = properties(env);
		serviceName(environment, env, defaults);
		if (!defaults.isEmpty()) {
			environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, defaults));
		}
	}

	/**
	 * NeMo Gym's {@code service.name} scheme: {@code OTEL_SERVICE_NAME} is the fleet's group, and
	 * each server is {@code <group>/<server>}, the group also as {@code nemo.gym.service_group},
	 * unless {@code NEMO_GYM_OTEL_SERVICE_NAME_PER_SERVER} is false. The server's name is
	 * {@code telemetry.startup.server-name}, else {@code NEMO_GYM_CONFIG_PATH} (a Gym
	 * supervisor's name for it, which then also becomes the default of that property). A group
	 * equal to the server's name stays as it is (no {@code x/x}), and so does a
	 * {@code service.name} the user configured.
	 */
	static void serviceName(ConfigurableEnvironment environment, Map<String, String> env,
			Map<String, Object> defaults) {
		String server = environment.getProperty(TelemetryProperties.SERVER_NAME);
		String configPath = env.get(NemoEnv.CONFIG_PATH);
		if ((server == null || server.isBlank()) && configPath != null && !configPath.isBlank()) {
			server = configPath.strip();
			defaults.put(TelemetryProperties.SERVER_NAME, server);
		}
		String group = env.get(TelemetryEnv.OTEL_SERVICE_NAME);
		if (server == null || server.isBlank() || group == null || group.isBlank()
				|| group.strip().equals(server.strip())
				|| Boolean.FALSE.equals(TelemetrySwitch.nemoFlag(env, NemoEnv.SERVICE_NAME_PER_SERVER))
				|| environment.containsProperty(resourceAttribute(ResourceAttributes.SERVICE_NAME))) {
			return;
		}
		defaults.put(resourceAttribute(ResourceAttributes.SERVICE_NAME), group.strip() + "/" + server.strip());
		defaults.put(resourceAttribute(ResourceAttributes.SERVICE_GROUP), group.strip());
	}

	private static String resourceAttribute(String key) {
		return ProcessResourceAttributes.BOOT_PROPERTY + "[" + key + "]";
	}

	/** NeMo's settings in this environment as our properties. */
	static Map<String, Object> properties(Map<String, String> env) {
		Map<String, Object> properties = new LinkedHashMap<>();
		Boolean enabled = TelemetrySwitch.nemoFlag(env, NemoEnv.ENABLED);
		if (enabled != null) {
			properties.put(TelemetrySwitch.ENABLED_PROPERTY, enabled.toString());
		}
		String spanGroups = NemoEnv.value(env, NemoEnv.SPAN_GROUPS);
		if (spanGroups != null) {
			properties.put(TelemetryProperties.SPAN_GROUPS, spanGroups);
		}
		String runId = NemoEnv.value(env, NemoEnv.RUN_ID);
		if (runId != null) {
			properties.put(TelemetryProperties.RUN_ID, runId);
		}
		// off in NeMo's words means no telemetry at all, Boot's own metrics and traces included
		boolean off = Boolean.FALSE.equals(enabled);
		if (off || Boolean.FALSE.equals(TelemetrySwitch.nemoFlag(env, NemoEnv.TRACES_ENABLED))) {
			properties.put(TRACES_EXPORT_ENABLED_PROPERTY, "false");
		}
		if (off || Boolean.FALSE.equals(TelemetrySwitch.nemoFlag(env, NemoEnv.METRICS_ENABLED))) {
			properties.put(BootOtlpProperties.METRICS_ENABLED_PROPERTY, "false");
		}
		return properties;
	}

}
