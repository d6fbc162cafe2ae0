package io.github.startuptelemetry.fleet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.internal.Http11;
import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.timeline.internal.ReadyCallback;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

/**
 * The callback endpoint in process, over real HTTP on loopback: only a request with the run's
 * token gets anything, only a bounded, well-formed callback reaches the run, and what the run
 * says of it becomes the status.
 */
class ReadinessCallbackServerTest {

	private static final ServerTimeline TIMELINE = new ServerTimeline("a", null, false, 7, null, null, 10, 30,
			List.of(new Stage("main_start", 10, 30)), List.of(), List.of());

	private final HttpClient http = HttpClient.newHttpClient();

	private final List<ReadyCallback> received = new CopyOnWriteArrayList<>();

	private final List<String> clockAsked = new CopyOnWriteArrayList<>();

	private final List<Long> receivedAt = new CopyOnWriteArrayList<>();

	private ReadinessCallbackServer server;

	private String url;

	private String token;

	@BeforeEach
	void start() throws IOException {
		this.server = ReadinessCallbackServer.start("127.0.0.1", 0, this::decide,
				this.clockAsked::add);
		this.url = this.server.serverEnv().get(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL);
		this.token = this.server.serverEnv().get(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_TOKEN);
	}

	@AfterEach
	void stop() {
		this.server.stop();
	}

	private ReadinessCallbackServer.Verdict decide(ReadyCallback callback, InetAddress from, long receivedNs) {
		if (!callback.server().equals("a")) {
			return ReadinessCallbackServer.Verdict.UNKNOWN;
		}
		if (!this.received.isEmpty()) {
			return ReadinessCallbackServer.Verdict.SETTLED;
		}
		this.received.add(callback);
		this.receivedAt.add(receivedNs);
		return ReadinessCallbackServer.Verdict.ACCEPTED;
	}

	@Test
	void listensOnLoopbackWithALongRandomTokenPerRun() throws IOException {
		assertThat(this.url).startsWith("http://127.0.0.1:");
		assertThat(this.token).hasSizeGreaterThanOrEqualTo(43);
		ReadinessCallbackServer other = ReadinessCallbackServer.start("127.0.0.1", 0,
				this::decide, (name) -> {
				});
		try {
			assertThat(other.serverEnv().get(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_TOKEN)).isNotEqualTo(this.token);
		}
		finally {
			other.stop();
		}
	}

