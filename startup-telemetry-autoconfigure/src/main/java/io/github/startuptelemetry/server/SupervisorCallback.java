package io.github.startuptelemetry.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.ReadinessCallback;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.support.DaemonThreads;
import io.github.startuptelemetry.timeline.ClockOffset;
import io.github.startuptelemetry.timeline.JsonText;
import io.github.startuptelemetry.timeline.ReadyCallback;
import io.github.startuptelemetry.timeline.WallClock;

/**
 * This server's line to the supervisor that spawned it ({@link TelemetryEnv#TELEMETRY_SUPERVISOR_CALLBACK_URL}):
 * its clock, asked once early, and the one "ready" call. Plain HTTP/1.1 on a socket of its own
 * (no HTTP client to load during startup), short timeouts, and nothing it does can fail the
 * server: an unreachable supervisor just polls instead. The token is sent in a header and
 * never logged.
 */
final class SupervisorCallback {

	private static final Log logger = LogFactory.getLog(SupervisorCallback.class);

	private static final int TIMEOUT_MS = 1000;

	private static final int MAX_ANSWER_BYTES = 4096;

	private final URI base;

	private final String token;

	private final @Nullable String server;

	private final CompletableFuture<ReadyCallback> ready = new CompletableFuture<>();

	private SupervisorCallback(URI base, String token, @Nullable String server) {
		this.base = base;
		this.token = token;
		this.server = server;
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
		if (token == null || token.isBlank() || !token.chars().allMatch((c) -> c > 0x20 && c < 0x7f)) {
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

	/**
	 * The offset of this clock to the supervisor's, from one round trip; {@code null} when it
	 * did not answer. Naming this server tells the supervisor to expect its callback.
	 */
	@Nullable ClockOffset measureClock() {
		try {
			String path = ReadinessCallback.CLOCK_PATH
					+ ((this.server != null) ? "?" + ReadinessCallback.SERVER_PARAM + "=" + this.server : "");
			long sent = WallClock.nowNs();
			String answer = exchange("GET", path, null);
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
	 * a loaded box, with the main thread building spans beside it).
	 */
	void prepare() {
		DaemonThreads.ownThread("startup-ready-callback").execute(() -> {
			try {
				ReadyCallback callback = this.ready.get();
				if (exchange("POST", ReadinessCallback.READY_PATH, JsonText.compact(callback.write())) == null) {
					logger.debug("The supervisor did not accept the ready callback; it will find this server by probing");
				}
			}
			catch (IOException | RuntimeException ex) {
				logger.debug("The ready callback failed; the supervisor will find this server by probing", ex);
			}
			catch (InterruptedException | ExecutionException ex) {
				Thread.currentThread().interrupt();
			}
		});
	}

	/** Tell the supervisor this server is ready, once, on the thread {@link #prepare()} started. */
	void ready(ReadyCallback callback) {
		this.ready.complete(callback);
	}

	/** The body of a 2xx answer, or {@code null} for any other status. */
	private @Nullable String exchange(String method, String path, @Nullable String body) throws IOException {
		byte[] content = (body != null) ? body.getBytes(StandardCharsets.UTF_8) : new byte[0];
		String basePath = (this.base.getRawPath() != null) ? this.base.getRawPath().replaceAll("/+$", "") : "";
		StringBuilder request = new StringBuilder().append(method).append(' ').append(basePath).append(path)
			.append(" HTTP/1.1\r\nHost: ").append(this.base.getHost()).append(':').append(this.base.getPort())
			.append("\r\n").append(ReadinessCallback.AUTHORIZATION).append(": ").append(ReadinessCallback.BEARER)
			.append(this.token).append("\r\nConnection: close\r\n");
		if (body != null) {
			request.append("Content-Type: application/json\r\nContent-Length: ").append(content.length).append("\r\n");
		}
		request.append("\r\n");
		try (Socket socket = new Socket()) {
			socket.setTcpNoDelay(true);
			socket.connect(new InetSocketAddress(this.base.getHost(), this.base.getPort()), TIMEOUT_MS);
			socket.setSoTimeout(TIMEOUT_MS);
			OutputStream out = socket.getOutputStream();
			out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
			out.write(content);
			out.flush();
			String answer = read(socket.getInputStream());
			int headerEnd = answer.indexOf("\r\n\r\n");
			String[] status = answer.split(" ", 3);
			boolean ok = status.length > 1 && status[0].startsWith("HTTP/") && status[1].startsWith("2");
			return (ok && headerEnd >= 0) ? answer.substring(headerEnd + 4) : null;
		}
	}

	/** The answer, up to the end its Content-Length says (the connection may stay open), or EOF. */
	private static String read(InputStream in) throws IOException {
		ByteArrayOutputStream answer = new ByteArrayOutputStream();
		byte[] buffer = new byte[1024];
		int expected = -1;
		int n;
		while (answer.size() < MAX_ANSWER_BYTES && (expected < 0 || answer.size() < expected)
				&& (n = in.read(buffer)) > 0) {
			answer.write(buffer, 0, n);
			if (expected < 0) {
				String text = answer.toString(StandardCharsets.ISO_8859_1);
				int headerEnd = text.indexOf("\r\n\r\n");
				if (headerEnd >= 0) {
					expected = headerEnd + 4 + contentLength(text.substring(0, headerEnd));
				}
			}
		}
		return answer.toString(StandardCharsets.ISO_8859_1);
	}

	private static int contentLength(String headers) {
		for (String line : headers.split("\r\n")) {
			int colon = line.indexOf(':');
			if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase("Content-Length")) {
				return Math.min(MAX_ANSWER_BYTES, Integer.parseInt(line.substring(colon + 1).strip()));
			}
		}
		return MAX_ANSWER_BYTES;
	}

}
