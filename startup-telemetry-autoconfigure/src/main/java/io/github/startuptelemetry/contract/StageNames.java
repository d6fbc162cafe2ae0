package io.github.startuptelemetry.contract;

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

	/** The supervisor stage that was running when a startup was aborted. */
	public static final String UNFINISHED = "unfinished";

	private StageNames() {
	}

}
