package io.github.startuptelemetry.lifecycle.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import io.github.startuptelemetry.contract.ResourceAttributes;
import io.github.startuptelemetry.contract.TelemetryEnv;

/**
 * The resource attributes that tell one process of a fleet from its peers (NeMo RL's
 * {@code _rank_attributes} and {@code _worker_resource_attributes}; {@link ResourceAttributes}),
 * and how a spawned server's identity travels: as {@code TELEMETRY_*} variables and inside
 * {@code OTEL_RESOURCE_ATTRIBUTES}, where the latter wins on the server.
 */
public final class ProcessResourceAttributes {

	/** Boot's resource attributes property; the user's entries there win over everything. */
	public static final String BOOT_PROPERTY = "management.opentelemetry.resource-attributes";

	/** Gym's {@code nv.dl.rank} for every one of its processes ({@code init_telemetry}). */
	static final int GYM_RANK = 0;

	/** Gym's {@code nv.dl.world_size} for every one of its processes ({@code init_telemetry}). */
	static final int GYM_WORLD_SIZE = 1;

	private ProcessResourceAttributes() {
	}

	/**
	 * The attributes of this process: its identity, each part falling back to the environment
	 * where it has one, then the user's extra attributes, which win over everything.
	 *
	 * @param identity what {@code telemetry.*} says about this process
	 * @param env the process environment
	 * @param pid this process's id
	 * @param ignored told the name of every env var that was present but unusable
	 */
	public static Map<String, String> resolve(Identity identity, Map<String, String> env, long pid,
			Consumer<String> ignored) {
		Map<String, String> attributes = new LinkedHashMap<>();
		putNumber(attributes, ResourceAttributes.RANK, identity.rank(), env, TelemetryEnv.RANK, GYM_RANK, ignored);
		putNumber(attributes, ResourceAttributes.WORLD_SIZE, identity.worldSize(), env, TelemetryEnv.WORLD_SIZE,
				GYM_WORLD_SIZE, ignored);
		putNumber(attributes, ResourceAttributes.LOCAL_RANK, identity.localRank(), env, TelemetryEnv.LOCAL_RANK,
				null, ignored);
		putText(attributes, ResourceAttributes.WORKER_GROUP, identity.workerGroup());
		putText(attributes, ResourceAttributes.RUN_ID, identity.runId());
		putText(attributes, ResourceAttributes.LEGACY_RUN_ID, identity.runId());
		if (identity.runId() != null && !identity.runId().isBlank()) {
			// nemo-lens's instance id: the run's, per rank
			String rank = attributes.get(ResourceAttributes.RANK);
			attributes.put(ResourceAttributes.SERVICE_INSTANCE_ID,
					identity.runId().strip() + ((rank != null) ? "-rank" + rank : ""));
		}
		attributes.put(ResourceAttributes.PROCESS_PID, Long.toString(pid));
		for (Map.Entry<String, String> extra : identity.extras().entrySet()) {
			if (extra.getKey() != null && !extra.getKey().isBlank() && extra.getValue() != null) {
				attributes.put(extra.getKey(), extra.getValue());
			}
		}
		return attributes;
	}

	/**
	 * The attributes of {@code attributes} that {@code present} (the keys already set in
	 * {@code OTEL_RESOURCE_ATTRIBUTES} or {@value #BOOT_PROPERTY}) lacks: the server's side of
	 * the rule above.
	 */
	public static Map<String, String> missingFrom(Map<String, String> attributes, Set<String> present) {
		Map<String, String> missing = new LinkedHashMap<>(attributes);
		missing.keySet().removeAll(present);
		return missing;
	}

	/**
	 * The {@code TELEMETRY_*} variables that tell a spawned server who it is. Servers on one
	 * host: a server's rank on it is its rank in its group.
	 *
	 * @param name the server's name
	 * @param type its type (its worker group), or {@code null}
	 * @param rank its rank among the servers of its type
	 * @param worldSize how many servers of its type there are
	 */
	public static Map<String, String> serverEnv(String name, String type, int rank, int worldSize) {
		Map<String, String> env = new LinkedHashMap<>();
		env.put(TelemetryEnv.TELEMETRY_STARTUP_SERVER_NAME, name);
		if (type != null) {
			env.put(TelemetryEnv.TELEMETRY_STARTUP_SERVER_TYPE, type);
			env.put(TelemetryEnv.TELEMETRY_WORKER_GROUP, type);
		}
		env.put(TelemetryEnv.TELEMETRY_RANK, Integer.toString(rank));
		env.put(TelemetryEnv.TELEMETRY_WORLD_SIZE, Integer.toString(worldSize));
		env.put(TelemetryEnv.TELEMETRY_LOCAL_RANK, Integer.toString(rank));
		return env;
	}

	/**
	 * The same identity as resource attributes, for a spawned server's
	 * {@code OTEL_RESOURCE_ATTRIBUTES}: rank, world size and worker group (its type, when it has
	 * one).
	 */
	public static Map<String, String> serverAttributes(String type, int rank, int worldSize) {
		Map<String, String> attributes = new LinkedHashMap<>();
		attributes.put(ResourceAttributes.RANK, Integer.toString(rank));
		attributes.put(ResourceAttributes.WORLD_SIZE, Integer.toString(worldSize));
		if (type != null && !type.isBlank()) {
			attributes.put(ResourceAttributes.WORKER_GROUP, type);
		}
		return attributes;
	}

	private static void putNumber(Map<String, String> attributes, String key, Integer configured,
			Map<String, String> env, String envName, Integer fallback, Consumer<String> ignored) {
		if (configured != null) {
			if (configured >= 0) {
				attributes.put(key, configured.toString());
			}
			return;
		}
		Integer number = envNumber(env, envName, ignored);
		if (number != null || fallback != null) {
			attributes.put(key, Integer.toString((number != null) ? number : fallback));
		}
	}

	private static Integer envNumber(Map<String, String> env, String envName, Consumer<String> ignored) {
		String value = env.get(envName);
		if (value == null) {
			return null;
		}
		try {
			int number = Integer.parseInt(value.strip());
			if (number >= 0) {
				return number;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		ignored.accept(envName);
		return null;
	}

	private static void putText(Map<String, String> attributes, String key, String value) {
		if (value != null && !value.isBlank()) {
			attributes.put(key, value.strip());
		}
	}

	/**
	 * What the configuration says about this process; every part optional.
	 *
	 * @param rank {@code telemetry.rank}
	 * @param worldSize {@code telemetry.world-size}
	 * @param localRank {@code telemetry.local-rank}
	 * @param workerGroup {@code telemetry.worker-group}
	 * @param runId {@code telemetry.run-id}
	 * @param extras {@code telemetry.resource-attributes}
	 */
	public record Identity(Integer rank, Integer worldSize, Integer localRank, String workerGroup, String runId,
			Map<String, String> extras) {

		public Identity {
			extras = (extras != null) ? Map.copyOf(extras) : Map.of();
		}

	}

}
