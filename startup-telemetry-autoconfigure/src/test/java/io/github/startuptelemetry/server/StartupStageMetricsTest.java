package io.github.startuptelemetry.server;

import java.util.Arrays;
import java.util.List;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.export.internal.StartupHistograms;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

import static org.assertj.core.api.Assertions.assertThat;

class StartupStageMetricsTest {

	private final MeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void recordsEachStageAsGymDoes() {
		metrics().accept(new ServerTimeline("model-0", null, false, 1, null, null, 0, 3_000_000_000L,
				List.of(new Stage("main_start", 0, 150_000_000L)), List.of(), List.of()));
		DistributionSummary summary = this.registry.get("gym.server.startup_stage_duration_ms")
			.tag("nemo.gym.startup.stage", "main_start")
			.tag("stage", "main_start")
			.tag("nemo.gym.server.name", "model-0")
			.tag("nemo.gym.server.worker", "false")
			.summary();
		assertThat(summary.getId().getTag("nemo.gym.server.type")).isNull();
		assertThat(summary.getId().getBaseUnit()).isEqualTo("ms");
		assertThat(summary.totalAmount()).isEqualTo(150.0);
		assertThat(Arrays.stream(summary.takeSnapshot().histogramCounts()).mapToDouble(CountAtBucket::bucket).toArray())
			.containsExactly(MetricNames.BOUNDARIES_MS);
	}

	@Test
	void aKnownTypeIsTagged() {
		metrics().accept(new ServerTimeline("model-0", "model", true, 1, null, null, 0, 1, List.of(new Stage("x", 0, 1)),
				List.of(), List.of()));
		assertThat(this.registry.get(MetricNames.STAGE_DURATION).summary().getId().getTag("nemo.gym.server.type"))
			.isEqualTo("model");
	}

	private StartupStageMetrics metrics() {
		return new StartupStageMetrics(new StartupHistograms(() -> this.registry, () -> null));
	}

}
