package io.github.startuptelemetry.server;

import java.util.function.Consumer;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import org.springframework.beans.factory.ObjectProvider;

import io.github.startuptelemetry.timeline.Stage;

/**
 * Records {@value #STAGE_DURATION} per stage, a histogram in milliseconds exported by whatever
 * registry the application has (none: nothing recorded).
 */
public class StartupStageMetrics implements Consumer<ServerStartupReport> {

	public static final String STAGE_DURATION = "gym.server.startup_stage_duration_ms";

	private final ObjectProvider<MeterRegistry> registry;

	public StartupStageMetrics(ObjectProvider<MeterRegistry> registry) {
		this.registry = registry;
	}

	@Override
	public void accept(ServerStartupReport report) {
		MeterRegistry registry = this.registry.getIfAvailable();
		if (registry == null) {
			return;
		}
		Tags tags = Tags.of("nemo.gym.server.name", report.serverName(), "nemo.gym.server.type",
				(report.serverType() != null) ? report.serverType() : "", "nemo.gym.server.worker",
				Boolean.toString(report.worker()));
		for (Stage stage : report.stages()) {
			DistributionSummary.builder(STAGE_DURATION)
				.description("Duration of one server startup stage, in milliseconds")
				.tags(tags)
				.tag("stage", stage.name())
				.publishPercentileHistogram()
				.register(registry)
				.record(stage.durationMs());
		}
	}

}
