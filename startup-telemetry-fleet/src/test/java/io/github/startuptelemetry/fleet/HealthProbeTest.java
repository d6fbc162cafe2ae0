package io.github.startuptelemetry.fleet;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.fleet.HealthProbe.Answer;

/** {@link HealthProbe} against real sockets and HTTP servers on loopback. */
class HealthProbeTest {

	private static final int WAIT_S = 60;

	private final ProbeLoop loop = new ProbeLoop("probe-test");

	private final List<HttpServer> servers = new CopyOnWriteArrayList<>();

	@AfterEach
	void stop() {
		this.loop.close();
		this.servers.forEach((server) -> server.stop(0));
	}

	@Test
	void inABigFleetEachServerNobodyListensOnWaitsTheMaximumFromItsFirstRefusal() {
		// 400 listen checks a second: 100 servers every 250 ms, but never less often than max-interval
		assertThat(refusedInterval(100)).isEqualTo(40);
	}

	@Test
	void theFewestServersStillProbedAreLookedAtMoreOftenWithinTheFleetsBudget() {
		// 400 listen checks a second: 12 servers every 30 ms, fewer every 10 ms
		assertThat(refusedInterval(12)).isEqualTo(30);
		assertThat(refusedInterval(2)).isEqualTo(10);
	}

