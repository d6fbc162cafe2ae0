package io.github.startuptelemetry.server;

import java.util.function.Consumer;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import org.springframework.beans.factory.ObjectProvider;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

/**
 * Records {@value MetricNames#STAGE_DURATION} per stage, a histogram in milliseconds with Gym's
 * tags, unit and explicit boundaries ({@link MetricNames}), exported by whatever registry the
 * application has (none: nothing recorded).
 */
class StartupStageMetrics implements Consumer<ServerTimeline> {

	private final ObjectProvider<MeterRegistry> registry;

	StartupStageMetrics(ObjectProvider<MeterRegistry> registry) {
		this.registry = registry;
	}

	@Override
	public void accept(ServerTimeline report) {
		MeterRegistry registry = this.registry.getIfAvailable();
		if (registry == null) {
			return;
		}
		Tags tags = Tags.of(SpanAttributes.SERVER_NAME, report.serverName(), SpanAttributes.SERVER_WORKER,
				Boolean.toString(report.worker()));
		if (report.serverType() != null && !report.serverType().isBlank()) {
			tags = tags.and(SpanAttributes.SERVER_TYPE, report.serverType());
		}
		for (Stage stage : report.stages()) {
			DistributionSummary.builder(MetricNames.STAGE_DURATION)
				.description(MetricNames.STAGE_DURATION_DESCRIPTION)
				.baseUnit(MetricNames.UNIT)
				.tags(tags)
				.tag(MetricNames.STAGE_TAG, stage.name())
				.tag(MetricNames.LEGACY_STAGE_TAG, stage.name())
				.publishPercentileHistogram(false)
				.serviceLevelObjectives(MetricNames.BOUNDARIES_MS)
				.register(registry)
				.record(stage.durationMs());
		}
	}

}
