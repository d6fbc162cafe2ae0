package io.github.startuptelemetry.export.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.internal.otlp.metrics.MetricsRequestMarshaler;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import io.github.startuptelemetry.contract.MetricNames;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BoundedRequests}: what the starter's own SDK exports goes in requests of at most
 * {@link BoundedRequests#MAX_REQUEST_BYTES} as OTLP/protobuf encodes them (the SDK's own
 * marshaller measures them here), every span and every point once.
 */
class BoundedRequestsTest {

	private static final Resource RESOURCE = Resource.getDefault()
		.merge(Resource.create(Attributes.of(io.opentelemetry.api.common.AttributeKey.stringKey("service.name"), "supervisor")));

	@Test
	void aFailedFleetsSpansGoInRequestsOfAtMostAMebibyteEachOnce() {
		List<SpanData> spans = spans(20_000, 1500);
		Requests<SpanData> requests = new Requests<>();
		SpanExporter bounded = BoundedRequests.spans(requests.spanExporter());

		assertThat(bounded.export(spans).join(10, TimeUnit.SECONDS).isSuccess()).isTrue();

		assertThat(requests.sent).hasSizeGreaterThan(20);
		for (List<SpanData> request : requests.sent) {
			long encoded = TraceRequestMarshaler.create(request).getBinarySerializedSize();
			assertThat(encoded).isLessThanOrEqualTo(BoundedRequests.MAX_REQUEST_BYTES);
			long estimated = BoundedRequests.overhead(RESOURCE, request.get(0).getInstrumentationScopeInfo())
					+ request.stream().mapToLong(BoundedRequests::bytes).sum();
			assertThat(estimated).as("the estimate is an upper bound").isGreaterThanOrEqualTo(encoded);
		}
		assertThat(requests.sent.stream().flatMap(List::stream).toList()).containsExactlyElementsOf(spans);
	}

	@Test
	void aSmallBatchIsOneRequestAsItCame() {
		List<SpanData> spans = spans(512, 100);
		Requests<SpanData> requests = new Requests<>();
		BoundedRequests.spans(requests.spanExporter()).export(spans);
		assertThat(requests.sent).singleElement().isSameAs(spans);
	}

