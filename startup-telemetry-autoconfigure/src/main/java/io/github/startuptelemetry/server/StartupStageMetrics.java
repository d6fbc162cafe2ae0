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
 * Records {@value MetricNames#STAGE_DURATION} per stage, a histogram in milliseconds exported by whatever
 * registry the application has (none: nothing recorded).
 */
public class StartupStageMetrics implements Consumer<ServerTimeline> {

	private final ObjectProvider<MeterRegistry> registry;

	public StartupStageMetrics(ObjectProvider<MeterRegistry> registry) {
		this.registry = registry;
	}

	@Override
	public void accept(ServerTimeline report) {
		MeterRegistry registry = this.registry.getIfAvailable();
		if (registry == null) {
			return;
		}
		Tags tags = Tags.of(SpanAttributes.SERVER_NAME, report.serverName(), SpanAttributes.SERVER_TYPE,
				(report.serverType() != null) ? report.serverType() : "", SpanAttributes.SERVER_WORKER,
				Boolean.toString(report.worker()));
		for (Stage stage : report.stages()) {
			DistributionSummary.builder(MetricNames.STAGE_DURATION)
				.description("Duration of one server startup stage, in milliseconds")
				.tags(tags)
				.tag(MetricNames.STAGE_TAG, stage.name())
				.publishPercentileHistogram()
				.register(registry)
				.record(stage.durationMs());
		}
	}

}
