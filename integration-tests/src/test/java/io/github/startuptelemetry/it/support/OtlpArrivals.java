package io.github.startuptelemetry.it.support;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;

/**
 * What an OTLP receiver ({@link OtlpReceiver} over HTTP, {@link OtlpGrpcReceiver} over gRPC)
 * was sent, decoded: its spans, each with its resource, and its resource metrics; and the waits
 * on them.
 */
final class OtlpArrivals {

	private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();

	private final List<ResourceMetrics> metrics = new CopyOnWriteArrayList<>();

	void clear() {
		this.spans.clear();
		this.metrics.clear();
	}

	/** Keep a request's spans, arrived now (this host's wall clock, the spans' clock too on one host); how many. */
	int traces(ExportTraceServiceRequest request, String authorization) {
		Instant now = Instant.now();
		long receivedEpochNs = now.getEpochSecond() * 1_000_000_000L + now.getNano();
		List<ReceivedSpan> received = new ArrayList<>();
		for (ResourceSpans resourceSpans : request.getResourceSpansList()) {
			for (ScopeSpans scopeSpans : resourceSpans.getScopeSpansList()) {
				for (Span span : scopeSpans.getSpansList()) {
					received.add(new ReceivedSpan(span, resourceSpans.getResource(), authorization, receivedEpochNs));
				}
			}
		}
		this.spans.addAll(received);
		return received.size();
	}

	void metrics(ExportMetricsServiceRequest request) {
		this.metrics.addAll(request.getResourceMetricsList());
	}

	/** Wake whoever waits: call after what arrived was kept. */
	void signal() {
		synchronized (this) {
			notifyAll();
		}
	}

	List<ReceivedSpan> spans() {
		return List.copyOf(this.spans);
	}

	List<ResourceMetrics> metrics() {
		return List.copyOf(this.metrics);
	}

	List<ReceivedSpan> awaitSpans(Predicate<List<ReceivedSpan>> until, Duration timeout) throws InterruptedException {
		await(() -> until.test(spans()), timeout,
				() -> "Spans did not arrive within " + timeout + "; received: "
						+ spans().stream().map(ReceivedSpan::name).toList());
		return spans();
	}

	List<ReceivedSpan> awaitSpansNamed(String name, int count, Duration timeout) throws InterruptedException {
		return awaitSpans((all) -> all.stream().filter((s) -> s.name().equals(name)).count() >= count, timeout);
	}

	/** Wait until a metric named each of {@code names} arrived. */
	List<ResourceMetrics> awaitMetricsNamed(List<String> names, Duration timeout) throws InterruptedException {
		await(() -> metricNames().containsAll(names), timeout,
				() -> "Metrics " + names + " did not arrive within " + timeout + "; received: " + metricNames());
		return metrics();
	}

	private List<String> metricNames() {
		return metrics().stream()
			.flatMap((resource) -> resource.getScopeMetricsList().stream())
			.flatMap((scope) -> scope.getMetricsList().stream())
			.map(Metric::getName)
			.distinct()
			.toList();
	}

	private void await(BooleanSupplier until, Duration timeout, Supplier<String> failure) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		synchronized (this) {
			while (!until.getAsBoolean()) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					throw new AssertionError(failure.get());
				}
				wait(Math.max(1, left / 1_000_000));
			}
		}
	}

}
