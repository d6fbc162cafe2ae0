package io.github.startuptelemetry.fleet;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.ReadinessCallback;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.internal.Http11;
import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.internal.DaemonThreads;
import io.github.startuptelemetry.timeline.internal.ClockOffset;
import io.github.startuptelemetry.timeline.internal.ReadyCallback;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.timeline.TimelineJson;

/**
 * The supervisor's readiness callback endpoint for one run, on the JDK's HTTP server:
 * {@code GET /clock} answers the supervisor's wall clock, {@code POST /ready} takes a server's
 * {@link ReadyCallback}, dated from the instant its first bytes arrived and counted only once the
 * token and the body check out. Anything else is answered 4xx, logged once (never the token, never
 * the body) and changes nothing.
 */
final class ReadinessCallbackServer {

	private static final Log logger = LogFactory.getLog(ReadinessCallbackServer.class);

	private static final int THREADS = 4;

	/** The least the listen queue holds: what a fleet of any size gets. */
	static final int MIN_BACKLOG = 64;

	private static final int WARM_UP_TIMEOUT_MS = 1000;

	private static final int WARM_UP_PARSES = 10;

	private final HttpServer server;

	private final ExecutorService executor;

	private final byte[] token;

	private final String tokenText;

	private final Decision ready;

	private final Arrivals arrivals;

	private final Consumer<String> clockAsked;

	private ReadinessCallbackServer(HttpServer server, String token, Decision ready, Consumer<String> clockAsked) {
		this.server = server;
		this.tokenText = token;
		this.token = token.getBytes(StandardCharsets.US_ASCII);
		this.ready = ready;
		this.clockAsked = clockAsked;
		// a few threads: a ready call's handler waits for its body, the others need not wait behind it
		this.executor = Executors.newFixedThreadPool(THREADS, DaemonThreads.named("fleet-callback"));
		this.arrivals = new Arrivals(this.executor);
		server.setExecutor(this.arrivals);
		server.createContext(ReadinessCallback.CLOCK_PATH, this::clock);
		server.createContext(ReadinessCallback.READY_PATH, this::ready);
	}

	/** {@link #start(String, int, Decision, Consumer, int)} for a fleet of at most {@value #MIN_BACKLOG}. */
	public static ReadinessCallbackServer start(String address, int port, Decision ready,
			Consumer<String> clockAsked) throws IOException {
		return start(address, port, ready, clockAsked, MIN_BACKLOG);
	}

