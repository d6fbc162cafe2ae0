package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Decodes an OTLP/HTTP JSON trace export (ids in hex, 64-bit ints as strings, as the OTLP
 * spec's JSON encoding has them) into the protobuf request, so the receiver treats JSON and
 * protobuf exporters alike. Only what a span carries: resource, spans, their ids, names, kind,
 * times and string, bool, int and double attributes.
 */
final class OtlpJson {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private OtlpJson() {
	}

	static ExportTraceServiceRequest traces(InputStream body) throws IOException {
		JsonNode root = MAPPER.readTree(body);
		ExportTraceServiceRequest.Builder request = ExportTraceServiceRequest.newBuilder();
		for (JsonNode resourceSpans : root.path("resourceSpans")) {
			ResourceSpans.Builder resource = ResourceSpans.newBuilder()
				.setResource(Resource.newBuilder().addAllAttributes(attributes(resourceSpans.path("resource"))));
			for (JsonNode scopeSpans : resourceSpans.path("scopeSpans")) {
				ScopeSpans.Builder scope = ScopeSpans.newBuilder();
				for (JsonNode span : scopeSpans.path("spans")) {
					scope.addSpans(Span.newBuilder()
						.setTraceId(id(span.path("traceId").asString()))
						.setSpanId(id(span.path("spanId").asString()))
						.setParentSpanId(id(span.path("parentSpanId").asString("")))
						.setName(span.path("name").asString())
						.setKindValue(span.path("kind").asInt(0))
						.setStartTimeUnixNano(Long.parseLong(span.path("startTimeUnixNano").asString("0")))
						.setEndTimeUnixNano(Long.parseLong(span.path("endTimeUnixNano").asString("0")))
						.addAllAttributes(attributes(span)));
				}
				resource.addScopeSpans(scope);
			}
			request.addResourceSpans(resource);
		}
		return request.build();
	}

	private static Iterable<KeyValue> attributes(JsonNode owner) {
		List<KeyValue> attributes = new ArrayList<>();
		for (JsonNode attribute : owner.path("attributes")) {
			JsonNode value = attribute.path("value");
			AnyValue.Builder any = AnyValue.newBuilder();
			if (value.has("stringValue")) {
				any.setStringValue(value.path("stringValue").asString());
			}
			else if (value.has("boolValue")) {
				any.setBoolValue(value.path("boolValue").asBoolean());
			}
			else if (value.has("intValue")) {
				any.setIntValue(Long.parseLong(value.path("intValue").asString()));
			}
			else if (value.has("doubleValue")) {
				any.setDoubleValue(value.path("doubleValue").asDouble());
			}
			attributes.add(KeyValue.newBuilder().setKey(attribute.path("key").asString()).setValue(any).build());
		}
		return attributes;
	}

	private static ByteString id(String hex) {
		return (hex == null || hex.isEmpty()) ? ByteString.EMPTY : ByteString.copyFrom(HexFormat.of().parseHex(hex));
	}

}
