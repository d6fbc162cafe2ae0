package io.github.startuptelemetry.contract;

/**
 * The supervisor's readiness callback as both sides see it: its two paths under
 * {@link TelemetryEnv#TELEMETRY_SUPERVISOR_CALLBACK_URL}, how a request proves itself, and the
 * values of {@link SpanAttributes#READINESS_SOURCE}. The body of a ready call is
 * {@code timeline.ReadyCallback}'s JSON.
 */
public final class ReadinessCallback {

	/**
	 * GET: the supervisor's wall clock now, epoch nanoseconds as decimal text. A server names
	 * itself in {@link #SERVER_PARAM}: from then on the supervisor waits for its callback and
	 * backs its probe off.
	 */
	public static final String CLOCK_PATH = "/clock";

	/** The query parameter of {@link #CLOCK_PATH} that carries the asking server's name. */
	public static final String SERVER_PARAM = "server";

	/** POST: a server says it is ready, once, with its address, clock and timeline. */
	public static final String READY_PATH = "/ready";

	/** Every request carries {@code Authorization: Bearer <token>}. */
	public static final String AUTHORIZATION = "Authorization";

	/** The scheme before the token in {@link #AUTHORIZATION}. */
	public static final String BEARER = "Bearer ";

	/** The largest ready body the supervisor reads; a larger one is rejected unread. */
	public static final int MAX_BODY_BYTES = 256 * 1024;

	/** The server told the supervisor itself. */
	public static final String SOURCE_CALLBACK = "callback";

	/** The supervisor's health probe found it ready. */
	public static final String SOURCE_PROBE = "probe";

	/** A one-shot job exited 0: it is done, which is its ready. */
	public static final String SOURCE_EXIT = "exit";

	private ReadinessCallback() {
	}

}
