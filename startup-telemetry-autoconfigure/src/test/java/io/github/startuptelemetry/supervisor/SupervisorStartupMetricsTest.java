package io.github.startuptelemetry.supervisor;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.export.internal.StartupHistograms;
import io.github.startuptelemetry.report.ServerReport;

class SupervisorStartupMetricsTest {

	private final MeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void recordsEachServerAsGymDoesPlusTheOutcome() {
		new SupervisorStartupMetrics(new StartupHistograms(() -> this.registry, () -> null))
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

	@Test
	void aOneShotJobIsNoServerStartup() {
		SupervisorStartupMetrics metrics = new SupervisorStartupMetrics(new StartupHistograms(() -> this.registry, () -> null));
		metrics.accept(ServerReport.of("download", "job", 0, 600_000_000_000L, "ready").asOneShot());
		metrics.accept(ServerReport.of("model-0", "model", 0, 2_500_000_000L, "ready"));
		assertThat(this.registry.find("gym.server.startup_duration_ms").summaries())
			.extracting((summary) -> summary.getId().getTag("nemo.gym.server.name"))
			.containsExactly("model-0");
	}

	@Test
	void looksTheRegistryUpOnceForAllServers() {
		AtomicInteger lookups = new AtomicInteger();
		SupervisorStartupMetrics metrics = new SupervisorStartupMetrics(new StartupHistograms(() -> {
			lookups.incrementAndGet();
			return this.registry;
		}, () -> null));
		metrics.afterSingletonsInstantiated();
		metrics.accept(ServerReport.of("a", null, 0, 1_000_000L, "ready"));
		metrics.accept(ServerReport.of("b", null, 0, 2_000_000L, "ready"));
		assertThat(lookups).hasValue(1);
		assertThat(this.registry.find("gym.server.startup_duration_ms").summaries()).hasSize(2);
	}

	@Test
	void aServerDoesNotWarmTheMeterUp() {
		AtomicInteger lookups = new AtomicInteger();
		StartupHistograms counted = new StartupHistograms(() -> {
			lookups.incrementAndGet();
			return this.registry;
		}, () -> null);
		new SupervisorStartupMetrics(counted, false, null).afterSingletonsInstantiated();
		assertThat(lookups).hasValue(0);
	}

}
