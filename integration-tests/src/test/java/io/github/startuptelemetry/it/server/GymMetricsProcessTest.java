package io.github.startuptelemetry.it.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server's {@code gym.server.startup_stage_duration_ms} as it reaches an OTLP collector: a
 * histogram in {@code ms} with NeMo Gym's 14 explicit bucket boundaries and Gym's attributes, typed
 * as Gym's are ({@code nemo.gym.server.worker} a bool), on a resource typed as lens types it.
 */
class GymMetricsProcessTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	private static final List<Double> BOUNDARIES = List.of(100.0, 250.0, 500.0, 1000.0, 2500.0, 5000.0, 10000.0,
			30000.0, 60000.0, 120000.0, 300000.0, 600000.0, 1800000.0, 3600000.0);

	@TempDir
	Path tmp;

	@RegisterExtension
	final OtlpReceiver receiver = new OtlpReceiver();

	@Test
	void stageHistogramIsRecordedAsGymRecordsIt() throws Exception {
		try (JavaProcess server = JavaProcess.jar(SampleJars.server())
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", this.receiver.baseUrl())
			.args("--server.port=" + Ports.free(), "--sample.model-loader.duration=100ms",
					"--sample.model-loader.warmup=10ms")
			.start(this.tmp.resolve("server.log"))) {
			server.awaitLog("Startup of 'sample-server'", TIMEOUT);
			// stopping publishes the metrics once more
			server.terminate();
			server.awaitExit(TIMEOUT);
		}
		List<ResourceMetrics> resources = this.receiver.metrics();
		// the metrics' resource is typed as the spans' is: lens's ints are ints (rank 0 of 1, as Gym)
		assertThat(resources).isNotEmpty().allSatisfy((resource) -> {
			Map<String, AnyValue> attributes = resource.getResource()
				.getAttributesList()
				.stream()
				.collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue));
			assertThat(attributes.get("nv.dl.rank").getValueCase()).isEqualTo(AnyValue.ValueCase.INT_VALUE);
			assertThat(attributes.get("nv.dl.rank").getIntValue()).isZero();
			assertThat(attributes.get("nv.dl.world_size").getIntValue()).isEqualTo(1);
			assertThat(attributes.get("process.pid").getValueCase()).isEqualTo(AnyValue.ValueCase.INT_VALUE);
		});
		List<Metric> metrics = resources.stream()
			.flatMap((resource) -> resource.getScopeMetricsList().stream())
			.flatMap((scope) -> scope.getMetricsList().stream())
			.filter((metric) -> metric.getName().equals("gym.server.startup_stage_duration_ms"))
			.toList();
		assertThat(metrics).isNotEmpty().allSatisfy((metric) -> {
			assertThat(metric.getDataCase()).isEqualTo(Metric.DataCase.HISTOGRAM);
			assertThat(metric.getUnit()).isEqualTo("ms");
			assertThat(metric.getHistogram().getDataPointsList()).isNotEmpty().allSatisfy((point) -> {
				assertThat(point.getExplicitBoundsList()).isEqualTo(BOUNDARIES);
				assertThat(point.getBucketCountsCount()).isEqualTo(BOUNDARIES.size() + 1);
				Map<String, AnyValue> attributes = attributes(point);
				assertThat(attributes).containsKeys("nemo.gym.startup.stage", "nemo.gym.server.name",
						"nemo.gym.server.worker")
					.doesNotContainKey("nemo.gym.server.type");
				assertThat(attributes.get("nemo.gym.server.name").getStringValue()).isEqualTo("sample-server");
				// a bool, as Gym records it (Micrometer's tag is a string, typed on the way out)
				assertThat(attributes.get("nemo.gym.server.worker").getValueCase())
					.isEqualTo(AnyValue.ValueCase.BOOL_VALUE);
				assertThat(attributes.get("nemo.gym.server.worker").getBoolValue()).isFalse();
				assertThat(attributes.get("nemo.gym.server.name").getValueCase())
					.isEqualTo(AnyValue.ValueCase.STRING_VALUE);
				assertThat(attributes.get("nemo.gym.startup.stage").getValueCase())
					.isEqualTo(AnyValue.ValueCase.STRING_VALUE);
			});
		});
		assertThat(metrics.stream()
			.flatMap((metric) -> metric.getHistogram().getDataPointsList().stream())
			.map((point) -> attributes(point).get("nemo.gym.startup.stage").getStringValue())).contains("main_start",
					"application_ready");
	}

	private static Map<String, AnyValue> attributes(HistogramDataPoint point) {
		return point.getAttributesList().stream().collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue));
	}

}
