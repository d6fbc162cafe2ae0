package io.github.startuptelemetry.it.support;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * keeps what arrived ({@link OtlpArrivals}), for tests to assert on, with the size of every request
 * ({@link #requests()}).
 */
public final class OtlpReceiver implements AutoCloseable, BeforeEachCallback, AfterEachCallback {

	/**
	 * An OpenTelemetry Collector's default {@code max_request_body_size} for OTLP/HTTP, 20 MiB
	 * (its {@code confighttp}: applied to the body as sent and once decompressed).
	 */
	public static final long COLLECTOR_MAX_REQUEST_BYTES = 20L << 20;

	private static final HexFormat HEX = HexFormat.of();

	private HttpServer server;

	private final OtlpArrivals arrivals = new OtlpArrivals();

	private int answerStatus = 200;

	private Duration answerDelay = Duration.ZERO;

	/** The largest body kept, as sent and as decompressed; a larger one is answered 413 and dropped. */
	private long maxRequestBytes = Long.MAX_VALUE;

	private final List<Request> requests = new CopyOnWriteArrayList<>();

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

	/**
	 * A receiver with a Collector's request limit: a body over {@code maxRequestBytes}, as sent
	 * or once decompressed, is answered 413 and its spans or metrics are dropped, as an
	 * OpenTelemetry Collector's OTLP/HTTP receiver does beyond its {@code max_request_body_size}
	 * ({@link #COLLECTOR_MAX_REQUEST_BYTES} by default). Its size is still recorded.
	 */
	public static OtlpReceiver limitedTo(long maxRequestBytes) throws IOException {
		OtlpReceiver receiver = new OtlpReceiver();
		receiver.maxRequestBytes = maxRequestBytes;
		receiver.listen();
		return receiver;
	}

	private void listen() throws IOException {
		this.arrivals.clear();
		this.requests.clear();
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

	/** Every export request that arrived, in order, kept or refused: what a collector would have to take. */
	public List<Request> requests() {
		return List.copyOf(this.requests);
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
			// when the request arrived, on this host's wall clock (the spans' clock too, on one host)
			long receivedEpochNs = nowEpochNs();
			Body body = body(exchange);
			if (refusedOrAborted(exchange, body, receivedEpochNs)) {
				return;
			}
			String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
			ExportTraceServiceRequest request = (contentType != null && contentType.startsWith("application/json"))
					? OtlpJson.traces(body.stream()) : ExportTraceServiceRequest.parseFrom(body.stream());
			int received = this.arrivals.traces(request, exchange.getRequestHeaders().getFirst("Authorization"));
			this.requests.add(new Request(exchange.getRequestURI().getPath(), body.sentBytes(), body.bytes(),
					received, this.answerStatus, receivedEpochNs));
			respond(exchange, ExportTraceServiceResponse.getDefaultInstance().toByteArray());
		}
		this.arrivals.signal();
	}

	private void metrics(HttpExchange exchange) throws IOException {
		try (exchange) {
			long receivedEpochNs = nowEpochNs();
			Body body = body(exchange);
			if (refusedOrAborted(exchange, body, receivedEpochNs)) {
				return;
			}
			ExportMetricsServiceRequest request = ExportMetricsServiceRequest.parseFrom(body.stream());
			this.arrivals.metrics(request);
			this.requests.add(new Request(exchange.getRequestURI().getPath(), body.sentBytes(), body.bytes(), 0,
					this.answerStatus, receivedEpochNs));
			respond(exchange, ExportMetricsServiceResponse.getDefaultInstance().toByteArray());
		}
		this.arrivals.signal();
	}

	private static long nowEpochNs() {
		java.time.Instant now = java.time.Instant.now();
		return now.getEpochSecond() * 1_000_000_000L + now.getNano();
	}

	/**
	 * Answer a body over the limit 413, as a Collector does, recording its size; record one its
	 * sender gave up on before its end (a timeout) as {@link Request#ABORTED}; whether it was either.
	 */
	private boolean refusedOrAborted(HttpExchange exchange, Body body, long receivedEpochNs) throws IOException {
		if (!body.tooLarge() && body.complete()) {
			return false;
		}
		this.requests.add(new Request(exchange.getRequestURI().getPath(), body.sentBytes(), body.bytes(), 0,
				body.complete() ? 413 : Request.ABORTED, receivedEpochNs));
		if (body.complete()) {
			exchange.sendResponseHeaders(413, -1);
		}
		return true;
	}

	/**
	 * The request's body, decompressed, read whole up to the limit; beyond it only counted (as sent
	 * and decompressed), never held, so that a request of gigabytes costs this JVM no memory.
	 */
	private Body body(HttpExchange exchange) throws IOException {
		CountingStream sent = new CountingStream(exchange.getRequestBody());
		InputStream in = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
				? new GZIPInputStream(sent) : sent;
		ByteArrayOutputStream kept = new ByteArrayOutputStream();
		byte[] buffer = new byte[64 * 1024];
		long total = 0;
		try {
			for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
				total += read;
				if (total <= this.maxRequestBytes && sent.count <= this.maxRequestBytes) {
					kept.write(buffer, 0, read);
				}
			}
		}
		catch (IOException ex) {
			// the sender closed the connection before the body's end
			return new Body(new byte[0], sent.count, total, false, false);
		}
		boolean tooLarge = total > this.maxRequestBytes || sent.count > this.maxRequestBytes;
		return new Body(tooLarge ? new byte[0] : kept.toByteArray(), sent.count, total, tooLarge, true);
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
	 * One export request as it arrived.
	 *
	 * @param path {@code /v1/traces} or {@code /v1/metrics}
	 * @param sentBytes its body as sent (compressed, when it was)
	 * @param bytes its body decompressed: the protobuf (or JSON) message
	 * @param spans the spans it carried and this receiver kept (0 when refused, and for metrics)
	 * @param status what it was answered, or {@link #ABORTED}
	 * @param receivedEpochNs when it arrived (epoch ns, this host's clock)
	 */
	public record Request(String path, long sentBytes, long bytes, int spans, int status, long receivedEpochNs) {

		/** The status of a request its sender gave up on before the body's end: its sizes are what came. */
		public static final int ABORTED = -1;

		public boolean traces() {
			return this.path.endsWith("/v1/traces");
		}

		public boolean refused() {
			return this.status >= 400;
		}

		public boolean aborted() {
			return this.status == ABORTED;
		}

	}

	/** A request's body, decompressed, with its sizes; not complete when its sender gave up first. */
	private record Body(byte[] message, long sentBytes, long bytes, boolean tooLarge, boolean complete) {

		InputStream stream() {
			return new ByteArrayInputStream(this.message);
		}

	}

	/** Counts the bytes read through it. */
	private static final class CountingStream extends FilterInputStream {

		long count;

		CountingStream(InputStream in) {
			super(in);
		}

		@Override
		public int read() throws IOException {
			int read = super.read();
			if (read >= 0) {
				this.count++;
			}
			return read;
		}

		@Override
		public int read(byte[] bytes, int offset, int length) throws IOException {
			int read = super.read(bytes, offset, length);
			if (read > 0) {
				this.count += read;
			}
			return read;
		}

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
