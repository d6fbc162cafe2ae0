package io.github.startuptelemetry.fleet;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.StartupEnv;
import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.lifecycle.internal.ProcessResourceAttributes;
import io.github.startuptelemetry.lifecycle.internal.ServerEnvBuilder;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.report.StartupReportBuilder;
import io.github.startuptelemetry.supervisor.ChildTelemetryEnvironment;
import io.github.startuptelemetry.supervisor.SupervisorStartup;

/**
 * The {@link SupervisorStartup} of a round of the JVM caches' {@code compare}: a start of the
 * fleet that is a measurement, not the supervisor's startup. It records each server's spawn and
 * ready for the round's report and exports nothing, so its servers get no traceparent.
 */
final class RoundStartup implements SupervisorStartup {

	private final @Nullable ChildTelemetryEnvironment childEnvironment;

	private final Map<String, Row> servers = new LinkedHashMap<>();

	private long startNs;

	private @Nullable StartupReport report;

	RoundStartup(@Nullable ChildTelemetryEnvironment childEnvironment) {
		this.childEnvironment = childEnvironment;
	}

	@Override
	public synchronized void beginTrace() {
		if (this.startNs == 0) {
			this.startNs = WallClock.nowNs();
		}
	}

	@Override
	public void mark(String stage) {
	}

	@Override
	public Map<String, String> serverEnv(String name, String type, int rank, int worldSize) {
		Row row;
		synchronized (this) {
			beginTrace();
			row = this.servers.computeIfAbsent(name, (key) -> new Row(name, type, WallClock.nowNs()));
		}
		ServerEnvBuilder env = ServerEnvBuilder.ofThisProcess();
		try {
			if (this.childEnvironment != null) {
				env.settings(this.childEnvironment.forServer(name, type, rank, worldSize));
			}
		}
		catch (RuntimeException ex) {
			// a server must start whatever the settings hand-off does
		}
		return env.settings(ProcessResourceAttributes.serverEnv(name, type, rank, worldSize))
			.set(StartupEnv.SPAWN_NS, Long.toString(row.spawnNs))
			.toMap();
	}

	@Override
	public void serverReady(String name) {
		serverReady(name, null, Double.NaN, Double.NaN, WallClock.nowNs());
	}

	@Override
	public synchronized void serverReady(String name, String source, double clockOffsetMs, double clockUncertaintyMs,
			long readyEpochNs) {
		Row row = this.servers.get(name);
		if (row != null && row.endNs == 0) {
			row.endNs = Math.max(Math.min(readyEpochNs, WallClock.nowNs()), row.spawnNs);
		}
	}

	@Override
	public synchronized void finish() {
		List<String> pending = this.servers.values().stream().filter((row) -> row.endNs == 0).map((row) -> row.name)
			.toList();
		close(pending.isEmpty() ? StartupOutcome.READY : StartupOutcome.ERROR,
				pending.isEmpty() ? null : "finished before " + pending + " ready");
	}

	@Override
	public synchronized void abort(String outcome, Throwable error) {
		close(StartupOutcome.failure(outcome), (error != null) ? error.getMessage() : null);
	}

	private void close(String outcome, @Nullable String error) {
		if (this.report != null) {
			return;
		}
		long endNs = WallClock.nowNs();
		StartupReportBuilder builder = new StartupReportBuilder(null, this.startNs, endNs, outcome, error, List.of());
		for (Row row : this.servers.values()) {
			boolean ready = row.endNs != 0;
			builder.server(ServerReport.of(row.name, row.type, row.spawnNs, ready ? row.endNs : endNs,
					StartupReportBuilder.serverOutcome(ready, outcome)));
		}
		this.report = builder.build();
	}

	@Override
	public synchronized Optional<StartupReport> report() {
		return Optional.ofNullable(this.report);
	}

	private static final class Row {

		private final String name;

		private final @Nullable String type;

		private final long spawnNs;

		private long endNs;

		Row(String name, @Nullable String type, long spawnNs) {
			this.name = name;
			this.type = type;
			this.spawnNs = spawnNs;
		}

	}

}
