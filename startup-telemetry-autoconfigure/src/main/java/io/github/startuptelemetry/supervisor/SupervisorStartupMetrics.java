package io.github.startuptelemetry.supervisor;

import java.util.function.Consumer;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.SmartInitializingSingleton;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.export.internal.StartupExport;
import io.github.startuptelemetry.export.internal.StartupHistograms;
import io.github.startuptelemetry.internal.DaemonThreads;
import io.github.startuptelemetry.tracing.internal.StartupSpans;
import io.github.startuptelemetry.report.ServerReport;

/**
 * Records {@value MetricNames#STARTUP_DURATION}: each server's spawn to first healthy probe (or to
 * the abort), as its supervisor saw it, a histogram in milliseconds on whatever the application has
 * ({@link StartupHistograms}).
 */
class SupervisorStartupMetrics implements Consumer<ServerReport>, SmartInitializingSingleton {

	private final StartupHistograms histograms;

	private final boolean supervisor;

	/** Looked up beside the histograms' destination, or {@code null}: where the supervisor's spans go. */
	private final @Nullable StartupExport export;

	private boolean initialised;

	private volatile boolean warmingUp;

	SupervisorStartupMetrics(StartupHistograms histograms) {
		this(histograms, true, null);
	}

	/**
	 * The warm-up runs only in a supervisor (a process with a {@link SupervisorRole}). With an
	 * export, the warm-up also looks up where the supervisor's spans go: the starter's
	 * own SDK, when it builds one, is built then, off the path that spawns the fleet.
	 */
	SupervisorStartupMetrics(StartupHistograms histograms, boolean supervisor, @Nullable StartupExport export) {
		this.histograms = histograms;
		this.supervisor = supervisor;
		this.export = export;
	}

	/**
	 * Once every singleton exists: where the histogram goes, looked up on a thread of its own.
	 * Once: the role calls it when it creates this bean, and Spring's round may too.
	 */
	@Override
	public void afterSingletonsInstantiated() {
		synchronized (this) {
			if (this.initialised) {
				return;
			}
			this.initialised = true;
		}
		// where the histogram goes is looked up once, before the fleet starts, off any thread the fleet
		// waits for (only in a supervisor); that look-up builds the starter's own SDK when it builds one
		if (this.supervisor) {
			this.warmingUp = true;
			DaemonThreads.ownThread("startup-metrics-warm-up").execute(this::warmUp);
		}
	}

	private void warmUp() {
		if (this.export != null) {
			this.export.tracing();
		}
		this.histograms.recording();
	}

	/** Whether the warm-up was started (a supervisor). */
	boolean warmingUp() {
		return this.warmingUp;
	}

	@Override
	public void accept(ServerReport server) {
		// one never spawned (its dependencies failed first) had no startup to time, and a one-shot
		// job's spawn to exit is a job's run, not a server's startup: it would skew the histogram
		if (!server.spawned() || server.oneShot()) {
			return;
		}
		AttributesBuilder attributes = Attributes.builder()
			.put(StartupSpans.SERVER_NAME, server.name())
			.put(StartupSpans.OUTCOME, server.outcome());
		if (server.type() != null && !server.type().isBlank()) {
			attributes.put(StartupSpans.SERVER_TYPE, server.type());
		}
		this.histograms.record(MetricNames.STARTUP_DURATION, MetricNames.STARTUP_DURATION_DESCRIPTION,
				attributes.build(), server.spawnToEndNs() / 1_000_000.0);
	}

}
