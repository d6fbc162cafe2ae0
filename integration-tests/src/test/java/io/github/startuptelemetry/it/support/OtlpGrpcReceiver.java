package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.metrics.v1.MetricsServiceGrpc;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.TraceServiceGrpc;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;

/**
 * A real OTLP/gRPC receiver on loopback: grpc-java's server (Netty, shaded) with the trace and
 * metrics services generated in {@code io.opentelemetry.proto}, keeping what arrived as
 * {@link OtlpReceiver} does (the same decoded spans and resource metrics; no authorization
 * header kept), for tests to assert on.
 */
public final class OtlpGrpcReceiver implements AutoCloseable, BeforeEachCallback, AfterEachCallback {

	private final OtlpArrivals arrivals = new OtlpArrivals();

	private Server server;

	/** A receiver for {@code @RegisterExtension}: listening during each test, stopped after it. */
	public OtlpGrpcReceiver() {
	}

	/** A receiver listening now, until closed. */
	public static OtlpGrpcReceiver start() throws IOException {
		OtlpGrpcReceiver receiver = new OtlpGrpcReceiver();
		receiver.listen();
		return receiver;
	}

	private void listen() throws IOException {
		this.arrivals.clear();
		this.server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
			.addService(new Traces(this.arrivals))
			.addService(new Metrics(this.arrivals))
			.build()
			.start();
	}

	@Override
	public void beforeEach(ExtensionContext context) throws IOException {
		listen();
	}

	@Override
	public void afterEach(ExtensionContext context) throws InterruptedException {
		close();
	}

	/** The endpoint an OTLP/gRPC exporter is given: {@code OTEL_EXPORTER_OTLP_ENDPOINT}. */
	public String endpoint() {
		return "http://127.0.0.1:" + this.server.getPort();
	}

	public List<ReceivedSpan> spans() {
		return this.arrivals.spans();
	}

	public List<ResourceMetrics> metrics() {
		return this.arrivals.metrics();
	}

	/** As {@link OtlpReceiver#awaitSpans}. */
	public List<ReceivedSpan> awaitSpans(Predicate<List<ReceivedSpan>> until, Duration timeout)
			throws InterruptedException {
		return this.arrivals.awaitSpans(until, timeout);
	}

	/** Wait for at least {@code count} spans named {@code name}. */
	public List<ReceivedSpan> awaitSpansNamed(String name, int count, Duration timeout) throws InterruptedException {
		return this.arrivals.awaitSpansNamed(name, count, timeout);
	}

	/** Wait until a metric of each of these names arrived. */
	public List<ResourceMetrics> awaitMetricsNamed(List<String> names, Duration timeout) throws InterruptedException {
		return this.arrivals.awaitMetricsNamed(names, timeout);
	}

	@Override
	public void close() throws InterruptedException {
		this.server.shutdownNow();
		this.server.awaitTermination(10, TimeUnit.SECONDS);
	}

	private static final class Traces extends TraceServiceGrpc.TraceServiceImplBase {

		private final OtlpArrivals arrivals;

		Traces(OtlpArrivals arrivals) {
			this.arrivals = arrivals;
		}

		@Override
		public void export(ExportTraceServiceRequest request, StreamObserver<ExportTraceServiceResponse> response) {
			this.arrivals.traces(request, null);
			response.onNext(ExportTraceServiceResponse.getDefaultInstance());
			response.onCompleted();
			this.arrivals.signal();
		}

	}

	private static final class Metrics extends MetricsServiceGrpc.MetricsServiceImplBase {

		private final OtlpArrivals arrivals;

		Metrics(OtlpArrivals arrivals) {
			this.arrivals = arrivals;
		}

		@Override
		public void export(ExportMetricsServiceRequest request, StreamObserver<ExportMetricsServiceResponse> response) {
			this.arrivals.metrics(request);
			response.onNext(ExportMetricsServiceResponse.getDefaultInstance());
			response.onCompleted();
			this.arrivals.signal();
		}

	}

}