	/**
	 * Listen, with a new token.
	 * @param address the address to listen on ({@code telemetry.supervisor.callback.address})
	 * @param port the port, 0 for any free one
	 * @param ready decides about one authenticated, well-formed callback from an address
	 * @param clockAsked told the name an authenticated clock request gave (unchecked: any
	 * text), after it was answered
	 * @param servers how many servers may call at once (the fleet): the listen queue holds a
	 * connection for each, so that a burst of them waits for the one thread that accepts instead
	 * of being dropped (a dropped connection is retried by the kernel a second later, past a
	 * server's timeout); the kernel caps it ({@code net.core.somaxconn}, 4,096 on recent Linux)
	 */
	public static ReadinessCallbackServer start(String address, int port, Decision ready,
			Consumer<String> clockAsked, int servers) throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), port),
				Math.max(MIN_BACKLOG, servers));
		byte[] secret = new byte[32];
		new SecureRandom().nextBytes(secret);
		ReadinessCallbackServer callback = new ReadinessCallbackServer(server,
				Base64.getUrlEncoder().withoutPadding().encodeToString(secret), ready, clockAsked);
		DaemonThreads.ownThread("fleet-callback-warm-up").execute(ReadinessCallbackServer::warmUp);
		server.start();
		callback.warmUpRequest();
		return callback;
	}

	/**
	 * Parse a callback a few times, on a thread of its own, while the fleet spawns: the first
	 * real one then finds the parser's classes loaded and its paths run, instead of paying for
	 * them before its server is made ready. The document has what a server's has (every stage
	 * with its counters, nested steps, ignored env, the JVM, a clock offset), so every branch of
	 * the reader runs, and the shift the run applies to a server on another clock too. More than
	 * once: on a fresh JVM the second parse of a 2.4 kB document still took 4.4 ms and the third
	 * 0.5 ms, the tenth 0.24 ms (a standalone loop, 2026-12-01). Bounded: a few kB,
	 * {@value #WARM_UP_PARSES} times, once per run.
	 */
	private static void warmUp() {
		String body = JsonText.compact(new ReadyCallback("warm-up", 1, "warm-up", 1, 2, new ClockOffset(1, 1),
				TimelineJson.warmUpTimeline()).write());
		for (int i = 0; i < WARM_UP_PARSES; i++) {
			parse(body).ifPresent((callback) -> callback.timeline().shifted(callback.clock().toSupervisorClock(0)));
		}
	}

	/**
	 * Ask the clock once, over loopback, before any server is spawned: the JDK server's
	 * dispatch, its request parsing and this class's handlers are loaded and run once, so the
	 * first server's call meets a warm endpoint. Names no server, so it notes nothing.
	 */
	private void warmUpRequest() {
		InetSocketAddress bound = this.server.getAddress();
		InetAddress host = bound.getAddress().isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : bound.getAddress();
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, bound.getPort()), WARM_UP_TIMEOUT_MS);
			socket.setSoTimeout(WARM_UP_TIMEOUT_MS);
			socket.getOutputStream()
				.write(Http11.requestHead("GET", ReadinessCallback.CLOCK_PATH, "warm-up",
						Http11.header(ReadinessCallback.AUTHORIZATION, ReadinessCallback.BEARER + this.tokenText)));
			socket.getInputStream().readNBytes(4096);
		}
		catch (IOException ex) {
			logger.debug("The readiness callback could not be warmed up; the first server's call pays for it", ex);
		}
	}

	/** What each server of the run gets: the URL and the token (a secret: never log this map's values). */
	public Map<String, String> serverEnv() {
		return Map.of(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL, url().toString(),
				TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_TOKEN, this.tokenText);
	}

	URI url() {
		InetSocketAddress address = this.server.getAddress();
		InetAddress host = address.getAddress();
		String name = host.isAnyLocalAddress() ? localHostName() : host.getHostAddress();
		return URI.create("http://" + (name.contains(":") ? "[" + name + "]" : name) + ":" + address.getPort());
	}

	public void stop() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	private void clock(HttpExchange exchange) throws IOException {
		try (exchange) {
			if (!authorized(exchange, "GET")) {
				return;
			}
			// noted before the answer, so whoever has the answer knows the supervisor noted it
			String server = serverParam(exchange.getRequestURI().getRawQuery());
			if (server != null) {
				this.clockAsked.accept(server);
			}
			// read as late as possible: the server halves the round trip around this reading
			byte[] now = Long.toString(WallClock.nowNs()).getBytes(StandardCharsets.US_ASCII);
			exchange.getResponseHeaders().set("Content-Type", "text/plain");
			exchange.sendResponseHeaders(200, now.length);
			exchange.getResponseBody().write(now);
		}
	}

	/** The {@code server} the query names, or {@code null}. */
	static @Nullable String serverParam(@Nullable String rawQuery) {
		if (rawQuery == null || rawQuery.length() > 1024) {
			return null;
		}
		String prefix = ReadinessCallback.SERVER_PARAM + "=";
		for (String pair : rawQuery.split("&")) {
			if (pair.startsWith(prefix)) {
				try {
					return URLDecoder.decode(pair.substring(prefix.length()), StandardCharsets.UTF_8);
				}
				catch (IllegalArgumentException ex) {
					return null;
				}
			}
		}
		return null;
	}

	private void ready(HttpExchange exchange) throws IOException {
		long receivedNs = this.arrivals.arrivedNs();
		try (exchange) {
			if (!authorized(exchange, "POST")) {
				return;
			}
			byte[] body = readBounded(exchange.getRequestBody());
			if (body == null) {
				reject(exchange, 413, "a body over " + ReadinessCallback.MAX_BODY_BYTES + " bytes");
				return;
			}
			Optional<ReadyCallback> callback = parse(new String(body, StandardCharsets.UTF_8));
			if (callback.isEmpty()) {
				reject(exchange, 400, "a body that is not a ready callback");
				return;
			}
			Verdict verdict = this.ready.decide(callback.get(), exchange.getRemoteAddress().getAddress(), receivedNs);
			if (verdict != Verdict.ACCEPTED) {
				reject(exchange, verdict.status, verdict.reason + " '" + printable(callback.get().server()) + "'");
				return;
			}
			exchange.sendResponseHeaders(204, -1);
		}
	}

	private boolean authorized(HttpExchange exchange, String method) throws IOException {
		if (!method.equals(exchange.getRequestMethod())) {
			reject(exchange, 405, "method " + exchange.getRequestMethod());
			return false;
		}
		String header = exchange.getRequestHeaders().getFirst(ReadinessCallback.AUTHORIZATION);
		byte[] given = (header != null && header.startsWith(ReadinessCallback.BEARER))
				? header.substring(ReadinessCallback.BEARER.length()).getBytes(StandardCharsets.US_ASCII) : new byte[0];
		if (!MessageDigest.isEqual(given, this.token)) {
			reject(exchange, 401, "a missing or wrong token");
			return false;
		}
		return true;
	}

	private static Optional<ReadyCallback> parse(String body) {
		try {
			return ReadyCallback.read(JsonText.parseObject(body));
		}
		catch (RuntimeException ex) {
			return Optional.empty();
		}
	}

	/** At most the limit, or {@code null} when there is more. */
	private static byte[] readBounded(InputStream in) throws IOException {
		byte[] body = in.readNBytes(ReadinessCallback.MAX_BODY_BYTES + 1);
		return (body.length > ReadinessCallback.MAX_BODY_BYTES) ? null : body;
	}

	private static void reject(HttpExchange exchange, int status, String why) throws IOException {
		logger.warn("Rejected a readiness callback from " + exchange.getRemoteAddress().getAddress().getHostAddress()
				+ " (" + status + "): " + why + "; it changes nothing");
		exchange.sendResponseHeaders(status, -1);
	}

	/** A name from the network, safe for one log line. */
	private static String printable(String name) {
		String safe = name.replaceAll("[^A-Za-z0-9._-]", "?");
		return (safe.length() > 64) ? safe.substring(0, 64) + "..." : safe;
	}

	private static String localHostName() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			return InetAddress.getLoopbackAddress().getHostAddress();
		}
	}

	/**
	 * The HTTP server's executor, noting when each request arrived: the JDK's server hands a
	 * request over the moment its first bytes can be read, before any thread has parsed it,
	 * and the task then runs knowing that instant (however long it waited for a thread).
	 */
	static final class Arrivals implements Executor {

		private final Executor threads;

		private final ThreadLocal<Long> arrivedNs = new ThreadLocal<>();

		Arrivals(Executor threads) {
			this.threads = threads;
		}

		@Override
		public void execute(Runnable task) {
			long arrived = WallClock.nowNs();
			this.threads.execute(() -> {
				this.arrivedNs.set(arrived);
				try {
					task.run();
				}
				finally {
					this.arrivedNs.remove();
				}
			});
		}

		/** When the request the calling task handles arrived; now, outside such a task. */
		long arrivedNs() {
			Long arrived = this.arrivedNs.get();
			return (arrived != null) ? arrived : WallClock.nowNs();
		}

	}

	/** The run's say about one authenticated, well-formed callback. */
	@FunctionalInterface
	public interface Decision {

		/**
		 * @param callback what the server said
		 * @param from the address it came from
		 * @param receivedNs when it arrived (epoch ns): the server's ready instant, as this
		 * supervisor saw it
		 */
		Verdict decide(ReadyCallback callback, InetAddress from, long receivedNs);

	}

	/** What the run made of an authenticated, well-formed callback. */
	public enum Verdict {

		ACCEPTED(204, "accepted"), UNKNOWN(404, "an unknown server"), SETTLED(409, "a server no longer waited for");

		final int status;

		final String reason;

		Verdict(int status, String reason) {
			this.status = status;
			this.reason = reason;
		}

	}

}
