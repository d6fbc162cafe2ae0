package io.github.startuptelemetry.internal;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * HTTP/1.1 as the starter's own clients speak it, one request per connection: a request's head,
 * and a bounded reading of the answer. A socket of their own means no HTTP client loaded into a
 * starting server, and no thread per probed server in the supervisor.
 */
public final class Http11 {

	// The readiness path runs these many times per fleet, often cold: plain loops and concatenation,
	// no regex, formatter, lambda or method reference (each is linked on its first use, which costs a
	// cold path milliseconds; bench/results/readiness-lag.md).

	/** A status line, or a whole head, is never longer: a server sending more is not answering. */
	public static final int MAX_HEAD = 8192;

	/** What bytes that cannot be an answer come to: not HTTP/1.x, or a head that never ends. */
	public static final Response MALFORMED = new Response(-1, "");

	private static final byte[] LINE_END = { '\r', '\n' };

	private static final byte[] HEAD_END = { '\r', '\n', '\r', '\n' };

	private static final byte[] LAST_CHUNK = { '\r', '\n', '0', '\r', '\n', '\r', '\n' };

	private static final String CONTENT_LENGTH = "\ncontent-length:";

	private static final String CHUNKED = "\ntransfer-encoding: chunked";

	private Http11() {
	}

	/**
	 * A request's head: its request line, {@code Host}, the given header lines,
	 * {@code Connection: close} and the empty line that ends it.
	 * @param method {@code GET}, {@code POST}
	 * @param target the path and query, as a URI's raw form has them (the caller checks it has no
	 * space or line end)
	 * @param host the {@code Host} header's value ({@link #host(URI)})
	 * @param headers more header lines, each as {@link #header} writes it, or {@code ""}
	 */
	public static byte[] requestHead(String method, String target, String host, String headers) {
		return (method + " " + target + " HTTP/1.1\r\nHost: " + host + "\r\n" + headers + "Connection: close\r\n\r\n")
			.getBytes(StandardCharsets.ISO_8859_1);
	}

	/** One header line, {@code name: value} and its line end, for {@link #requestHead}. */
	public static String header(String name, String value) {
		return name + ": " + value + "\r\n";
	}

