package io.github.startuptelemetry.contract;

/**
 * The env contract a supervisor (or a multi-process server's main process) hands a process it
 * spawns: wall-clock epoch nanoseconds as decimal strings, and the W3C traceparent the
 * process's startup trace hangs from. NeMo Gym's Python supervisor and servers use the same
 * names.
 */
public final class StartupEnv {

	/** When the supervisor spawned the server's launch shell. */
	public static final String SPAWN_NS = "NEMO_GYM_STARTUP_SPAWN_NS";

	/** When the launch shell finished setup, just before it exec'd the server. */
	public static final String SETUP_DONE_NS = "NEMO_GYM_STARTUP_SETUP_DONE_NS";

	/** A multi-process server's hand-off to its workers. */
	public static final String SERVE_NS = "NEMO_GYM_STARTUP_SERVE_NS";

	/** The traceparent of the {@code gym.startup.server} span for this server. */
	public static final String TRACEPARENT = "NEMO_GYM_STARTUP_TRACEPARENT";

	/** OpenTelemetry's environment-carrier name for the same value. */
	public static final String OTEL_TRACEPARENT = "TRACEPARENT";

	private StartupEnv() {
	}

}
