package io.github.startuptelemetry.lifecycle;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The resource attributes that tell one process of a fleet from its peers (NeMo RL's
 * {@code _rank_attributes} and {@code _worker_resource_attributes}): rank, world size, local
 * rank, worker group, run id and pid. {@code RANK} is group-local (each server type numbers its
 * replicas from zero), so {@value #WORKER_GROUP} is what keeps two groups apart.
 * <p>
 * Only values stable for the whole life of the process belong here; per-request values are
 * span attributes. Rank, world size and local rank default to the {@code RANK},
 * {@code WORLD_SIZE} and {@code LOCAL_RANK} env vars a distributed launcher sets; a value that
 * is not a non-negative integer is left out, never an error.
 */
public final class ProcessResourceAttributes {

	public static final String RANK = "nv.dl.rank";

	public static final String WORLD_SIZE = "nv.dl.world_size";

	public static final String LOCAL_RANK = "nv.dl.local_rank";

	public static final String WORKER_GROUP = "rl.worker_group";

	/** The run a process belongs to: one value shared by a supervisor and all its servers. */
	public static final String RUN_ID = "nv.dl.run_id";

	public static final String PROCESS_PID = "process.pid";

	public static final String RANK_ENV = "RANK";

	public static final String WORLD_SIZE_ENV = "WORLD_SIZE";

	public static final String LOCAL_RANK_ENV = "LOCAL_RANK";

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
		putNumber(attributes, RANK, identity.rank(), env, RANK_ENV, ignored);
		putNumber(attributes, WORLD_SIZE, identity.worldSize(), env, WORLD_SIZE_ENV, ignored);
		putNumber(attributes, LOCAL_RANK, identity.localRank(), env, LOCAL_RANK_ENV, ignored);
		putText(attributes, WORKER_GROUP, identity.workerGroup());
		putText(attributes, RUN_ID, identity.runId());
		attributes.put(PROCESS_PID, Long.toString(pid));
		identity.extras().forEach((key, value) -> {
			if (key != null && !key.isBlank() && value != null) {
				attributes.put(key, value);
			}
		});
		return attributes;
	}

	private static void putNumber(Map<String, String> attributes, String key, Integer configured,
			Map<String, String> env, String envName, Consumer<String> ignored) {
		if (configured != null) {
			if (configured >= 0) {
				attributes.put(key, configured.toString());
			}
			return;
		}
		String value = env.get(envName);
		if (value == null) {
			return;
		}
		try {
			int number = Integer.parseInt(value.strip());
			if (number >= 0) {
				attributes.put(key, Integer.toString(number));
				return;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		ignored.accept(envName);
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
