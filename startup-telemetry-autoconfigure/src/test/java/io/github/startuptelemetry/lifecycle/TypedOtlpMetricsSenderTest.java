package io.github.startuptelemetry.lifecycle;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.registry.otlp.OtlpConfig;
import io.micrometer.registry.otlp.OtlpMeterRegistry;
import io.micrometer.registry.otlp.OtlpMetricsSender;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.contract.MetricNames;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Micrometer OTLP registry publishing through {@link TypedOtlpMetricsSender}: what reaches
 * the HTTP sender has Gym's types, and only where Gym has them.
 */
class TypedOtlpMetricsSenderTest {

	private final List<OtlpMetricsSender.Request> sent = new ArrayList<>();

	@Test
	void theWorkerTagIsABoolAndLensIntsAreIntsOnTheWire() throws Exception {
		Map<String, String> config = Map.of("otlp.resourceAttributes",
				"nv.dl.rank=3,nv.dl.world_size= +8 ,process.pid=42,nv.dl.local_rank=x,nemo.run.id=007");
		OtlpMeterRegistry registry = OtlpMeterRegistry.builder((OtlpConfig) config::get)
			.metricsSender(new TypedOtlpMetricsSender(this.sent::add))
			.build();
		summary(registry, MetricNames.STAGE_DURATION, "false").record(120);
		summary(registry, "other.metric", "true").record(1);
		registry.close();

		assertThat(this.sent).isNotEmpty();
		OtlpMetricsSender.Request last = this.sent.get(this.sent.size() - 1);
		assertThat(last.getAddress()).isEqualTo("http://localhost:4318/v1/metrics");
		ExportMetricsServiceRequest request = ExportMetricsServiceRequest.parseFrom(last.getMetricsData());
		Map<String, AnyValue> resource = values(request.getResourceMetrics(0).getResource().getAttributesList());
		assertThat(resource.get("nv.dl.rank").getIntValue()).isEqualTo(3);
		assertThat(resource.get("nv.dl.world_size").getIntValue()).isEqualTo(8);
		assertThat(resource.get("process.pid").getIntValue()).isEqualTo(42);
		assertThat(resource.get("nv.dl.local_rank").getStringValue()).isEqualTo("x");
		assertThat(resource.get("nemo.run.id").getStringValue()).isEqualTo("007");
		Map<String, AnyValue> stage = pointAttributes(request, MetricNames.STAGE_DURATION);
		assertThat(stage.get("nemo.gym.server.worker").getValueCase()).isEqualTo(AnyValue.ValueCase.BOOL_VALUE);
		assertThat(stage.get("nemo.gym.server.worker").getBoolValue()).isFalse();
		assertThat(stage.get("nemo.gym.server.name").getStringValue()).isEqualTo("model-0");
		// a metric Gym does not type keeps its string
		assertThat(pointAttributes(request, "other.metric").get("nemo.gym.server.worker").getStringValue())
			.isEqualTo("true");
	}

	@Test
	void aPayloadThatCannotBeTypedGoesOutAsItCame() throws Exception {
		byte[] garbage = { 0x0a, (byte) 0xff, 0x01 };
		OtlpMetricsSender.Request request = OtlpMetricsSender.Request.builder(garbage)
			.address("http://collector/v1/metrics")
			.headers(Map.of("authorization", "Bearer s"))
			.build();
		new TypedOtlpMetricsSender(this.sent::add).send(request);
		assertThat(this.sent).containsExactly(request);
	}

	@Test
	void aPayloadWithNothingToTypeIsSentUnchanged() throws Exception {
		byte[] payload = ExportMetricsServiceRequest.getDefaultInstance().toByteArray();
		OtlpMetricsSender.Request request = OtlpMetricsSender.Request.builder(payload).address("http://c").build();
		new TypedOtlpMetricsSender(this.sent::add).send(request);
		assertThat(this.sent).containsExactly(request);
	}

	private static DistributionSummary summary(OtlpMeterRegistry registry, String name, String worker) {
		return DistributionSummary.builder(name)
			.tag("nemo.gym.server.name", "model-0")
			.tag("nemo.gym.server.worker", worker)
			.serviceLevelObjectives(MetricNames.BOUNDARIES_MS)
			.register(registry);
	}

	private static Map<String, AnyValue> pointAttributes(ExportMetricsServiceRequest request, String metric) {
		Metric found = request.getResourceMetricsList()
			.stream()
			.flatMap((resource) -> resource.getScopeMetricsList().stream())
			.flatMap((scope) -> scope.getMetricsList().stream())
			.filter((candidate) -> candidate.getName().equals(metric))
			.findFirst()
			.orElseThrow();
		assertThat(found.getDataCase()).isEqualTo(Metric.DataCase.HISTOGRAM);
		return values(found.getHistogram().getDataPoints(0).getAttributesList());
	}

	private static Map<String, AnyValue> values(List<KeyValue> attributes) {
		return attributes.stream().collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue));
	}

}
