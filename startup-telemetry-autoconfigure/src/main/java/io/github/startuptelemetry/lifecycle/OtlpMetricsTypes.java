package io.github.startuptelemetry.lifecycle;

import java.util.Set;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.contract.ResourceAttributes;
import io.github.startuptelemetry.tracing.internal.TypedResource;

/**
 * Gives one OTLP metrics payload of Micrometer's, whose attributes are all strings, the types NeMo
 * Gym and nemo-lens export: lens's int resource attributes ({@link ResourceAttributes#INT_TYPED},
 * as {@link TypedResource} does for traces) and Gym's bool tags ({@link MetricNames#BOOL_TAGS});
 * everything else is left as it came.
 */
final class OtlpMetricsTypes {

	private OtlpMetricsTypes() {
	}

	/** The payload, typed; the same bytes when nothing needed typing. */
	static byte[] typed(byte[] payload) throws InvalidProtocolBufferException {
		ExportMetricsServiceRequest.Builder request = ExportMetricsServiceRequest.parseFrom(payload).toBuilder();
		boolean changed = false;
		for (ResourceMetrics.Builder resource : request.getResourceMetricsBuilderList()) {
			for (KeyValue.Builder attribute : resource.getResourceBuilder().getAttributesBuilderList()) {
				changed |= typeInt(attribute);
			}
			for (ScopeMetrics.Builder scope : resource.getScopeMetricsBuilderList()) {
				for (Metric.Builder metric : scope.getMetricsBuilderList()) {
					Set<String> bools = MetricNames.BOOL_TAGS.get(metric.getName());
					if (bools != null && metric.hasHistogram()) {
						for (HistogramDataPoint.Builder point : metric.getHistogramBuilder().getDataPointsBuilderList()) {
							for (KeyValue.Builder attribute : point.getAttributesBuilderList()) {
								changed |= bools.contains(attribute.getKey()) && typeBool(attribute);
							}
						}
					}
				}
			}
		}
		return changed ? request.build().toByteArray() : payload;
	}

	private static boolean typeInt(KeyValue.Builder attribute) {
		if (!ResourceAttributes.INT_TYPED.contains(attribute.getKey()) || !attribute.getValue().hasStringValue()) {
			return false;
		}
		Long number = TypedResource.integer(attribute.getValue().getStringValue());
		if (number == null) {
			return false;
		}
		attribute.setValue(AnyValue.newBuilder().setIntValue(number));
		return true;
	}

	private static boolean typeBool(KeyValue.Builder attribute) {
		String value = attribute.getValue().hasStringValue() ? attribute.getValue().getStringValue() : null;
		if (!"true".equals(value) && !"false".equals(value)) {
			return false;
		}
		attribute.setValue(AnyValue.newBuilder().setBoolValue(Boolean.parseBoolean(value)));
		return true;
	}

}
