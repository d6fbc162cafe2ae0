package io.github.startuptelemetry.server;

import java.util.function.Consumer;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.export.internal.StartupHistograms;
import io.github.startuptelemetry.tracing.internal.StartupSpans;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

/**
 * Records {@value MetricNames#STAGE_DURATION} per stage, a histogram in milliseconds with Gym's
 * tags ({@code nemo.gym.server.worker} a bool), unit and explicit boundaries ({@link MetricNames}),
 * on whatever the application has ({@link StartupHistograms}; nothing: nothing recorded).
 */
class StartupStageMetrics implements Consumer<ServerTimeline> {

	private final StartupHistograms histograms;

	StartupStageMetrics(StartupHistograms histograms) {
		this.histograms = histograms;
	}

	@Override
	public void accept(ServerTimeline report) {
		AttributesBuilder common = Attributes.builder()
			.put(StartupSpans.SERVER_NAME, report.serverName())
			.put(StartupSpans.SERVER_WORKER, report.worker());
		if (report.serverType() != null && !report.serverType().isBlank()) {
			common.put(StartupSpans.SERVER_TYPE, report.serverType());
		}
		for (Stage stage : report.stages()) {
			Attributes attributes = common.put(StartupSpans.STAGE, stage.name())
				.put(MetricNames.LEGACY_STAGE_TAG, stage.name())
				.build();
			this.histograms.record(MetricNames.STAGE_DURATION, MetricNames.STAGE_DURATION_DESCRIPTION, attributes,
				stage.durationMs());
		}
	}

}