	@Test
	void aFleetTooBigForItsBudgetIsProbedNoFasterThanTheBudgetEachServerInTurn() throws Exception {
		// 50 servers that listen but are not ready would each be asked every 10 ms: 5,000 a second
		int servers = 50;
		int budget = 100;
		int probes = 300;
		List<Long> arrivals = new CopyOnWriteArrayList<>();
		Map<String, AtomicInteger> perServer = new ConcurrentHashMap<>();
		int port = http((exchange) -> {
			arrivals.add(System.nanoTime());
			perServer.computeIfAbsent(exchange.getRequestURI().getPath(), (path) -> new AtomicInteger()).incrementAndGet();
			return 503;
		});
		ProbeSettings settings = new ProbeSettings(Duration.ofMillis(10), Duration.ofMillis(40), Duration.ofSeconds(10),
				budget);
		HealthProbe probe = new HealthProbe(new ProbeClient(this.loop, settings.timeout()), this.loop, settings);
		List<CompletableFuture<Boolean>> probings = new ArrayList<>();
		for (int i = 0; i < servers; i++) {
			probings.add(probe.awaitHealthy(URI.create("http://127.0.0.1:" + port + "/server-" + i), () -> arrivals.size() < probes));
		}
		CompletableFuture.allOf(probings.toArray(CompletableFuture[]::new)).get(WAIT_S, TimeUnit.SECONDS);

		// the fleet's slots are 10 ms apart: however fast the box, 300 probes span at least 2.99 s (less what
		// loopback's jitter can move the first and last arrivals, generously)
		List<Long> counted = arrivals.subList(0, probes);
		long spanNs = counted.get(probes - 1) - counted.get(0);
		assertThat(spanNs).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos((probes - 1) * 1000L / budget - 200));
		// and each server had its turn: every one asked, none more than twice as often as another
		assertThat(perServer).hasSize(servers);
		int fewest = perServer.values().stream().mapToInt(AtomicInteger::get).min().getAsInt();
		int most = perServer.values().stream().mapToInt(AtomicInteger::get).max().getAsInt();
		assertThat(most).isLessThanOrEqualTo(2 * fewest);
	}

	@Test
	void anyAnswerButARefusalEvenATimeoutBringsTheIntervalBackToTheInitialOne() {
		HealthProbe probe = probe(Duration.ofSeconds(1));
		assertThat(probe.nextInterval(Answer.NOT_READY, 100)).isEqualTo(10);
	}

	/** The wait after a refusal, with {@code servers} being probed that nobody listens on. */
	private long refusedInterval(int servers) {
		return probe(Duration.ofSeconds(1)).nextInterval(Answer.REFUSED, servers);
	}

	@Test
	void probesUntilTheServerAnswers2xx() throws Exception {
		AtomicInteger requests = new AtomicInteger();
		int port = http((exchange) -> (requests.incrementAndGet() < 3) ? 503 : 204);

		assertThat(probe(Duration.ofSeconds(10)).awaitHealthy(uri(port), () -> true).get(WAIT_S, TimeUnit.SECONDS))
			.isTrue();
		assertThat(requests).hasValue(3);
	}

	@Test
	void aServerThatStartsListeningLaterIsFoundAndAskedOnce() throws Exception {
		int port = freePort();
		AtomicInteger asked = new AtomicInteger();
		AtomicInteger requests = new AtomicInteger();
		HealthProbe probe = probe(Duration.ofSeconds(10));

		boolean healthy = probe.awaitHealthy(uri(port), () -> {
			// two probes find nobody, then the server comes up
			if (asked.incrementAndGet() == 3) {
				http(port, (exchange) -> {
					requests.incrementAndGet();
					return 200;
				});
			}
			return true;
		}).get(WAIT_S, TimeUnit.SECONDS);

		assertThat(healthy).isTrue();
		assertThat(asked).hasValue(3);
		assertThat(requests).hasValue(1);
	}

	@Test
	void onlyAServerNobodyListensOnCountsAgainstTheFleetsBudget() throws Exception {
		int port = freePort();
		List<Integer> unheard = new CopyOnWriteArrayList<>();
		HealthProbe probe = probe(Duration.ofSeconds(10));

		boolean healthy = probe.awaitHealthy(uri(port), () -> {
			unheard.add(probe.unheard());
			if (unheard.size() == 3) {
				http(port, (exchange) -> 200);
			}
			return true;
		}).get(WAIT_S, TimeUnit.SECONDS);

		assertThat(healthy).isTrue();
		assertThat(unheard).containsExactly(1, 1, 1);
		assertThat(probe.unheard()).isZero();
	}

	@Test
	void aServerThatAcceptsButNeverAnswersIsProbedAgainAfterEachTimeout() throws Exception {
		List<Socket> held = new CopyOnWriteArrayList<>();
		try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			Thread acceptor = new Thread(() -> {
				try {
					while (true) {
						held.add(silent.accept());
					}
				}
				catch (IOException ex) {
					// closed: the test is over
				}
			});
			acceptor.start();
			boolean healthy = probe(Duration.ofMillis(100))
				.awaitHealthy(uri(silent.getLocalPort()), () -> held.size() < 4)
				.get(WAIT_S, TimeUnit.SECONDS);
			assertThat(healthy).isFalse();
			// at least four requests, each timed out
			assertThat(held).hasSizeGreaterThanOrEqualTo(4);
		}
		finally {
			for (Socket socket : held) {
				socket.close();
			}
		}
	}

	@Test
	void stopsAsSoonAsToldWithoutAsking() throws Exception {
		AtomicInteger requests = new AtomicInteger();
		int port = http((exchange) -> requests.incrementAndGet());

		assertThat(probe(Duration.ofSeconds(10)).awaitHealthy(uri(port), () -> false).get(WAIT_S, TimeUnit.SECONDS))
			.isFalse();
		assertThat(requests).hasValue(0);
	}

	@Test
	void aClosedLoopEndsTheProbingInsteadOfLeavingItHanging() throws Exception {
		this.loop.close();
		assertThat(probe(Duration.ofSeconds(10)).awaitHealthy(uri(freePort()), () -> true).get(WAIT_S, TimeUnit.SECONDS))
			.isFalse();
	}

	private HealthProbe probe(Duration timeout) {
		ProbeSettings settings = new ProbeSettings(Duration.ofMillis(10), Duration.ofMillis(40), timeout);
		return new HealthProbe(new ProbeClient(this.loop, timeout), this.loop, settings);
	}

	private int http(Status status) throws IOException {
		return http(0, status);
	}

	/** An HTTP server on loopback answering every request with {@code status}'s code. */
	private int http(int port, Status status) {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
			server.createContext("/", (exchange) -> {
				exchange.sendResponseHeaders(status.of(exchange), -1);
				exchange.close();
			});
			server.start();
			this.servers.add(server);
			return server.getAddress().getPort();
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	private static URI uri(int port) {
		return URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness");
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	@FunctionalInterface
	private interface Status {

		int of(com.sun.net.httpserver.HttpExchange exchange);

	}

}
