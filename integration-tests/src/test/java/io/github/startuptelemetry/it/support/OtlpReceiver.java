package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import java.util.zip.GZIPInputStream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.Span;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real OTLP/HTTP receiver on loopback: decodes {@code /v1/traces} and {@code /v1/metrics}
 * protobuf bodies (gzip or not) with the official {@code io.opentelemetry.proto} classes and
 * keeps what arrived ({@link OtlpArrivals}), for tests to assert on.
 */
public final class OtlpReceiver implements AutoCloseable, BeforeEachCallback, AfterEachCallback {

	private static final HexFormat HEX = HexFormat.of();

	private HttpServer server;

	private final OtlpArrivals arrivals = new OtlpArrivals();

	private int answerStatus = 200;

	private Duration answerDelay = Duration.ZERO;

	/** A receiver for {@code @RegisterExtension}: listening during each test, stopped after it. */
	public OtlpReceiver() {
	}

	/** A receiver listening now, until closed. */
	public static OtlpReceiver start() throws IOException {
		OtlpReceiver receiver = new OtlpReceiver();
		receiver.listen();
		return receiver;
	}

	/**
	 * A collector that misbehaves: it keeps what arrives, like any receiver, but answers every
	 * export {@code status} (500: a failing collector) after {@code delay} (a slow one).
	 */
	public static OtlpReceiver answering(int status, Duration delay) throws IOException {
		OtlpReceiver receiver = new OtlpReceiver();
		receiver.answerStatus = status;
		receiver.answerDelay = delay;
		receiver.listen();
		return receiver;
	}

	private void listen() throws IOException {
		this.arrivals.clear();
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/v1/traces", this::traces);
		this.server.createContext("/v1/metrics", this::metrics);
		this.server.setExecutor(Executors.newFixedThreadPool(4, (r) -> {
			Thread thread = new Thread(r, "otlp-receiver");
			thread.setDaemon(true);
			return thread;
		}));
		this.server.start();
	}

	@Override
	public void beforeEach(ExtensionContext context) throws IOException {
		listen();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		close();
	}

	public String baseUrl() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	public String tracesEndpoint() {
		return baseUrl() + "/v1/traces";
	}

	public String metricsEndpoint() {
		return baseUrl() + "/v1/metrics";
	}

	public List<ReceivedSpan> spans() {
		return this.arrivals.spans();
	}

	public List<ResourceMetrics> metrics() {
		return this.arrivals.metrics();
	}

	/**
	 * Wait until the spans received so far satisfy {@code until}; fail with what did arrive
	 * when {@code timeout} passes first.
	 */
	public List<ReceivedSpan> awaitSpans(Predicate<List<ReceivedSpan>> until, Duration timeout)
			throws InterruptedException {
		return this.arrivals.awaitSpans(until, timeout);
	}

	/** Wait for at least {@code count} spans named {@code name}. */
	public List<ReceivedSpan> awaitSpansNamed(String name, int count, Duration timeout) throws InterruptedException {
		return this.arrivals.awaitSpansNamed(name, count, timeout);
	}

	private void traces(HttpExchange exchange) throws IOException {
		try (exchange) {
			String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
			ExportTraceServiceRequest request = (contentType != null && contentType.startsWith("application/json"))
					? OtlpJson.traces(body(exchange)) : ExportTraceServiceRequest.parseFrom(body(exchange));
			this.arrivals.traces(request, exchange.getRequestHeaders().getFirst("Authorization"));
			respond(exchange, ExportTraceServiceResponse.getDefaultInstance().toByteArray());
		}
		this.arrivals.signal();
	}

	private void metrics(HttpExchange exchange) throws IOException {
		try (exchange) {
			this.arrivals.metrics(ExportMetricsServiceRequest.parseFrom(body(exchange)));
			respond(exchange, ExportMetricsServiceResponse.getDefaultInstance().toByteArray());
		}
		this.arrivals.signal();
	}

	private static InputStream body(HttpExchange exchange) throws IOException {
		InputStream in = exchange.getRequestBody();
		return "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
				? new GZIPInputStream(in) : in;
	}

	private void respond(HttpExchange exchange, byte[] body) throws IOException {
		try {
			// the collector's behaviour under test, not a wait for anything
			Thread.sleep(this.answerDelay.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (this.answerStatus != 200) {
			exchange.sendResponseHeaders(this.answerStatus, -1);
			return;
		}
		exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
		exchange.sendResponseHeaders(200, body.length);
		exchange.getResponseBody().write(body);
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	/**
	 * One span as it arrived, with its resource.
	 *
	 * @param span the decoded span
	 * @param resource the resource it was exported with
	 * @param authorization the Authorization header of the request that carried it, or null
	 * @param receivedEpochNs when the request that carried it arrived (epoch ns, this host's clock)
	 */
	public record ReceivedSpan(Span span, Resource resource, String authorization, long receivedEpochNs) {

		public String name() {
			return this.span.getName();
		}

		public String traceId() {
			return HEX.formatHex(this.span.getTraceId().toByteArray());
		}

		public String spanId() {
			return HEX.formatHex(this.span.getSpanId().toByteArray());
		}

		/** The parent span id, or the empty string for a root. */
		public String parentSpanId() {
			return HEX.formatHex(this.span.getParentSpanId().toByteArray());
		}

		public long startNs() {
			return this.span.getStartTimeUnixNano();
		}

		public Span.SpanKind kind() {
			return this.span.getKind();
		}

		public long endNs() {
			return this.span.getEndTimeUnixNano();
		}

		/** A span attribute as text, or null. */
		public String attribute(String key) {
			return value(this.span.getAttributesList(), key);
		}

		/** A resource attribute as text, or null. */
		public String resourceAttribute(String key) {
			return value(this.resource.getAttributesList(), key);
		}

		/** A resource attribute as it came on the wire (its type included), or null. */
		public AnyValue resourceValue(String key) {
			return this.resource.getAttributesList()
				.stream()
				.filter((kv) -> kv.getKey().equals(key))
				.map(KeyValue::getValue)
				.findFirst()
				.orElse(null);
		}

		public String serviceName() {
			return resourceAttribute("service.name");
		}

		public boolean isError() {
			return this.span.getStatus().getCode() == io.opentelemetry.proto.trace.v1.Status.StatusCode.STATUS_CODE_ERROR;
		}

		private static String value(List<KeyValue> attributes, String key) {
			return attributes.stream()
				.filter((kv) -> kv.getKey().equals(key))
				.map((kv) -> text(kv.getValue()))
				.findFirst()
				.orElse(null);
		}

		private static String text(AnyValue value) {
			return switch (value.getValueCase()) {
				case STRING_VALUE -> value.getStringValue();
				case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
				case INT_VALUE -> Long.toString(value.getIntValue());
				case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
				case ARRAY_VALUE -> value.getArrayValue().getValuesList().stream().map(ReceivedSpan::text).toList()
					.toString();
				default -> value.toString();
			};
		}

	}

}
