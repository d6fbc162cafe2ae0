package io.github.startuptelemetry.supervisor;

import java.util.Arrays;
import java.util.Map;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.StaticListableBeanFactory;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.report.ServerReport;

import static org.assertj.core.api.Assertions.assertThat;

class SupervisorStartupMetricsTest {

	private final MeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void recordsEachServerAsGymDoesPlusTheOutcome() {
		new SupervisorStartupMetrics(
				new StaticListableBeanFactory(Map.of("registry", this.registry)).getBeanProvider(MeterRegistry.class))
			.accept(ServerReport.of("py-0", null, 0, 2_500_000_000L, "ready"));
		DistributionSummary summary = this.registry.get("gym.server.startup_duration_ms")
			.tag("nemo.gym.server.name", "py-0")
			.tag("nemo.gym.startup.outcome", "ready")
			.summary();
		assertThat(summary.getId().getTag("nemo.gym.server.type")).isNull();
		assertThat(summary.getId().getBaseUnit()).isEqualTo("ms");
		assertThat(summary.getId().getDescription()).isEqualTo(MetricNames.STARTUP_DURATION_DESCRIPTION);
		assertThat(summary.totalAmount()).isEqualTo(2500.0);
		assertThat(Arrays.stream(summary.takeSnapshot().histogramCounts()).mapToDouble(CountAtBucket::bucket).toArray())
			.containsExactly(MetricNames.BOUNDARIES_MS);
	}

}