	/** What a request for {@code uri} names: its raw path ({@code /} when it has none) and query. */
	public static String target(URI uri) {
		String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty()) ? "/" : uri.getRawPath();
		return (uri.getRawQuery() != null) ? path + "?" + uri.getRawQuery() : path;
	}

	/** The {@code Host} header's value for {@code uri}: its host, and its port when it names one. */
	public static String host(URI uri) {
		return (uri.getPort() != -1) ? uri.getHost() + ":" + uri.getPort() : uri.getHost();
	}

	/** {@code body} as the one chunk of a chunked body, followed by the last (empty) chunk. */
	public static byte[] chunked(byte[] body) {
		byte[] size = Integer.toHexString(body.length).getBytes(StandardCharsets.ISO_8859_1);
		byte[] chunked = new byte[size.length + LINE_END.length + body.length + LAST_CHUNK.length];
		System.arraycopy(size, 0, chunked, 0, size.length);
		System.arraycopy(LINE_END, 0, chunked, size.length, LINE_END.length);
		System.arraycopy(body, 0, chunked, size.length + LINE_END.length, body.length);
		System.arraycopy(LAST_CHUNK, 0, chunked, size.length + LINE_END.length + body.length, LAST_CHUNK.length);
		return chunked;
	}

	/**
	 * The code of the status line the first {@code count} of {@code bytes} start with, such as
	 * {@code HTTP/1.1 200 OK}, or -1 when they do not start with one.
	 */
	public static int status(byte[] bytes, int count) {
		if (count < 12 || bytes[8] != ' ') {
			return -1;
		}
		for (int i = 0; i < 7; i++) {
			if (bytes[i] != "HTTP/1.".charAt(i)) {
				return -1;
			}
		}
		int code = 0;
		for (int i = 9; i < 12; i++) {
			if (bytes[i] < '0' || bytes[i] > '9') {
				return -1;
			}
			code = code * 10 + (bytes[i] - '0');
		}
		return code;
	}

	/**
	 * The answer the first {@code count} of {@code bytes} make, or {@code null} while more is
	 * needed. Only the head is searched, so that reading a body is linear; a body is read as
	 * {@code Content-Length} says, as its chunks say, or up to the connection's end.
	 * @param maxBody the longest body wanted, 0 for the status line alone (known before the rest
	 * of the head); a longer body reads as empty, and stops the reading once it cannot fit
	 * @param ended whether the connection closed after these bytes (or will be taken as closed)
	 * @return the answer, {@link #MALFORMED} when these bytes cannot be one, or {@code null}
	 */
	public static @Nullable Response response(byte[] bytes, int count, int maxBody, boolean ended) {
		int headLimit = Math.min(count, MAX_HEAD);
		int lineEnd = indexOf(bytes, LINE_END, 0, headLimit);
		if (lineEnd < 0) {
			return (ended || count >= MAX_HEAD) ? MALFORMED : null;
		}
		int status = status(bytes, lineEnd);
		if (status < 0) {
			return MALFORMED;
		}
		if (maxBody == 0) {
			return new Response(status, "");
		}
		int headEnd = indexOf(bytes, HEAD_END, 0, headLimit);
		if (headEnd < 0) {
			return (ended || count >= MAX_HEAD) ? MALFORMED : null;
		}
		if (status == 204 || status == 304) {
			// no body, whatever the head says
			return new Response(status, "");
		}
		String head = new String(bytes, 0, headEnd, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
		int bodyStart = headEnd + HEAD_END.length;
		int length = count - bodyStart;
		if (length > 2L * maxBody + MAX_HEAD) {
			// too long even for a chunked body: not one worth reading
			return new Response(status, "");
		}
		if (head.contains(CHUNKED)) {
			return ended ? new Response(status, dechunked(bytes, bodyStart, count, maxBody)) : null;
		}
		long declared = contentLength(head);
		if (declared >= 0 && length >= declared) {
			return new Response(status, body(bytes, bodyStart, (int) Math.min(declared, length), maxBody));
		}
		return ended ? new Response(status, body(bytes, bodyStart, length, maxBody)) : null;
	}

	/** The {@code Content-Length} of a lower-cased head, or -1 when it has none or a bad one. */
	private static long contentLength(String head) {
		int at = head.indexOf(CONTENT_LENGTH);
		if (at < 0) {
			return -1;
		}
		int end = head.indexOf('\r', at + 1);
		try {
			return Long.parseLong(head.substring(at + CONTENT_LENGTH.length(), (end < 0) ? head.length() : end).strip());
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	private static String body(byte[] bytes, int from, int length, int maxBody) {
		return (length > maxBody) ? "" : new String(bytes, from, length, StandardCharsets.UTF_8);
	}

	/** A chunked body, or empty when it is malformed or longer than {@code maxBody}. */
	private static String dechunked(byte[] bytes, int from, int count, int maxBody) {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		int at = from;
		while (true) {
			int lineEnd = indexOf(bytes, LINE_END, at, count);
			if (lineEnd < 0) {
				return "";
			}
			String size = new String(bytes, at, lineEnd - at, StandardCharsets.US_ASCII);
			int extension = size.indexOf(';');
			int length;
			try {
				length = Integer.parseInt(((extension >= 0) ? size.substring(0, extension) : size).strip(), 16);
			}
			catch (NumberFormatException ex) {
				return "";
			}
			if (length == 0) {
				return body.toString(StandardCharsets.UTF_8);
			}
			at = lineEnd + LINE_END.length;
			if (length < 0 || at + (long) length > count || body.size() + (long) length > maxBody) {
				return "";
			}
			body.write(bytes, at, length);
			at += length + LINE_END.length;
		}
	}

	/** Where {@code what} starts within {@code bytes[from, to)}, or -1. */
	private static int indexOf(byte[] bytes, byte[] what, int from, int to) {
		outer: for (int i = from; i <= to - what.length; i++) {
			for (int j = 0; j < what.length; j++) {
				if (bytes[i + j] != what[j]) {
					continue outer;
				}
			}
			return i;
		}
		return -1;
	}

	/**
	 * A whole answer: its status and its body (empty when none was asked for, it was longer than
	 * asked, or its chunks were malformed). A plain class, not a record: a record's
	 * {@code equals}, {@code hashCode} and {@code toString} are linked on their first use.
	 */
	public static final class Response {

		private final int status;

		private final String body;

		Response(int status, String body) {
			this.status = status;
			this.body = body;
		}

		/** The status code; -1 for {@link #MALFORMED}. */
		public int status() {
			return this.status;
		}

		public String body() {
			return this.body;
		}

		/** A 2xx answer. */
		public boolean successful() {
			return this.status >= 200 && this.status < 300;
		}

	}

}
