package io.github.startuptelemetry.internal;

import java.net.URI;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one HTTP/1.1 framing, byte for byte; the clients that use it are tested against real
 * servers ({@code ProbeClientTest}, {@code SupervisorCallbackTest}, {@code LoopbackRequestTest},
 * {@code ReadinessCallbackServerTest}).
 */
class Http11Test {

	@Test
	void aRequestHeadIsItsLineHostHeadersCloseAndTheEmptyLine() {
		assertThat(text(Http11.requestHead("POST", "/cb/ready", "10.0.0.1:4711",
				Http11.header("Authorization", "Bearer t") + Http11.header("Transfer-Encoding", "chunked"))))
			.isEqualTo("POST /cb/ready HTTP/1.1\r\nHost: 10.0.0.1:4711\r\nAuthorization: Bearer t\r\n"
					+ "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
		assertThat(text(Http11.requestHead("GET", "/", "h", ""))).isEqualTo("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
	}

	@Test
	void aUriGivesItsTargetAndHost() {
		URI uri = URI.create("http://[::1]:8080/actuator/health%20x?probe=1&a=%2F");
		assertThat(Http11.target(uri)).isEqualTo("/actuator/health%20x?probe=1&a=%2F");
		assertThat(Http11.host(uri)).isEqualTo("[::1]:8080");
		assertThat(Http11.target(URI.create("http://node7"))).isEqualTo("/");
		assertThat(Http11.host(URI.create("http://node7"))).isEqualTo("node7");
	}

	@Test
	void aBodyIsOneChunkThenTheLast() {
		assertThat(text(Http11.chunked("{\"ready\":true}".getBytes(StandardCharsets.UTF_8))))
			.isEqualTo("e\r\n{\"ready\":true}\r\n0\r\n\r\n");
		assertThat(text(Http11.chunked(new byte[0]))).isEqualTo("0\r\n\r\n0\r\n\r\n");
	}

	@Test
	void theStatusIsKnownOnceItsLineIsInWhateverFollows() {
		assertThat(answer("HTTP/1.1 204 No", 0, false)).isNull();
		assertThat(answer("HTTP/1.1 204 No", 0, true)).isSameAs(Http11.MALFORMED);
		assertThat(answer("HTTP/1.1 204 No Content\r\nDate: ", 0, false)).satisfies((r) -> assertThat(r.status()).isEqualTo(204));
		assertThat(status("HTTP/1.1 2x0 OK")).isEqualTo(-1);
		assertThat(status("HTTP/2 200 OK")).isEqualTo(-1);
		assertThat(status("HTTP/1.0 503")).isEqualTo(503);
		assertThat(status("HTTP/1.1 20")).isEqualTo(-1);
		assertThat(answer("SSH-2.0-OpenSSH_9.2\r\n", 0, false)).isSameAs(Http11.MALFORMED);
	}

	@Test
	void aBodyEndsWhereItsLengthSaysEvenOnAnOpenConnection() {
		Http11.Response response = answer("HTTP/1.1 200 OK\r\nCONTENT-LENGTH: 5\r\n\r\nhello, and more", 1024, false);
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("hello");
		assertThat(response.successful()).isTrue();
		assertThat(answer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", 1024, false)).isNull();
		assertThat(answer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", 1024, true).body()).isEqualTo("hel");
	}

	@Test
	void withoutALengthTheBodyEndsWithTheConnection() {
		assertThat(answer("HTTP/1.1 200 OK\r\n\r\nhello", 1024, false)).isNull();
		assertThat(answer("HTTP/1.1 200 OK\r\n\r\nhello", 1024, true).body()).isEqualTo("hello");
	}

	@Test
	void noContentHasNoBodyWhateverTheHeadSays() {
		Http11.Response response = answer("HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n", 1024, false);
		assertThat(response.status()).isEqualTo(204);
		assertThat(response.body()).isEmpty();
	}

	@Test
	void chunksAreJoinedOnceTheConnectionEnds() {
		String answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n";
		assertThat(answer(answer, 1024, false)).isNull();
		assertThat(answer(answer, 1024, true).body()).isEqualTo("hello, world");
		assertThat(answer(answer, 8, true).body()).as("longer than asked").isEmpty();
		assertThat(answer(answer.replace("7\r\n", "zz\r\n"), 1024, true).body()).as("malformed").isEmpty();
	}

	@Test
	void aBodyLongerThanAskedIsEmptyAndAHeadThatNeverEndsIsNoAnswer() {
		assertThat(answer("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world", 5, false).body()).isEmpty();
		assertThat(answer("HTTP/1.1 200 OK\r\n\r\n" + "x".repeat(Http11.MAX_HEAD + 20), 5, false).body())
			.as("stops reading once it cannot fit").isEmpty();
		assertThat(answer("HTTP/1.1 200 OK\r\nX: " + "y".repeat(Http11.MAX_HEAD), 5, false)).isSameAs(Http11.MALFORMED);
		assertThat(answer("HTTP/1.1 500 Oops\r\n\r\n", 5, true).successful()).isFalse();
	}

	private static Http11.Response answer(String text, int maxBody, boolean ended) {
		byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
		return Http11.response(bytes, bytes.length, maxBody, ended);
	}

	private static int status(String line) {
		byte[] bytes = line.getBytes(StandardCharsets.ISO_8859_1);
		return Http11.status(bytes, bytes.length);
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.ISO_8859_1);
	}

}
