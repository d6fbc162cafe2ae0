package io.github.startuptelemetry.supervisor;

import java.util.function.Consumer;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;

import io.github.startuptelemetry.report.ServerReport;

/**
 * Records {@value #STARTUP_DURATION}: each server's spawn to first healthy probe (or to the
 * abort), as its supervisor saw it, a histogram in milliseconds exported by whatever registry
 * the application has (none: nothing recorded).
 */
class SupervisorStartupMetrics implements Consumer<ServerReport> {

	static final String STARTUP_DURATION = "gym.server.startup_duration_ms";

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
		DistributionSummary.builder(STARTUP_DURATION)
			.description("Spawn to ready of one server, as its supervisor saw it, in milliseconds")
			.tag("nemo.gym.server.name", server.name())
			.tag("nemo.gym.server.type", (server.type() != null) ? server.type() : "")
			.tag("nemo.gym.startup.outcome", server.outcome())
			.publishPercentileHistogram()
			.register(registry)
			.record(server.spawnToEndNs() / 1_000_000.0);
	}

}
