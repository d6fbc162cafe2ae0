package io.github.startuptelemetry.readiness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.regex.Pattern;

import io.github.startuptelemetry.internal.Http11;

/**
 * One plain HTTP/1.1 GET to a port of this host, reading the whole response: what a readiness
 * probe does, on a bare socket so that warming a server up loads no HTTP client into it.
 */
final class LoopbackRequest {

	/** An absolute path with an optional query, as a URI's raw form has it: no space, no control character. */
	private static final Pattern PATH = Pattern.compile("/[!-~]*");

	private static final String USER_AGENT = Http11.header("User-Agent", "startup-telemetry-warm-up");

	private LoopbackRequest() {
	}

	static boolean isValidPath(String path) {
		return path != null && PATH.matcher(path).matches();
	}

	/**
	 * GET {@code path} from {@code port} on loopback; the response's status code (0 when the
	 * answer is not HTTP).
	 * @throws IOException when nothing answered within {@code timeout}
	 */
	static int get(int port, String path, Duration timeout) throws IOException {
		int timeoutMs = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeoutMs);
			socket.setSoTimeout(timeoutMs);
			OutputStream out = socket.getOutputStream();
			out.write(Http11.requestHead("GET", path, "localhost:" + port, USER_AGENT));
			out.flush();
			InputStream in = socket.getInputStream();
			// "HTTP/1.1 200": what a probe looks at; the rest is read to the end, as a probe's client does
			byte[] head = in.readNBytes(12);
			in.transferTo(OutputStream.nullOutputStream());
			return Math.max(Http11.status(head, head.length), 0);
		}
	}

}
