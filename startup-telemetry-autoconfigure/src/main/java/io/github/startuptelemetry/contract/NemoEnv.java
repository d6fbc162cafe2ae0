package io.github.startuptelemetry.contract;

import java.util.List;
import java.util.Map;

/**
 * NeMo Gym's and nemo-lens's telemetry settings variables: {@code NEMO_GYM_OTEL_<SETTING>}
 * first, then {@code NEMO_LENS_<SETTING>} (Gym's {@code _ENV_FIELD_MAP} and Lens's
 * {@code from_env}). A Gym supervisor hands them to the servers it spawns, and ours hands a
 * Gym server the ones it needs ({@link #GYM_ENABLED}, {@link #GYM_RUN_ID}). Our own
 * {@code telemetry.*} / {@code TELEMETRY_*} win over all of them.
 */
public final class NemoEnv {

	/** Gym's prefix, read first. */
	public static final String GYM_PREFIX = "NEMO_GYM_OTEL_";

	/** nemo-lens's prefix, the fallback. */
	public static final String LENS_PREFIX = "NEMO_LENS_";

	/** Boolean: telemetry on; Lens's default is off, ours stays on when neither is set. */
	public static final String ENABLED = "ENABLED";

	/** Boolean: trace export on (default on). */
	public static final String TRACES_ENABLED = "TRACES_ENABLED";

	/** Boolean: metric export on (default on). */
	public static final String METRICS_ENABLED = "METRICS_ENABLED";

	/** Comma-separated span groups and presets (default {@code default}). */
	public static final String SPAN_GROUPS = "SPAN_GROUPS";

	/** The fleet's run id. */
	public static final String RUN_ID = "RUN_ID";

	/** Boolean, Gym only (no Lens fallback): name each server {@code <group>/<server>} (default on). */
	public static final String SERVICE_NAME_PER_SERVER = "SERVICE_NAME_PER_SERVER";

	/** Set by a Gym supervisor for each server: the server's instance name. */
	public static final String CONFIG_PATH = "NEMO_GYM_CONFIG_PATH";

	/**
	 * Set by a Gym supervisor for each server: its whole configuration, as YAML, in which
	 * {@link #CONFIG_PATH} names the server's entry; the first key under that entry is the
	 * server's type ({@link #SERVER_TYPES}).
	 */
	public static final String CONFIG_DICT = "NEMO_GYM_CONFIG_DICT";

	/**
	 * Gym's server types: the directories its servers live in, what a Python server reports as
	 * {@code nemo.gym.server.type} (from its base class) and what its config nests it under.
	 */
	public static final java.util.Set<String> SERVER_TYPES = java.util.Set.of("resources_servers",
			"responses_api_agents", "responses_api_models");

	/** {@code 1} in a worker process of a multi-process Gym server. */
	public static final String FASTAPI_WORKER = "IS_NEMO_GYM_FASTAPI_WORKER";

	public static final String GYM_ENABLED = GYM_PREFIX + ENABLED;

	public static final String GYM_RUN_ID = GYM_PREFIX + RUN_ID;

	public static final String GYM_SPAN_GROUPS = GYM_PREFIX + SPAN_GROUPS;

	public static final String GYM_SERVICE_NAME_PER_SERVER = GYM_PREFIX + SERVICE_NAME_PER_SERVER;

	/** Gym's value of a boolean setting a supervisor hands on: {@code 1}. */
	public static final String TRUE = "1";

	/** Gym's value of a boolean setting a supervisor hands on: {@code 0}. */
	public static final String FALSE = "0";

	private NemoEnv() {
	}

	/** The variables of a setting, in the order they are read. */
	public static List<String> names(String setting) {
		return SERVICE_NAME_PER_SERVER.equals(setting) ? List.of(GYM_PREFIX + setting)
				: List.of(GYM_PREFIX + setting, LENS_PREFIX + setting);
	}

	/**
	 * Whether {@code env} is a NeMo Gym or nemo-lens process's: it has {@link #CONFIG_PATH},
	 * {@link #CONFIG_DICT}, a {@value #GYM_PREFIX}* or a {@value #LENS_PREFIX}* variable. (The
	 * startup stamps, {@code NEMO_GYM_STARTUP_*}, do not count: any supervisor of ours writes
	 * them.) Such a process's OTLP protocol defaults to gRPC, as nemo-lens's does.
	 */
	public static boolean inNemoProcess(Map<String, String> env) {
		if (env.containsKey(CONFIG_PATH) || env.containsKey(CONFIG_DICT)) {
			return true;
		}
		for (String name : env.keySet()) {
			if (name.startsWith(GYM_PREFIX) || name.startsWith(LENS_PREFIX)) {
				return true;
			}
		}
		return false;
	}

	/** The first non-blank value of a setting's variables, stripped, or {@code null}. */
	public static String value(Map<String, String> env, String setting) {
		for (String name : names(setting)) {
			String value = env.get(name);
			if (value != null && !value.isBlank()) {
				return value.strip();
			}
		}
		return null;
	}

}
