package io.github.startuptelemetry.supervisor;

import java.util.function.Consumer;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.internal.support.DaemonThreads;
import io.github.startuptelemetry.report.ServerReport;

/**
 * Records {@value MetricNames#STARTUP_DURATION}: each server's spawn to first healthy probe (or to the
 * abort), as its supervisor saw it, a histogram in milliseconds exported by whatever registry
 * the application has (none: nothing recorded). This runs as each server is made ready, on the
 * path that applies its readiness: the registry is looked up once, not per server, and the
 * meter's builder is run once on a throwaway registry before the fleet starts, off any thread
 * the fleet waits for (only in a supervisor: a server that never runs a fleet skips it, and one
 * that looks its startup up by hand builds the first meter cold).
 */
class SupervisorStartupMetrics implements Consumer<ServerReport>, SmartInitializingSingleton {

	private final ObjectProvider<MeterRegistry> registries;

	private final boolean supervisor;

	private volatile boolean lookedUp;

	private volatile @Nullable MeterRegistry registry;

	private boolean initialised;

	private volatile boolean warmingUp;

	SupervisorStartupMetrics(ObjectProvider<MeterRegistry> registries) {
		this(registries, true);
	}

	/** The warm-up runs only in a supervisor (a process with a {@link SupervisorRole}). */
	SupervisorStartupMetrics(ObjectProvider<MeterRegistry> registries, boolean supervisor) {
		this.registries = registries;
		this.supervisor = supervisor;
	}

	/**
	 * Once every singleton exists: the registry, if any, and a warm meter builder for the first
	 * server. Once: the role calls it when it creates this bean, and Spring's round may too.
	 */
	@Override
	public void afterSingletonsInstantiated() {
		synchronized (this) {
			if (this.initialised) {
				return;
			}
			this.initialised = true;
		}
		if (this.supervisor && registry() != null) {
			this.warmingUp = true;
			DaemonThreads.ownThread("startup-metrics-warm-up")
				.execute(() -> summary(ServerReport.of("warm-up", "warm-up", 0, 0, "warm-up"))
					.register(new SimpleMeterRegistry())
					.record(0));
		}
	}

	/** Whether the warm-up was started (a supervisor with a registry). */
	boolean warmingUp() {
		return this.warmingUp;
	}

	@Override
	public void accept(ServerReport server) {
		MeterRegistry registry = registry();
		// one never spawned (its dependencies failed first) had no startup to time, and a one-shot
		// job's spawn to exit is a job's run, not a server's startup: it would skew the histogram
		if (registry != null && server.spawned() && !server.oneShot()) {
			summary(server).register(registry).record(server.spawnToEndNs() / 1_000_000.0);
		}
	}

	private @Nullable MeterRegistry registry() {
		if (!this.lookedUp) {
			// an idempotent lookup: two threads racing here find the same registry
			this.registry = this.registries.getIfAvailable();
			this.lookedUp = true;
		}
		return this.registry;
	}

	private static DistributionSummary.Builder summary(ServerReport server) {
		Tags tags = Tags.of(SpanAttributes.SERVER_NAME, server.name(), SpanAttributes.OUTCOME, server.outcome());
		if (server.type() != null && !server.type().isBlank()) {
			tags = tags.and(SpanAttributes.SERVER_TYPE, server.type());
		}
		return DistributionSummary.builder(MetricNames.STARTUP_DURATION)
			.description(MetricNames.STARTUP_DURATION_DESCRIPTION)
			.baseUnit(MetricNames.UNIT)
			.tags(tags)
			.publishPercentileHistogram(false)
			.serviceLevelObjectives(MetricNames.BOUNDARIES_MS);
	}

}
