package io.github.startuptelemetry.export.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.Data;
import io.opentelemetry.sdk.metrics.data.HistogramData;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * The starter's own SDK's exporters with every request kept within {@value #MAX_REQUEST_BYTES}
 * bytes (as OTLP/protobuf encodes it, over-estimated), however many spans a batch has or points a
 * histogram: a batch is split into requests sent side by side. A Collector refuses an OTLP/gRPC
 * message over 4 MiB and an OTLP/HTTP request over 20 MiB, and a failed fleet of thousands, or
 * a histogram tagged per server, would otherwise go as one.
 */
final class BoundedRequests {

	/** A quarter of what a Collector's OTLP/gRPC receiver takes: room for what the estimate misses. */
	static final long MAX_REQUEST_BYTES = 1L << 20;

	/** An upper bound on a field's tag and length prefix. */
	private static final int FIELD = 6;

	/** An upper bound on a span's fixed fields: its ids, times, kind, flags and their tags. */
	private static final int SPAN_FIXED = 96;

	/** An upper bound on a histogram point's fixed fields: its times, count, sum, min, max and their tags. */
	private static final int POINT_FIXED = 64;

	private BoundedRequests() {
	}

	static SpanExporter spans(SpanExporter exporter) {
		return new Spans(exporter);
	}

	static MetricExporter metrics(MetricExporter exporter) {
		return new Metrics(exporter);
	}

	/**
	 * {@code items} in order, in batches of at most {@code maxBytes} as {@code bytes} counts them
	 * (one item larger than that goes alone), each batch beginning with {@code overhead} bytes.
	 */
	static <T> List<List<T>> batches(Collection<T> items, ToLongFunction<T> bytes, long overhead, long maxBytes) {
		List<List<T>> batches = new ArrayList<>();
		List<T> batch = new ArrayList<>();
		long size = overhead;
		for (T item : items) {
			long itemBytes = bytes.applyAsLong(item);
			if (!batch.isEmpty() && size + itemBytes > maxBytes) {
				batches.add(batch);
				batch = new ArrayList<>();
				size = overhead;
			}
			batch.add(item);
			size += itemBytes;
		}
		if (!batch.isEmpty()) {
			batches.add(batch);
		}
		return batches;
	}

	/** A span's encoded size, over-estimated: its name, attributes, events, links and status. */
	static long bytes(SpanData span) {
		long[] traceState = { FIELD };
		span.getSpanContext().getTraceState().forEach((key, value) -> traceState[0] += 2 + utf8(key) + utf8(value));
		long bytes = SPAN_FIXED + utf8(span.getName()) + attributes(span.getAttributes()) + traceState[0];
		for (EventData event : span.getEvents()) {
			bytes += FIELD + 16 + utf8(event.getName()) + attributes(event.getAttributes());
		}
		for (LinkData link : span.getLinks()) {
			bytes += FIELD + 48 + attributes(link.getAttributes());
		}
		return bytes + FIELD + 8 + utf8(span.getStatus().getDescription());
	}

	/** A histogram point's encoded size, over-estimated: its attributes, buckets and exemplars. */
	static long bytes(HistogramPointData point) {
		return POINT_FIXED + attributes(point.getAttributes()) + FIELD + 10L * point.getCounts().size() + FIELD
				+ 8L * point.getBoundaries().size() + point.getExemplars().size() * (64L + FIELD);
	}

	/** What a request repeats for each resource and scope: counted once per batch. */
	static long overhead(Resource resource, InstrumentationScopeInfo scope) {
		return 4 * FIELD + attributes(resource.getAttributes()) + utf8(String.valueOf(resource.getSchemaUrl()))
				+ utf8(scope.getName()) + utf8(String.valueOf(scope.getVersion()))
				+ utf8(String.valueOf(scope.getSchemaUrl())) + attributes(scope.getAttributes());
	}

	static long attributes(Attributes attributes) {
		long[] bytes = { 0 };
		attributes.forEach((key, value) -> bytes[0] += attribute(key, value));
		return bytes[0];
	}

	private static long attribute(AttributeKey<?> key, Object value) {
		long bytes = 3 * FIELD + utf8(key.getKey());
		if (value instanceof List<?> list) {
			bytes += FIELD;
			for (Object element : list) {
				bytes += 2 * FIELD + ((element instanceof String text) ? utf8(text) : 10);
			}
			return bytes;
		}
		return bytes + ((value instanceof String text) ? utf8(text) : 10);
	}

	/** The length of {@code text} in UTF-8 (three bytes for any char past ASCII: an upper bound). */
	static long utf8(String text) {
		long bytes = text.length();
		for (int i = 0; i < text.length(); i++) {
			if (text.charAt(i) >= 0x80) {
				bytes += 2;
			}
		}
		return bytes;
	}

	private static long overhead(SpanData span) {
		return overhead(span.getResource(), span.getInstrumentationScopeInfo());
	}

	/** Sends each batch of an export on its own, all at once: the export succeeds when every one did. */
	private static <T> CompletableResultCode exportEach(List<List<T>> batches,
			Function<List<T>, CompletableResultCode> export) {
		List<CompletableResultCode> results = new ArrayList<>(batches.size());
		for (List<T> batch : batches) {
			results.add(export.apply(batch));
		}
		return CompletableResultCode.ofAll(results);
	}

	private static final class Spans implements SpanExporter {

		private final SpanExporter delegate;

		Spans(SpanExporter delegate) {
			this.delegate = delegate;
		}

		@Override
		public CompletableResultCode export(Collection<SpanData> spans) {
			if (spans.isEmpty()) {
				return this.delegate.export(spans);
			}
			// the starter's spans share one resource and one scope
			long overhead = overhead(spans.iterator().next());
			List<List<SpanData>> batches = batches(spans, BoundedRequests::bytes, overhead, MAX_REQUEST_BYTES);
			return (batches.size() == 1) ? this.delegate.export(spans) : exportEach(batches, this.delegate::export);
		}

		@Override
		public CompletableResultCode flush() {
			return this.delegate.flush();
		}

		@Override
		public CompletableResultCode shutdown() {
			return this.delegate.shutdown();
		}

		@Override
		public String toString() {
			return "Bounded" + this.delegate;
		}

	}

	/**
	 * A histogram with more points than fit one request (one per server, tagged by name) goes in
	 * parts, each the same metric with some of its points; anything else goes as it is.
	 */
	private static final class Metrics implements MetricExporter {

		private final MetricExporter delegate;

		Metrics(MetricExporter delegate) {
			this.delegate = delegate;
		}

		@Override
		public CompletableResultCode export(Collection<MetricData> metrics) {
			List<MetricData> parts = new ArrayList<>();
			long overhead = 0;
			for (MetricData metric : metrics) {
				overhead = Math.max(overhead, overhead(metric.getResource(), metric.getInstrumentationScopeInfo()));
				if (metric.getType() != MetricDataType.HISTOGRAM) {
					parts.add(metric);
					continue;
				}
				HistogramData histogram = metric.getHistogramData();
				long metricOverhead = overhead + 4 * FIELD + utf8(metric.getName()) + utf8(metric.getDescription())
						+ utf8(metric.getUnit());
				List<List<HistogramPointData>> pieces = batches(histogram.getPoints(), BoundedRequests::bytes,
						metricOverhead, MAX_REQUEST_BYTES);
				if (pieces.size() <= 1) {
					parts.add(metric);
					continue;
				}
				for (List<HistogramPointData> piece : pieces) {
					parts.add(new Part(metric, new HistogramPart(histogram.getAggregationTemporality(), piece)));
				}
			}
			long requestOverhead = overhead;
			List<List<MetricData>> batches = batches(parts,
					(metric) -> 4 * FIELD + utf8(metric.getName()) + utf8(metric.getDescription())
							+ utf8(metric.getUnit()) + pointsBytes(metric),
					requestOverhead, MAX_REQUEST_BYTES);
			return (batches.size() <= 1) ? this.delegate.export(metrics) : exportEach(batches, this.delegate::export);
		}

		/** Histograms' points as counted above; any other metric's a generous guess per point. */
		private static long pointsBytes(MetricData metric) {
			if (metric.getType() == MetricDataType.HISTOGRAM) {
				long bytes = 0;
				for (HistogramPointData point : metric.getHistogramData().getPoints()) {
					bytes += bytes(point);
				}
				return bytes;
			}
			long bytes = 0;
			for (PointData point : metric.getData().getPoints()) {
				bytes += POINT_FIXED + attributes(point.getAttributes()) + point.getExemplars().size() * (64L + FIELD);
			}
			return bytes;
		}

		@Override
		public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
			return this.delegate.getAggregationTemporality(instrumentType);
		}

		@Override
		public Aggregation getDefaultAggregation(InstrumentType instrumentType) {
			return this.delegate.getDefaultAggregation(instrumentType);
		}

		@Override
		public MemoryMode getMemoryMode() {
			return this.delegate.getMemoryMode();
		}

		@Override
		public CompletableResultCode flush() {
			return this.delegate.flush();
		}

		@Override
		public CompletableResultCode shutdown() {
			return this.delegate.shutdown();
		}

		@Override
		public String toString() {
			return "Bounded" + this.delegate;
		}

	}

	/** Some of a histogram's points. */
	private record HistogramPart(AggregationTemporality temporality,
			Collection<HistogramPointData> points) implements HistogramData {

		@Override
		public AggregationTemporality getAggregationTemporality() {
			return this.temporality;
		}

		@Override
		public Collection<HistogramPointData> getPoints() {
			return this.points;
		}

	}

	/** A metric with some of its points: everything else as the whole has it. */
	private record Part(MetricData whole, Data<?> part) implements MetricData {

		@Override
		public Resource getResource() {
			return this.whole.getResource();
		}

		@Override
		public InstrumentationScopeInfo getInstrumentationScopeInfo() {
			return this.whole.getInstrumentationScopeInfo();
		}

		@Override
		public String getName() {
			return this.whole.getName();
		}

		@Override
		public String getDescription() {
			return this.whole.getDescription();
		}

		@Override
		public String getUnit() {
			return this.whole.getUnit();
		}

		@Override
		public MetricDataType getType() {
			return this.whole.getType();
		}

		@Override
		public Data<?> getData() {
			return this.part;
		}

	}

}
