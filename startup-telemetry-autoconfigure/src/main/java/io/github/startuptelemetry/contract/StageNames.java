package io.github.startuptelemetry.contract;

import java.util.List;

/** Stage names of the wire contract, shared with NeMo Gym, each named after the moment that ends it. */
public final class StageNames {

	public static final String VENV_SETUP = "venv_setup";

	/**
	 * Kubernetes only, ours: the server's pod from its creation (the supervisor's create call, when
	 * it spawned the server) until the scheduler bound it to a node.
	 */
	public static final String POD_SCHEDULING = "pod_scheduling";

	/**
	 * Kubernetes only, ours: the pod from its scheduling until the server's container started
	 * (sandbox, volumes, init containers, the image pull).
	 */
	public static final String POD_SETUP = "pod_setup";

	/**
	 * Kubernetes only, ours: inside {@link #POD_SETUP} (a span nested in it, not a stage of its
	 * own), the pull of the server container's image as the kubelet's {@code Pulled} event tells it.
	 */
	public static final String IMAGE_PULL = "image_pull";

	public static final String INTERPRETER_START = "interpreter_start";

	public static final String WORKER_START = "worker_start";

	public static final String MAIN_START = "main_start";

	public static final String ENVIRONMENT_PREPARED = "environment_prepared";

	public static final String CONTEXT_PREPARED = "context_prepared";

	public static final String BEANS_INSTANTIATED = "beans_instantiated";

	public static final String WEB_SERVER_STARTED = "web_server_started";

	public static final String CONTEXT_REFRESHED = "context_refreshed";

	public static final String APPLICATION_STARTED = "application_started";

	public static final String APPLICATION_READY = "application_ready";

	/** The supervisor's stage that ends when it has spawned every server. */
	public static final String SPAWN_SERVERS = "spawn_servers";

	/** The supervisor's stage that ends when the last server became ready. */
	public static final String WAIT_FOR_SERVERS = "wait_for_servers";

	/**
	 * A server's stage in its supervisor's view ({@code gym.startup.server}), before its own: from
	 * when its supervisor spawned the servers that wait for nothing to its own spawn, once its
	 * {@code depends-on} were met (or to the end of a startup that ended first). Ours, not Gym's.
	 */
	public static final String WAITING_FOR_DEPENDENCIES = "waiting_for_dependencies";

	/**
	 * The supervisor's stage that ends when it has trained the JVM startup caches its servers
	 * lacked ({@code telemetry.supervisor.jvm-cache}), before it spawns them: ours, not Gym's.
	 */
	public static final String JVM_CACHE_TRAINING = "jvm_cache_training";

	/**
	 * The supervisor's stage that ends when it has started the fleet, round after round,
	 * without and with its JVM caches to compare them ({@code jvm-cache.mode=compare}): ours.
	 */
	public static final String JVM_CACHE_COMPARE = "jvm_cache_compare";

	/** The supervisor stage that was running when a startup was aborted. */
	public static final String UNFINISHED = "unfinished";

	/**
	 * Every stage above, in the order stages run: a server's wait for its dependencies, its
	 * pod's stages (Kubernetes; {@code image_pull} after the {@code pod_setup} it is part of), a
	 * process's stages from before its JVM to ready (a worker's {@code worker_start} where a
	 * server has {@code interpreter_start}), then a supervisor's own after its Spring stages.
	 * Reports sort stage names by it.
	 */
	public static final List<String> RUN_ORDER = List.of(WAITING_FOR_DEPENDENCIES, POD_SCHEDULING, POD_SETUP,
			IMAGE_PULL, VENV_SETUP, INTERPRETER_START, WORKER_START, MAIN_START, ENVIRONMENT_PREPARED, CONTEXT_PREPARED, BEANS_INSTANTIATED, WEB_SERVER_STARTED,
			CONTEXT_REFRESHED, APPLICATION_STARTED, APPLICATION_READY, JVM_CACHE_TRAINING, JVM_CACHE_COMPARE, SPAWN_SERVERS, WAIT_FOR_SERVERS, UNFINISHED);

	private StageNames() {
	}

}
