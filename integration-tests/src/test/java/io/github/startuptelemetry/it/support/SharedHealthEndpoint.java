package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * One health endpoint on loopback for a whole fleet of servers that answer nothing themselves (a
 * {@code sleep}): every server's {@code health-url} names it, so that each is ready at its first
 * probe, or never while it answers 503. A thousand servers cost one listener and two threads. It
 * counts the requests it answered.
 */
public final class SharedHealthEndpoint implements AutoCloseable {

	/** The path it answers; anything else is 404 (a timeline fetched beside it finds none). */
	public static final String PATH = "/health";

	private static final byte[] UP = "{\"status\":\"UP\"}".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] OUT_OF_SERVICE = "{\"status\":\"OUT_OF_SERVICE\"}".getBytes(StandardCharsets.US_ASCII);

	private final HttpServer server;

	private final ExecutorService threads;

	private final AtomicLong requests = new AtomicLong();

	private volatile boolean healthy;

	private SharedHealthEndpoint(HttpServer server, ExecutorService threads, boolean healthy) {
		this.server = server;
		this.threads = threads;
		this.healthy = healthy;
	}

	/** Listening now on a free loopback port, answering 200 when {@code healthy}, else 503. */
	public static SharedHealthEndpoint start(boolean healthy) throws IOException {
		// a backlog as deep as a large fleet's first probes, all at once
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
		ExecutorService threads = Executors.newFixedThreadPool(2, (task) -> {
			Thread thread = new Thread(task, "shared-health");
			thread.setDaemon(true);
			return thread;
		});
		SharedHealthEndpoint endpoint = new SharedHealthEndpoint(server, threads, healthy);
		server.createContext("/", endpoint::answer);
		server.setExecutor(threads);
		server.start();
		return endpoint;
	}

	/** What every server's {@code health-url} is set to: the same URL for all. */
	public String healthUrl() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + PATH;
	}

	/** From now on answer 200 ({@code true}) or 503. */
	public void healthy(boolean healthy) {
		this.healthy = healthy;
	}

	/** The health requests answered so far. */
	public long requests() {
		return this.requests.get();
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			if (!PATH.equals(exchange.getRequestURI().getPath())) {
				exchange.sendResponseHeaders(404, -1);
				return;
			}
			this.requests.incrementAndGet();
			boolean up = this.healthy;
			byte[] body = up ? UP : OUT_OF_SERVICE;
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(up ? 200 : 503, body.length);
			exchange.getResponseBody().write(body);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.threads.shutdownNow();
	}

}
