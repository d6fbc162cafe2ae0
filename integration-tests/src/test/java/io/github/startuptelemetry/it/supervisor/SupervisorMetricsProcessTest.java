package io.github.startuptelemetry.it.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The supervisor's own {@code gym.server.startup_duration_ms} reaches the collector its traces
 * go to, given nothing but Boot's trace endpoint property, and before an
 * {@code exit-when-ready} exit: one histogram point per server, in {@code ms}, with Gym's
 * boundaries and attributes.
 */
class SupervisorMetricsProcessTest {

	private static final Duration TIMEOUT = Fleets.TIMEOUT;

	private static final List<Double> BOUNDARIES = List.of(100.0, 250.0, 500.0, 1000.0, 2500.0, 5000.0, 10000.0,
			30000.0, 60000.0, 120000.0, 300000.0, 600000.0, 1800000.0, 3600000.0);

	@RegisterExtension
	final Fleets fleets = new Fleets();

	@Test
	void supervisorMetricsFollowItsTraceEndpointAndArriveBeforeItExits() throws Exception {
		try (JavaProcess supervisor = this.fleets
			.supervisor("--telemetry.supervisor.exit-when-ready=true")
			.withoutEnv("MANAGEMENT_OTLP_METRICS_EXPORT_URL")
			.workingDir(SampleJars.repositoryRoot())
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
		}
		List<HistogramDataPoint> points = this.fleets.receiver().metrics()
			.stream()
			.filter((resource) -> resource.getResource().toString().contains("sample-supervisor"))
			.flatMap((resource) -> resource.getScopeMetricsList().stream())
			.flatMap((scope) -> scope.getMetricsList().stream())
			.filter((metric) -> metric.getName().equals("gym.server.startup_duration_ms"))
			.peek((metric) -> {
				assertThat(metric.getDataCase()).isEqualTo(Metric.DataCase.HISTOGRAM);
				assertThat(metric.getUnit()).isEqualTo("ms");
			})
			.flatMap((metric) -> metric.getHistogram().getDataPointsList().stream())
			.toList();
		assertThat(points).isNotEmpty().allSatisfy((point) -> {
			assertThat(point.getExplicitBoundsList()).isEqualTo(BOUNDARIES);
			assertThat(attributes(point)).containsKeys("nemo.gym.server.name", "nemo.gym.startup.outcome");
			// Gym's attributes of this histogram are all strings (no worker flag here)
			assertThat(attributes(point)).doesNotContainKey("nemo.gym.server.worker")
				.allSatisfy((key, value) -> assertThat(value.getValueCase()).isEqualTo(AnyValue.ValueCase.STRING_VALUE));
		});
		assertThat(points.stream().map((point) -> attributes(point).get("nemo.gym.server.name").getStringValue()))
			.contains("model-0", "model-1", "resources");
	}

	private static Map<String, AnyValue> attributes(HistogramDataPoint point) {
		return point.getAttributesList().stream().collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue));
	}

}
