package io.github.startuptelemetry.supervisor;

import java.util.function.Consumer;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import org.springframework.beans.factory.ObjectProvider;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.report.ServerReport;

/**
 * Records {@value MetricNames#STARTUP_DURATION}: each server's spawn to first healthy probe (or to the
 * abort), as its supervisor saw it, a histogram in milliseconds exported by whatever registry
 * the application has (none: nothing recorded).
 */
class SupervisorStartupMetrics implements Consumer<ServerReport> {

	private final ObjectProvider<MeterRegistry> registry;

	SupervisorStartupMetrics(ObjectProvider<MeterRegistry> registry) {
		this.registry = registry;
	}

	@Override
	public void accept(ServerReport server) {
		MeterRegistry registry = this.registry.getIfAvailable();
		if (registry == null) {
			return;
		}
		Tags tags = Tags.of(SpanAttributes.SERVER_NAME, server.name(), SpanAttributes.OUTCOME, server.outcome());
		if (server.type() != null && !server.type().isBlank()) {
			tags = tags.and(SpanAttributes.SERVER_TYPE, server.type());
		}
		DistributionSummary.builder(MetricNames.STARTUP_DURATION)
			.description(MetricNames.STARTUP_DURATION_DESCRIPTION)
			.baseUnit(MetricNames.UNIT)
			.tags(tags)
			.publishPercentileHistogram(false)
			.serviceLevelObjectives(MetricNames.BOUNDARIES_MS)
			.register(registry)
			.record(server.spawnToEndNs() / 1_000_000.0);
	}

}
