package io.github.startuptelemetry.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.timeline.internal.ReadyCallback;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * The server's side of the clock read and the ready post, against a real HTTP server on
 * loopback: whether the connection was opened before ready or not, one POST arrives, with the
 * token, and its chunked body is the callback.
 */
class SupervisorCallbackTest {

	private static final ServerTimeline TIMELINE = new ServerTimeline("a", null, false, 7, null, null, 10, 30,
			List.of(new Stage("main_start", 10, 30)), List.of(), List.of());

	private final CompletableFuture<Received> received = new CompletableFuture<>();

	private final List<String> requests = new ArrayList<>();

	private HttpServer http;

	private SupervisorCallback callback;

	@BeforeEach
	void start() throws IOException {
		this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
		this.http.createContext("/", (exchange) -> {
			try (exchange) {
				synchronized (this.requests) {
					this.requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
				}
				if (exchange.getRequestURI().getPath().equals("/ready")) {
					String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
					this.received.complete(new Received(exchange.getRequestHeaders().getFirst("Authorization"),
							exchange.getRequestHeaders().getFirst("Transfer-Encoding"), body));
				}
				exchange.sendResponseHeaders(204, -1);
			}
		});
		this.http.start();
		List<String> ignored = new ArrayList<>();
		this.callback = SupervisorCallback.fromEnv(Map.of(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL,
				"http://127.0.0.1:" + this.http.getAddress().getPort(), TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_TOKEN,
				"s3cret", TelemetryEnv.TELEMETRY_STARTUP_SERVER_NAME, "a"), ignored);
		assertThat(ignored).isEmpty();
	}

	@AfterEach
	void stop() {
		this.http.stop(0);
	}

	@Test
	void armedBeforeReadyTheHeadersGoAtTheAnnouncementAndTheBodyFollows() throws Exception {
		this.callback.prepare();
		this.callback.arm(SupervisorCallbackTest::callback);
		this.callback.announce();
		assertReceivedOnce();
	}

	@Test
	void announcedBeforeArmedStillPostsOnce() throws Exception {
		this.callback.prepare();
		this.callback.announce();
		this.callback.arm(SupervisorCallbackTest::callback);
		this.callback.announce();
		assertReceivedOnce();
	}

	@Test
	void onlyTheFirstArmingSaysAnything() throws Exception {
		this.callback.prepare();
		this.callback.arm(SupervisorCallbackTest::callback);
		this.callback.arm(() -> new ReadyCallback("other", 8, "h", 1, 31, null, TIMELINE));
		this.callback.announce();
		assertReceivedOnce();
	}

	@Test
	void draftedBeforeReadyTheBodyIsTheWholeDocumentByteForByte() throws Exception {
		Stage mainStart = new Stage("main_start", 10, 20);
		ServerTimeline refreshed = new ServerTimeline("a", null, false, 7, null, null, 10, 20, List.of(mainStart),
				List.of("X: ignored"), List.of(new StepTiming("spring.beans.instantiate", "b", "a.B", 11, 19, 8, List.of())));
		ReadyCallback ready = new ReadyCallback("a", 7, "h", 8123, 31, null, new ServerTimeline("a", null, false, 7,
				null, null, 10, 30, List.of(mainStart, new Stage("application_ready", 20, 30)), refreshed.ignoredEnv(),
				refreshed.steps()));
		CountDownLatch drafting = new CountDownLatch(1);
		this.callback.prepare();
		this.callback.draft(() -> {
			drafting.countDown();
			return new ReadyCallback("a", 7, "h", 8123, 21, null, refreshed);
		});
		// armed once the draft is under way, so that the body is finished from it
		assertThat(drafting.await(30, TimeUnit.SECONDS)).isTrue();
		this.callback.arm(() -> ready);
		this.callback.announce();
		assertThat(this.received.get(30, TimeUnit.SECONDS).body()).isEqualTo(JsonText.compact(ready.write()));
	}

	private void assertReceivedOnce() throws Exception {
		Received received = this.received.get(30, TimeUnit.SECONDS);
		assertThat(received.authorization()).isEqualTo("Bearer s3cret");
		assertThat(received.transferEncoding()).isEqualToIgnoringCase("chunked");
		assertThat(ReadyCallback.read(JsonText.parseObject(received.body()))).contains(callback());
		synchronized (this.requests) {
			// the clock first, read by the callback's own thread, then the one post
			assertThat(this.requests).containsExactly("GET /clock", "POST /ready");
		}
	}

	private static ReadyCallback callback() {
		return new ReadyCallback("a", 7, "h", 8123, 30, null, TIMELINE);
	}

	private record Received(String authorization, String transferEncoding, String body) {
	}

}
