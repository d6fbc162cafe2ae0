package io.github.startuptelemetry.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

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
 * This server's line to the supervisor that spawned it
 * ({@link TelemetryEnv#TELEMETRY_SUPERVISOR_CALLBACK_URL}): its clock, asked once early, and the
 * one "ready" call. Nothing it does can fail the server: an unreachable supervisor just polls.
 */
final class SupervisorCallback {

	private static final Log logger = LogFactory.getLog(SupervisorCallback.class);

	/** How long a connect, and a read, may take. */
	static final int TIMEOUT_MS = 1000;

	private static final int MAX_ANSWER_BYTES = 4096;

	private final URI base;

	private final String token;

	private final @Nullable String server;

	/** The ready call's request line and headers: its body goes in one chunk, written later. */
	private final byte[] readyHeaders;

	/** What the ready call will say, once ready is near: built on the prepared thread. */
	private final CompletableFuture<Supplier<ReadyCallback>> armed = new CompletableFuture<>();

	/**
	 * What it would say now, before ready, for the prepared thread to write the parts that are
	 * final already, in order; {@link #arm} ends the queue with its own callback.
	 */
	private final BlockingQueue<Supplier<ReadyCallback>> drafts = new LinkedBlockingQueue<>();

	/** The supervisor's clock, once read on the callback's thread; {@code null} when it could not be. */
	private final CompletableFuture<@Nullable ClockOffset> clock = new CompletableFuture<>();

	/** Completed by {@link #announce()}: the body may follow the headers. */
	private final CompletableFuture<Void> announcement = new CompletableFuture<>();

	/** Guards the ready call's connection between the main thread and the prepared one. */
	private final Object sendLock = new Object();

	private @Nullable OutputStream connection;

	private boolean announced;

	/** The body, as its chunk, when it was built before {@link #announce()}: sent with the headers. */
	private byte @Nullable [] body;

	private @Nullable IOException headersFailed;

	private SupervisorCallback(URI base, String token, @Nullable String server) {
		this.base = base;
		this.token = token;
		this.server = server;
		this.readyHeaders = headers("POST", ReadinessCallback.READY_PATH,
				Http11.header("Content-Type", "application/json") + Http11.header("Transfer-Encoding", "chunked"));
	}

	/**
	 * The callback the environment names, or {@code null} without one; an unusable URL or
	 * token is noted in {@code ignored} (by name, never its value) and left alone.
	 */
	static @Nullable SupervisorCallback fromEnv(Map<String, String> env, List<String> ignored) {
		String url = env.get(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL);
		String token = env.get(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_TOKEN);
		if (url == null && token == null) {
			return null;
		}
		if (token == null || token.isBlank() || !printableAscii(token)) {
			ignored.add(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_TOKEN + ": missing or not printable ASCII");
			return null;
		}
		try {
			URI base = (url != null) ? URI.create(url.strip()) : null;
			if (base == null || !"http".equals(base.getScheme()) || base.getHost() == null || base.getPort() < 1) {
				ignored.add(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL + ": not an http URL with host and port");
				return null;
			}
			String server = env.get(TelemetryEnv.TELEMETRY_STARTUP_SERVER_NAME);
			return new SupervisorCallback(base, token.strip(), (server != null && !server.isBlank())
					? URLEncoder.encode(server.strip(), StandardCharsets.UTF_8) : null);
		}
		catch (IllegalArgumentException ex) {
			ignored.add(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL + ": not a URL");
			return null;
		}
	}

	/** Whether every character of {@code token} is printable ASCII (a loop: no lambda to link at startup). */
	private static boolean printableAscii(String token) {
		for (int i = 0; i < token.length(); i++) {
			char c = token.charAt(i);
			if (c <= 0x20 || c >= 0x7f) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The offset of this clock to the supervisor's, read by {@link #prepare()}'s thread first,
	 * waiting for it at most {@code timeoutMs}; {@code null} when the supervisor did not answer
	 * (in time). The startup's own thread never asks it: a supervisor slow to answer costs the
	 * server's stages nothing.
	 */
	@Nullable ClockOffset clock(long timeoutMs) {
		try {
			return this.clock.get(timeoutMs, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
		catch (ExecutionException | TimeoutException ex) {
			return null;
		}
	}

	/**
	 * The offset of this clock to the supervisor's, from one round trip; {@code null} when it
	 * did not answer. Naming this server tells the supervisor to expect its callback.
	 */
	private @Nullable ClockOffset measureClock() {
		try {
			String path = ReadinessCallback.CLOCK_PATH
					+ ((this.server != null) ? "?" + ReadinessCallback.SERVER_PARAM + "=" + this.server : "");
			long sent = WallClock.nowNs();
			String answer = get(path);
			long received = WallClock.nowNs();
			return (answer != null) ? ClockOffset.cristian(sent, Long.parseLong(answer.strip()), received) : null;
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("The supervisor's clock could not be read; its stamps are used as they are", ex);
			return null;
		}
	}

	/**
	 * Start the thread that will tell the supervisor, now, early in the startup: so that at
	 * ready only a hand-over is left (creating a thread and writing the body took tens of ms on
	 * a loaded box, with the main thread building spans beside it). It reads the supervisor's
	 * clock first ({@link #clock(long)}: up to a connect and a read timeout, which the startup's
	 * thread used to wait for), writes one representative document, to warm the writer, then,
	 * each time {@link #draft} says more of the startup is done, the parts of the body that are
	 * final by then. Once {@link #arm} says ready is near, it opens the connection and finishes
	 * the body from that draft; {@link #announce()} then sends the request line and headers, and
	 * the body, built by then, follows as one chunk.
	 */
	void prepare() {
		try {
			DaemonThreads.ownThread("startup-ready-callback").execute(this::tellWhenReady);
		}
		catch (RuntimeException ex) {
			this.clock.complete(null);
			logger.debug("The ready callback's thread could not start; the supervisor will find this server by probing",
					ex);
		}
	}

	/** The callback's thread: the clock first, then the body, drafted as the startup goes, then the post. */
	private void tellWhenReady() {
		this.clock.complete(measureClock());
		try {
			warmUp();
			TimelineJson.Draft draft = new TimelineJson.Draft();
			for (Supplier<ReadyCallback> early = this.drafts.take(); !this.armed.isDone(); early = this.drafts.take()) {
				draft = addToDraft(draft, early);
			}
			Supplier<ReadyCallback> callback = this.armed.get();
			try (Socket socket = connect()) {
				OutputStream out = socket.getOutputStream();
				synchronized (this.sendLock) {
					this.connection = out;
					if (this.announced) {
						// ready came before the connection did: the headers go from here
						sendHeaders();
					}
				}
				// built, as one chunk and the last, while the main thread flips readiness: built before
				// the flip, the main thread sends it with the headers (no second wake-up); after it,
				// it goes from here at once
				byte[] chunk = Http11.chunked(JsonText.compact(callback.get().write(draft)).getBytes(StandardCharsets.UTF_8));
				synchronized (this.sendLock) {
					if (!this.announced) {
						this.body = chunk;
					}
					else if (this.headersFailed == null) {
						out.write(chunk);
						out.flush();
					}
				}
				this.announcement.get();
				synchronized (this.sendLock) {
					if (this.headersFailed != null) {
						throw this.headersFailed;
					}
				}
				if (answer(socket) == null) {
					logger.debug("The supervisor did not accept the ready callback; it will find this server by probing");
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("The ready callback failed; the supervisor will find this server by probing", ex);
		}
		catch (InterruptedException | ExecutionException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Write one representative document, while the main thread starts the application: the
	 * writer's first, cold run (class loading, interpreted code) then costs nothing on the ready
	 * path. A few kB, once, on the callback's thread; a failure here only means a colder body.
	 */
	private static void warmUp() {
		try {
			JsonText.compact(new ReadyCallback("warm-up", 1, "", 0, 2, null, TimelineJson.warmUpTimeline()).write());
		}
		catch (RuntimeException ex) {
			logger.debug("The ready callback's writer could not be warmed up", ex);
		}
	}

	/**
	 * {@code draft} with the parts of the body that are final by now, written from what the call
	 * would say now; {@code null} (the whole body written at ready) when that fails.
	 */
	private static TimelineJson.@Nullable Draft addToDraft(TimelineJson.@Nullable Draft draft,
			Supplier<ReadyCallback> early) {
		if (draft == null) {
			return null;
		}
		try {
			draft.add(early.get().timeline());
			return draft;
		}
		catch (RuntimeException ex) {
			logger.debug("The ready callback's body could not be drafted; it is written whole at ready", ex);
			return null;
		}
	}

	/**
	 * Ready is near ({@code ApplicationReadyEvent}, every stage known; readiness has not
	 * flipped yet): open the connection and build what the call will say, now, off the main
	 * thread, so that {@link #announce()} only writes. Not earlier: the supervisor's server
	 * closes a connection that stays silent for long. Only the first call counts.
	 * @param callback what the call says, built on the callback's thread (it must be safe to
	 * call there and cheap)
	 */
	void arm(Supplier<ReadyCallback> callback) {
		this.armed.complete(callback);
		this.drafts.add(callback);
	}

	/**
	 * Most of the startup is done ({@code ContextRefreshedEvent}, {@code ApplicationStartedEvent}:
	 * the steps, the JVM and most stages are final): have the callback's thread write those parts
	 * of the body now, while the main thread runs to ready, so that at ready it only writes what
	 * ready adds. Ignored after {@link #arm}.
	 * @param callback what the call would say now, built on the callback's thread (it must be
	 * safe to call there)
	 */
	void draft(Supplier<ReadyCallback> callback) {
		if (!this.armed.isDone()) {
			this.drafts.add(callback);
		}
	}

	/**
	 * This server is ready, now: send the request line and headers, pre-built, on the caller's
	 * thread when the connection is open (a write of a few hundred bytes into an empty socket
	 * buffer, cheaper than waking a thread), else as soon as it is; the body, armed before,
	 * goes with them when it is built already, else follows. The supervisor notes the instant they arrive and counts it once the body proves
	 * valid. Never throws.
	 */
	void announce() {
		try {
			synchronized (this.sendLock) {
				if (this.announced) {
					return;
				}
				this.announced = true;
				if (this.connection != null) {
					sendHeaders();
				}
			}
			this.announcement.complete(null);
		}
		catch (RuntimeException ex) {
			logger.debug("The ready callback could not be sent; the supervisor will find this server by probing", ex);
		}
	}

	/** The headers, and the body right behind them once it is built; under {@link #sendLock}. */
	private void sendHeaders() {
		try {
			this.connection.write(this.readyHeaders);
			if (this.body != null) {
				this.connection.write(this.body);
			}
			this.connection.flush();
		}
		catch (IOException ex) {
			this.headersFailed = ex;
		}
	}

	/** GET {@code path}: the body of a 2xx answer, or {@code null} for any other status. */
	private @Nullable String get(String path) throws IOException {
		try (Socket socket = connect()) {
			OutputStream out = socket.getOutputStream();
			out.write(headers("GET", path, ""));
			out.flush();
			return answer(socket);
		}
	}

	/** The request line and headers, the token among them, up to the empty line. */
	private byte[] headers(String method, String path, String more) {
		return Http11.requestHead(method, withoutTrailingSlashes(this.base.getRawPath()) + path, Http11.host(this.base),
				Http11.header(ReadinessCallback.AUTHORIZATION, ReadinessCallback.BEARER + this.token) + more);
	}

	/** {@code path} without the slashes it ends with (a loop: no regex compiled at startup). */
	private static String withoutTrailingSlashes(@Nullable String path) {
		if (path == null) {
			return "";
		}
		int end = path.length();
		while (end > 0 && path.charAt(end - 1) == '/') {
			end--;
		}
		return path.substring(0, end);
	}

	private Socket connect() throws IOException {
		Socket socket = new Socket();
		try {
			socket.setTcpNoDelay(true);
			socket.connect(new InetSocketAddress(this.base.getHost(), this.base.getPort()), TIMEOUT_MS);
			socket.setSoTimeout(TIMEOUT_MS);
			return socket;
		}
		catch (IOException | RuntimeException ex) {
			socket.close();
			throw ex;
		}
	}

	/**
	 * The body of a 2xx answer on {@code socket}, or {@code null} for any other status or
	 * something that is not HTTP; read up to the end its {@code Content-Length} or chunks say
	 * (the connection may stay open), or the connection's end, bounded.
	 */
	private static @Nullable String answer(Socket socket) throws IOException {
		InputStream in = socket.getInputStream();
		byte[] answer = new byte[1024];
		int count = 0;
		while (true) {
			if (count == answer.length) {
				answer = Arrays.copyOf(answer, answer.length * 2);
			}
			int read = in.read(answer, count, answer.length - count);
			count += Math.max(read, 0);
			Http11.Response response = Http11.response(answer, count, MAX_ANSWER_BYTES, read < 0);
			if (response != null) {
				return response.successful() ? response.body() : null;
			}
		}
	}

}
