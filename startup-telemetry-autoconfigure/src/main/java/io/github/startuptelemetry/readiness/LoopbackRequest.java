package io.github.startuptelemetry.readiness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * One plain HTTP/1.1 GET to a port of this host, reading the whole response: what a readiness
 * probe does, on a bare socket so that warming a server up loads no HTTP client into it.
 */
final class LoopbackRequest {

	/** An absolute path with an optional query, as a URI's raw form has it: no space, no control character. */
	private static final Pattern PATH = Pattern.compile("/[!-~]*");

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
			out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost:" + port
					+ "\r\nUser-Agent: startup-telemetry-warm-up\r\nConnection: close\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] head = in.readNBytes(12);
			in.transferTo(OutputStream.nullOutputStream());
			// "HTTP/1.1 200"
			String status = new String(head, StandardCharsets.US_ASCII);
			return (status.length() == 12 && status.substring(9).chars().allMatch(Character::isDigit))
					? Integer.parseInt(status.substring(9)) : 0;
		}
	}

}