	@Test
	void aBurstOfAWholeFleetsCallsWaitsInTheListenQueueAndEveryOneIsAnswered() throws Exception {
		int fleet = 1000;
		List<String> asked = new CopyOnWriteArrayList<>();
		ReadinessCallbackServer burst = ReadinessCallbackServer.start("127.0.0.1", 0, this::decide, asked::add, fleet);
		List<Socket> sockets = new ArrayList<>();
		try {
			URI url = URI.create(burst.serverEnv().get(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL));
			String token = burst.serverEnv().get(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_TOKEN);
			// its listen queue holds the fleet, as far as the kernel lets it (ss shows a listener's as its Send-Q)
			Integer backlog = listenBacklog(url.getPort());
			if (backlog != null) {
				assertThat(backlog).isEqualTo(Math.min(fleet, somaxconn()));
			}
			// every server connects before any of them asks: a burst the one accepting thread has to catch up with
			for (int i = 0; i < fleet; i++) {
				Socket socket = new Socket();
				socket.connect(new InetSocketAddress(url.getHost(), url.getPort()), 60_000);
				socket.setSoTimeout(60_000);
				sockets.add(socket);
			}
			for (int i = 0; i < fleet; i++) {
				OutputStream out = sockets.get(i).getOutputStream();
				out.write(Http11.requestHead("GET", "/clock?server=model-" + i, Http11.host(url),
						Http11.header("Authorization", "Bearer " + token)));
				out.flush();
			}
			for (Socket socket : sockets) {
				byte[] answer = socket.getInputStream().readNBytes(12);
				assertThat(new String(answer, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
			}
			assertThat(asked).hasSize(fleet);
		}
		finally {
			for (Socket socket : sockets) {
				socket.close();
			}
			burst.stop();
		}
	}

	/** The listen queue's length of the loopback listener on {@code port}, as {@code ss} shows it; {@code null} without {@code ss}. */
	private static Integer listenBacklog(int port) throws Exception {
		try {
			Process ss = new ProcessBuilder("ss", "-ltnH", "sport = :" + port).redirectErrorStream(true).start();
			String line = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (ss.waitFor() != 0 || !line.startsWith("LISTEN")) {
				return null;
			}
			return Integer.parseInt(line.split("\\s+")[2]);
		}
		catch (IOException ex) {
			return null;
		}
	}

	/** The kernel's cap on a listen queue (read by line: {@code Files.readString} gets a short read of a proc file). */
	private static int somaxconn() throws IOException {
		try (BufferedReader reader = Files.newBufferedReader(Path.of("/proc/sys/net/core/somaxconn"))) {
			return Integer.parseInt(reader.readLine().strip());
		}
	}

	@Test
	void theClockAnswersTheSupervisorsWallClockAndNotesWhoAsked() throws Exception {
		long before = WallClock.nowNs();
		HttpResponse<String> answer = get("/clock?server=model-0", this.token);
		long after = WallClock.nowNs();
		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(Long.parseLong(answer.body())).isBetween(before, after);
		assertThat(this.clockAsked).containsExactly("model-0");
		assertThat(get("/clock", this.token).statusCode()).isEqualTo(200);
		assertThat(this.clockAsked).containsExactly("model-0");
	}

	@Test
	void withoutTheTokenNothingIsAnsweredOrNoted() throws Exception {
		assertThat(get("/clock?server=a", "wrong").statusCode()).isEqualTo(401);
		assertThat(get("/clock?server=a", null).statusCode()).isEqualTo(401);
		assertThat(post(ready("a"), this.token + "x").statusCode()).isEqualTo(401);
		assertThat(post(ready("a"), null).statusCode()).isEqualTo(401);
		assertThat(this.clockAsked).isEmpty();
		assertThat(this.received).isEmpty();
	}

	@Test
	void aWrongMethodIsRejected() throws Exception {
		assertThat(get("/ready", this.token).statusCode()).isEqualTo(405);
		assertThat(this.received).isEmpty();
	}

	@Test
	void anOversizedOrMalformedBodyNeverReachesTheRun() throws Exception {
		String oversized = "{\"server\":\"a\",\"pad\":\"" + "x".repeat(256 * 1024) + "\"}";
		assertThat(statusOrTooLarge(oversized)).isEqualTo(413);
		assertThat(post("{not json", this.token).statusCode()).isEqualTo(400);
		assertThat(post("{\"server\":\"a\"}", this.token).statusCode()).as("no timeline").isEqualTo(400);
		assertThat(post("[1,2]", this.token).statusCode()).isEqualTo(400);
		assertThat(this.received).isEmpty();
	}

	@Test
	void theRunsVerdictIsTheStatus() throws Exception {
		assertThat(post(ready("nobody"), this.token).statusCode()).isEqualTo(404);
		assertThat(post(ready("a"), this.token).statusCode()).isEqualTo(204);
		assertThat(post(ready("a"), this.token).statusCode()).isEqualTo(409);
		assertThat(this.received).singleElement().satisfies((callback) -> {
			assertThat(callback.server()).isEqualTo("a");
			assertThat(callback.port()).isEqualTo(8123);
			assertThat(callback.timeline()).isEqualTo(TIMELINE);
		});
	}

	@Test
	void aReadyCallSentAsHeadersThenAChunkedBodyCountsFromWhenItArrived() throws Exception {
		long before = WallClock.nowNs();
		try (Socket socket = new Socket(URI.create(this.url).getHost(), URI.create(this.url).getPort())) {
			OutputStream out = socket.getOutputStream();
			out.write(("POST /ready HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + this.token
					+ "\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
				.getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			byte[] body = ready("a").getBytes(StandardCharsets.UTF_8);
			out.write((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
			out.write(body);
			out.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
			long after = WallClock.nowNs();
			assertThat(answer).startsWith("HTTP/1.1 204");
			assertThat(this.received).singleElement().satisfies((callback) -> assertThat(callback.timeline()).isEqualTo(TIMELINE));
			assertThat(this.receivedAt).singleElement().satisfies((at) -> assertThat(at).isBetween(before, after));
		}
	}

	@Test
	void aChunkedReadyCallWithAWrongTokenIsRejectedBeforeItsBodyIsRead() throws Exception {
		try (Socket socket = new Socket(URI.create(this.url).getHost(), URI.create(this.url).getPort())) {
			socket.getOutputStream()
				.write(("POST /ready HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + this.token + "x"
						+ "\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n")
					.getBytes(StandardCharsets.ISO_8859_1));
			// no body at all: the answer comes from the headers alone
			String answer = new String(socket.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1);
			assertThat(answer).isEqualTo("HTTP/1.1 401");
		}
		assertThat(this.received).isEmpty();
	}

	@Test
	void eachRequestKnowsWhenItWasHandedOverNotWhenAThreadTookItUp() {
		Queue<Runnable> waiting = new ArrayDeque<>();
		ReadinessCallbackServer.Arrivals arrivals = new ReadinessCallbackServer.Arrivals(waiting::add);
		List<Long> seen = new ArrayList<>();
		long before = WallClock.nowNs();
		arrivals.execute(() -> seen.add(arrivals.arrivedNs()));
		long handedOver = WallClock.nowNs();
		arrivals.execute(() -> seen.add(arrivals.arrivedNs()));
		long second = WallClock.nowNs();
		waiting.forEach(Runnable::run);
		assertThat(seen).hasSize(2);
		assertThat(seen.get(0)).isBetween(before, handedOver);
		assertThat(seen.get(1)).isBetween(handedOver, second);
		assertThat(arrivals.arrivedNs()).as("outside a request: now").isGreaterThanOrEqualTo(second);
	}

	@Test
	void aServerNameFromTheQueryIsDecodedAndBounded() {
		assertThat(ReadinessCallbackServer.serverParam("x=1&server=model%2D0")).isEqualTo("model-0");
		assertThat(ReadinessCallbackServer.serverParam("server=%zz")).isNull();
		assertThat(ReadinessCallbackServer.serverParam(null)).isNull();
		assertThat(ReadinessCallbackServer.serverParam("server=" + "a".repeat(2000))).isNull();
	}

	private static String ready(String name) {
		return JsonText.compact(new ReadyCallback(name, 7, "h", 8123, 30, null, TIMELINE).write());
	}

	private int statusOrTooLarge(String body) throws InterruptedException {
		try {
			return post(body, this.token).statusCode();
		}
		catch (IOException ex) {
			// the endpoint may answer and close before the whole upload is sent
			return 413;
		}
	}

	private HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
		return this.http.send(request(path, token).GET().build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> post(String body, String token) throws IOException, InterruptedException {
		return this.http.send(request("/ready", token).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest.Builder request(String path, String token) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.url + path));
		return (token != null) ? request.header("Authorization", "Bearer " + token) : request;
	}

}