	@Test
	void aHistogramTaggedPerServerGoesInPartsOfAtMostAMebibyteEachPointOnce() {
		InMemoryMetricReader reader = InMemoryMetricReader.create();
		try (SdkMeterProvider meters = SdkMeterProvider.builder()
			.setResource(RESOURCE)
			// as the starter's own SDK has it (otel.java.metrics.cardinality.limit)
			.registerMetricReader(reader, (type) -> OwnSdk.METRIC_SERIES)
			.build()) {
			DoubleHistogram histogram = meters.get("startup-telemetry")
				.histogramBuilder(MetricNames.STARTUP_DURATION)
				.setUnit("ms")
				.setExplicitBucketBoundariesAdvice(List.of(100.0, 250.0, 500.0, 1000.0, 2500.0, 5000.0, 10000.0,
						30000.0, 60000.0, 120000.0, 300000.0, 600000.0, 1800000.0, 3600000.0))
				.build();
			int servers = 20_000;
			for (int i = 0; i < servers; i++) {
				histogram.record(1000 + i, Attributes.builder()
					.put("nemo.gym.server.name", "model-" + i)
					.put("nemo.gym.server.type", "model")
					.put("nemo.gym.startup.outcome", "ready")
					.build());
			}
			Collection<MetricData> metrics = reader.collectAllMetrics();
			assertThat(MetricsRequestMarshaler.create(metrics).getBinarySerializedSize())
				.as("one request would be")
				.isGreaterThan(4 << 20);
			Requests<MetricData> requests = new Requests<>();

			assertThat(BoundedRequests.metrics(requests.metricExporter()).export(metrics).join(10, TimeUnit.SECONDS)
				.isSuccess()).isTrue();

			assertThat(requests.sent).hasSizeGreaterThan(4);
			for (List<MetricData> request : requests.sent) {
				assertThat((long) MetricsRequestMarshaler.create(request).getBinarySerializedSize())
					.isLessThanOrEqualTo(BoundedRequests.MAX_REQUEST_BYTES);
			}
			List<MetricData> parts = requests.sent.stream().flatMap(List::stream).toList();
			assertThat(parts).allSatisfy((part) -> assertThat(part.getName()).isEqualTo(MetricNames.STARTUP_DURATION));
			assertThat(parts.stream().mapToLong((part) -> part.getHistogramData().getPoints().size()).sum())
				.isEqualTo(servers);
			assertThat(parts.stream().flatMap((part) -> part.getHistogramData().getPoints().stream())
				.map((point) -> point.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey("nemo.gym.server.name")))
				.distinct()
				.count()).isEqualTo(servers);
		}
	}

	@Test
	void theOwnSdkLimitsWhatASpanCarriesAndLetsAHistogramHaveASeriesPerServerUnlessTheProcessSaidOtherwise() {
		ExportSettings settings = ExportSettings.of(new MockEnvironment(), Map.of());
		Map<String, String> defaults = OwnSdk.properties(DefaultConfigProperties.createFromMap(Map.of()), settings);
		assertThat(defaults).containsEntry("otel.span.attribute.value.length.limit", "8192")
			.containsEntry("otel.span.event.count.limit", "16")
			.containsEntry("otel.java.metrics.cardinality.limit", "100000");
		Map<String, String> own = OwnSdk.properties(DefaultConfigProperties.createFromMap(Map.of(
				"otel.attribute.value.length.limit", "100", "otel.span.event.count.limit", "3",
				"otel.java.metrics.cardinality.limit", "50")), settings);
		assertThat(own).doesNotContainKeys("otel.span.attribute.value.length.limit", "otel.span.event.count.limit",
				"otel.java.metrics.cardinality.limit");
	}

	/** Spans as a failed fleet ends them: each with its reason of {@code reasonChars} and its name. */
	private static List<SpanData> spans(int count, int reasonChars) {
		InMemorySpanExporter memory = InMemorySpanExporter.create();
		try (SdkTracerProvider provider = SdkTracerProvider.builder()
			.setResource(RESOURCE)
			.addSpanProcessor(SimpleSpanProcessor.create(memory))
			.build()) {
			Tracer tracer = provider.get("startup-telemetry");
			for (int i = 0; i < count; i++) {
				Span span = tracer.spanBuilder("gym.startup.server")
					.setAttribute("nemo.gym.server.name", "model-" + i)
					.setAttribute("nemo.gym.startup.outcome", "timeout")
					.startSpan();
				span.setStatus(StatusCode.ERROR, "é".repeat(reasonChars));
				span.end();
			}
			// taken before the provider closes: closing it empties the exporter
			return memory.getFinishedSpanItems();
		}
	}

	/** An exporter that keeps each request it was given. */
	private static final class Requests<T> {

		final List<List<T>> sent = new CopyOnWriteArrayList<>();

		@SuppressWarnings("unchecked")
		SpanExporter spanExporter() {
			return new SpanExporter() {

				@Override
				public CompletableResultCode export(Collection<SpanData> spans) {
					Requests.this.sent.add((List<T>) asList(spans));
					return CompletableResultCode.ofSuccess();
				}

				@Override
				public CompletableResultCode flush() {
					return CompletableResultCode.ofSuccess();
				}

				@Override
				public CompletableResultCode shutdown() {
					return CompletableResultCode.ofSuccess();
				}

			};
		}

		@SuppressWarnings("unchecked")
		MetricExporter metricExporter() {
			return new MetricExporter() {

				@Override
				public CompletableResultCode export(Collection<MetricData> metrics) {
					Requests.this.sent.add((List<T>) asList(metrics));
					return CompletableResultCode.ofSuccess();
				}

				@Override
				public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
					return AggregationTemporality.CUMULATIVE;
				}

				@Override
				public CompletableResultCode flush() {
					return CompletableResultCode.ofSuccess();
				}

				@Override
				public CompletableResultCode shutdown() {
					return CompletableResultCode.ofSuccess();
				}

			};
		}

		/** The list itself when it is one (so that a batch passed on whole is the same object), else a copy. */
		private static List<?> asList(Collection<?> items) {
			return (items instanceof List<?> list) ? list : new ArrayList<>(items);
		}

	}

}
