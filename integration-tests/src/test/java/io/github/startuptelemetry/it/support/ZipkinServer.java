package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The real Zipkin server ({@code io.zipkin:zipkin-server:3.5.1:exec}, fetched by Maven) on
 * 127.0.0.1 and a free port, in-memory storage. Closing it stops it, always.
 */
public final class ZipkinServer implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final JavaProcess process;

	private final int port;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private ZipkinServer(JavaProcess process, int port) {
		this.process = process;
		this.port = port;
	}

	public static ZipkinServer start(Path log) throws Exception {
		int port = Ports.free();
		String jar = System.getProperty("zipkin.server.jar");
		if (jar == null) {
			throw new IllegalStateException("zipkin.server.jar is not set: run the tests through Maven");
		}
		JavaProcess process = JavaProcess.jar(Path.of(jar))
			.jvmArgs("-Xmx256m")
			.args("--armeria.ports[0].port=" + port, "--armeria.ports[0].ip=127.0.0.1",
					"--armeria.ports[0].protocols=http", "--zipkin.storage.type=mem", "--zipkin.self-tracing.enabled=false",
					"--zipkin.collector.scribe.enabled=false")
			.start(log);
		ZipkinServer server = new ZipkinServer(process, port);
		try {
			server.awaitHealthy(Duration.ofSeconds(90));
		}
		catch (Exception | AssertionError ex) {
			server.close();
			throw ex;
		}
		return server;
	}

	/** Where spans go: {@code http://127.0.0.1:P/api/v2/spans}. */
	public String spansEndpoint() {
		return "http://127.0.0.1:" + this.port + "/api/v2/spans";
	}

	public String baseUrl() {
		return "http://127.0.0.1:" + this.port;
	}

	/** The spans of one trace as Zipkin's v2 JSON; empty while Zipkin does not know the trace. */
	public List<Map<String, Object>> trace(String traceId) throws IOException, InterruptedException {
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v2/trace/" + traceId)).build(),
				HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() == 404) {
			return List.of();
		}
		return JSON.readValue(response.body(), new TypeReference<>() {
		});
	}

	/** Wait until the trace holds at least {@code count} spans; fail with what Zipkin has. */
	public List<Map<String, Object>> awaitTrace(String traceId, int count, Duration timeout) throws Exception {
		return awaitTrace(traceId, (spans) -> spans.size() >= count, timeout);
	}

	/** Wait until the trace's spans satisfy {@code until}; fail with what Zipkin has. */
	public List<Map<String, Object>> awaitTrace(String traceId, Predicate<List<Map<String, Object>>> until,
			Duration timeout) throws Exception {
		long deadline = System.nanoTime() + timeout.toNanos();
		List<Map<String, Object>> spans = trace(traceId);
		while (!until.test(spans)) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("Zipkin's trace " + traceId + " is still incomplete after " + timeout + ": "
						+ spans.stream().map((s) -> s.get("name")).toList());
			}
			// Zipkin is another process with no push channel: poll it, bounded by the deadline
			this.process.process().waitFor(100, TimeUnit.MILLISECONDS);
			spans = trace(traceId);
		}
		return spans;
	}

	private void awaitHealthy(Duration timeout) throws Exception {
		this.process.awaitLog("Serving HTTP at", timeout);
	}

	@Override
	public void close() throws InterruptedException {
		this.process.close();
	}

}
