package io.github.startuptelemetry.export.internal;

import java.util.Collection;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * The starter's own SDK's exporters, each reporting its outcomes to an {@link ExportLog} instead
 * of the SDK's logging (a stack trace per failed export).
 */
final class QuietExporters {

	private QuietExporters() {
	}

	static SpanExporter spans(SpanExporter exporter, ExportLog log) {
		return new Spans(exporter, log);
	}

	static MetricExporter metrics(MetricExporter exporter, ExportLog log) {
		return new Metrics(exporter, log);
	}

	private static CompletableResultCode observed(CompletableResultCode result, ExportLog log) {
		result.whenComplete(() -> {
			if (result.isSuccess()) {
				log.succeeded();
			}
			else {
				log.failed(result.getFailureThrowable());
			}
		});
		return result;
	}

	private static final class Spans implements SpanExporter {

		private final SpanExporter delegate;

		private final ExportLog log;

		Spans(SpanExporter delegate, ExportLog log) {
			this.delegate = delegate;
			this.log = log;
		}

		@Override
		public CompletableResultCode export(Collection<SpanData> spans) {
			return observed(this.delegate.export(spans), this.log);
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
			return "Quiet" + this.delegate;
		}

	}

	private static final class Metrics implements MetricExporter {

		private final MetricExporter delegate;

		private final ExportLog log;

		Metrics(MetricExporter delegate, ExportLog log) {
			this.delegate = delegate;
			this.log = log;
		}

		@Override
		public CompletableResultCode export(Collection<MetricData> metrics) {
			return observed(this.delegate.export(metrics), this.log);
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
			return "Quiet" + this.delegate;
		}

	}

}
