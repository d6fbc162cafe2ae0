package io.github.startuptelemetry.readiness;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class LoopbackRequestTest {

	@ParameterizedTest
	@ValueSource(strings = { "/actuator/health/readiness", "/", "/health?probe=1&x=%20" })
	void absolutePathsWithAQueryAreValid(String path) {
		assertThat(LoopbackRequest.isValidPath(path)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "health", "http://other/", "/a b", "/a\r\nX-Injected: 1", "/a\tb", "/é" })
	void anythingThatCouldBreakOrExtendTheRequestLineIsNot(String path) {
		assertThat(LoopbackRequest.isValidPath(path)).isFalse();
	}

	@Test
	void nullIsNotAPath() {
		assertThat(LoopbackRequest.isValidPath(null)).isFalse();
	}

	@Test
	void getsThePathFromLoopbackAndReturnsTheStatus() throws Exception {
		List<String> seen = new CopyOnWriteArrayList<>();
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/", (exchange) -> {
			seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
					+ exchange.getRequestHeaders().getFirst("User-Agent"));
			byte[] body = "{\"status\":\"OUT_OF_SERVICE\"}".getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(503, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		server.start();
		try {
			int status = LoopbackRequest.get(server.getAddress().getPort(), "/actuator/health/readiness?x=1",
					Duration.ofSeconds(10));
			assertThat(status).isEqualTo(503);
			assertThat(seen).containsExactly("GET /actuator/health/readiness?x=1 startup-telemetry-warm-up");
		}
		finally {
			server.stop(0);
		}
	}

	@Test
	void anAnswerThatIsNotHttpHasNoStatus() throws Exception {
		try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			Thread answering = new Thread(() -> {
				try (Socket socket = server.accept(); OutputStream out = socket.getOutputStream()) {
					out.write("SSH-2.0-OpenSSH\r\n".getBytes(StandardCharsets.US_ASCII));
				}
				catch (IOException ex) {
					// the test fails on the status below
				}
			});
			answering.start();
			assertThat(LoopbackRequest.get(server.getLocalPort(), "/", Duration.ofSeconds(10))).isZero();
			answering.join();
		}
	}

	@Test
	void nothingListeningIsAnIOException() throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		assertThatExceptionOfType(IOException.class)
			.isThrownBy(() -> LoopbackRequest.get(port, "/", Duration.ofSeconds(10)));
	}

}
