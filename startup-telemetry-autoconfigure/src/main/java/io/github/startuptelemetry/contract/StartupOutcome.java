package io.github.startuptelemetry.contract;

import java.util.Set;

/**
 * Values of {@code nemo.gym.startup.outcome}, on {@code gym.startup} and
 * {@code gym.startup.server}: how a startup, or one server's part of it, ended.
 */
public final class StartupOutcome {

	public static final String READY = "ready";

	/** The ready timeout passed first. */
	public static final String TIMEOUT = "timeout";

	/** A server process exited before it was ready. */
	public static final String CRASHED = "crashed";

	/** The supervisor was stopped (SIGTERM, SIGINT, context close) during startup. */
	public static final String INTERRUPTED = "interrupted";

	/** Anything else that ended a startup early. */
	public static final String ERROR = "error";

	private static final Set<String> FAILURES = Set.of(TIMEOUT, CRASHED, INTERRUPTED, ERROR);

	private StartupOutcome() {
	}

	/** The outcome of an aborted startup: one of the four failure values, {@link #ERROR} for anything else. */
	public static String failure(String outcome) {
		return (outcome != null && FAILURES.contains(outcome)) ? outcome : ERROR;
	}

}
