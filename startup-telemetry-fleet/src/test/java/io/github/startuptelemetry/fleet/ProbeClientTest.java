package io.github.startuptelemetry.fleet;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.fleet.ProbeClient.Kind;
import io.github.startuptelemetry.fleet.ProbeClient.Reply;

/** {@link ProbeClient}'s plain GET against real sockets and HTTP servers on loopback. */
class ProbeClientTest {

	private static final int WAIT_S = 60;

	private final ProbeLoop loop = new ProbeLoop("probe-client-test");

	private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();

	private HttpServer server;

	@AfterEach
	void stop() throws Exception {
		this.loop.close();
		if (this.server != null) {
			this.server.stop(0);
		}
		for (AutoCloseable closeable : this.open) {
			closeable.close();
		}
	}

	@Test
	void aPortNobodyListensOnIsRefused() throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		assertThat(get("http://127.0.0.1:" + port + "/health", 0).kind()).isEqualTo(Kind.REFUSED);
	}

	@Test
	void aServerThatStartsListeningOnAnAddressProbedBeforeIsFound() throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		String health = "http://127.0.0.1:" + port + "/health";
		ProbeClient client = new ProbeClient(this.loop, Duration.ofSeconds(30));
		assertThat(get(client, health, 0).kind()).isEqualTo(Kind.REFUSED);
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
		this.server.createContext("/health", (exchange) -> {
			exchange.sendResponseHeaders(204, -1);
			exchange.close();
		});
		this.server.start();
		assertThat(get(client, health, 0).status()).isEqualTo(204);
	}

	@Test
	void onlyAnIpAddressIsAnAddressLiteral() {
		assertThat(ProbeClient.isAddressLiteral("127.0.0.1")).isTrue();
		assertThat(ProbeClient.isAddressLiteral("[::1]")).isTrue();
		assertThat(ProbeClient.isAddressLiteral("localhost")).isFalse();
		assertThat(ProbeClient.isAddressLiteral("node-0.cluster")).isFalse();
		assertThat(ProbeClient.isAddressLiteral("10.0.0.1.example")).isFalse();
		assertThat(ProbeClient.isAddressLiteral("")).isFalse();
		assertThat(ProbeClient.isAddressLiteral(null)).isFalse();
	}

	@Test
	void anUnknownHostIsRefusedAndNoError() throws Exception {
		assertThat(get("http://no-such-host.invalid/health", 0).kind()).isEqualTo(Kind.REFUSED);
	}

	@Test
	void aHealthProbeSendsOneSmallRequestAndReadsTheStatus() throws Exception {
		List<String> asked = new CopyOnWriteArrayList<>();
		int port = http((exchange) -> {
			asked.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " host="
					+ exchange.getRequestHeaders().getFirst("Host") + " connection="
					+ exchange.getRequestHeaders().getFirst("Connection"));
			exchange.sendResponseHeaders(503, -1);
			exchange.close();
		});
		Reply reply = get("http://127.0.0.1:" + port + "/actuator/health/readiness?x=1", 0);

		assertThat(reply.kind()).isEqualTo(Kind.ANSWERED);
		assertThat(reply.status()).isEqualTo(503);
		assertThat(reply.ok()).isFalse();
		assertThat(asked).containsExactly(
				"GET /actuator/health/readiness?x=1 host=127.0.0.1:" + port + " connection=close");
	}

	@Test
	void aBodyIsReadWhetherItsLengthIsGivenOrItIsChunked() throws Exception {
		String text = "{\"ready\":true}".repeat(1000);
		int port = http((exchange) -> {
			byte[] body = text.getBytes(StandardCharsets.UTF_8);
			// 0: chunked
			exchange.sendResponseHeaders(200, exchange.getRequestURI().getPath().equals("/chunked") ? 0 : body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});

		Reply sized = get("http://127.0.0.1:" + port + "/sized", 1 << 20);
		Reply chunked = get("http://127.0.0.1:" + port + "/chunked", 1 << 20);

		assertThat(sized.ok()).isTrue();
		assertThat(sized.body()).isEqualTo(text);
		assertThat(chunked.ok()).isTrue();
		assertThat(chunked.body()).isEqualTo(text);
	}

	@Test
	void aBodyLongerThanAskedForIsLeftOut() throws Exception {
		int port = http((exchange) -> {
			byte[] body = "x".repeat(10_000).getBytes(StandardCharsets.US_ASCII);
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		Reply reply = get("http://127.0.0.1:" + port + "/big", 100);

		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.body()).isEmpty();
	}

	@Test
	void anAnswerEndedByClosingTheConnectionIsRead() throws Exception {
		int port = raw("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nhello");
		assertThat(get("http://127.0.0.1:" + port + "/", 1024)).isEqualTo(Reply.of(200, "hello"));
	}

	@Test
	void anAnswerWithoutALengthOnAConnectionKeptOpenIsReadWhenTheTimeIsUp() throws Exception {
		int port = raw("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello", false);
		assertThat(get("http://127.0.0.1:" + port + "/", 1024, Duration.ofMillis(200))).isEqualTo(Reply.of(200, "hello"));
	}

	@Test
	void somethingThatIsNotHttpIsNoAnswer() throws Exception {
		int port = raw("SSH-2.0-OpenSSH_9.2\r\n");
		assertThat(get("http://127.0.0.1:" + port + "/", 0).kind()).isEqualTo(Kind.NO_ANSWER);
	}

	@Test
	void aServerThatAcceptsButNeverAnswersIsNoAnswerAfterTheTimeout() throws Exception {
		ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.open.add(silent);
		assertThat(get("http://127.0.0.1:" + silent.getLocalPort() + "/", 0, Duration.ofMillis(100)).kind())
			.isEqualTo(Kind.NO_ANSWER);
	}

	private Reply get(String uri, int maxBody) throws Exception {
		return get(uri, maxBody, Duration.ofSeconds(30));
	}

	private Reply get(String uri, int maxBody, Duration timeout) throws Exception {
		return get(new ProbeClient(this.loop, timeout), uri, maxBody);
	}

	private Reply get(ProbeClient client, String uri, int maxBody) throws Exception {
		CompletableFuture<Reply> reply = new CompletableFuture<>();
		client.get(URI.create(uri), maxBody, (answer) -> {
			if (this.loop.inLoop()) {
				reply.complete(answer);
			}
			else {
				reply.completeExceptionally(new AssertionError("answered off the loop"));
			}
		});
		return reply.get(WAIT_S, TimeUnit.SECONDS);
	}

	private int http(com.sun.net.httpserver.HttpHandler handler) throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", handler);
		this.server.start();
		return this.server.getAddress().getPort();
	}

	/** A server that reads each request's head, answers {@code answer} and closes the connection. */
	private int raw(String answer) throws IOException {
		return raw(answer, true);
	}

	/** A server that reads each request's head and answers {@code answer}, then closes or holds the connection. */
	private int raw(String answer, boolean close) throws IOException {
		ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.open.add(socket);
		Thread thread = new Thread(() -> {
			try {
				while (true) {
					Socket accepted = socket.accept();
					this.open.add(accepted);
					try (OutputStream out = accepted.getOutputStream()) {
						// read the head first: closing on an unread request would reset the connection
						StringBuilder head = new StringBuilder();
						int c;
						while (head.indexOf("\r\n\r\n") < 0 && (c = accepted.getInputStream().read()) >= 0) {
							head.append((char) c);
						}
						out.write(answer.getBytes(StandardCharsets.US_ASCII));
						out.flush();
						if (close) {
							accepted.close();
						}
						else {
							// held open until the test ends
							accepted.getInputStream().read();
						}
					}
				}
			}
			catch (IOException ex) {
				// closed: the test is over
			}
		});
		thread.setDaemon(true);
		thread.start();
		return socket.getLocalPort();
	}

}
