package io.github.startuptelemetry.report;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.timeline.Stage;

/**
 * A whole startup as a supervisor saw it, from its own start to all servers ready (or the
 * abort): the one model every report is rendered from. Holds names, times and ids only, never an
 * environment value; what is derived from it ({@link CriticalChain}, {@link DependencyWait}) is
 * built from it.
 *
 * @param traceId the {@code gym.startup} trace's id, or {@code null} when none was exported
 * @param startNs when the supervisor started (its first stage's start)
 * @param endNs when all servers were ready, or when the startup was aborted
 * @param outcome {@code ready} or why the startup was aborted
 * @param error what aborted it (a crash carries the tail of the server's log), or {@code null}
 * when ready
 * @param supervisorStages the supervisor's own contiguous stages, covering start to end
 * @param servers one row per server, in spawn order
 * @param runId the run's id ({@code telemetry.run-id}), or {@code null}
 * @param host the host the supervisor ran on, or {@code null} when unknown
 * @param jvmCache what the supervisor's JVM startup caches did, or {@code null} when they are off
 */
public record StartupReport(String traceId, long startNs, long endNs, String outcome, String error,
		List<Stage> supervisorStages, List<ServerReport> servers, @Nullable String runId, @Nullable String host,
		@Nullable JvmCacheReport jvmCache) {

	public StartupReport {
		Objects.requireNonNull(outcome, "outcome");
		supervisorStages = List.copyOf(supervisorStages);
		servers = List.copyOf(servers);
	}

	/** A report without JVM caches. */
	public StartupReport(String traceId, long startNs, long endNs, String outcome, String error,
			List<Stage> supervisorStages, List<ServerReport> servers, @Nullable String runId, @Nullable String host) {
		this(traceId, startNs, endNs, outcome, error, supervisorStages, servers, runId, host, null);
	}

	/** A report that does not say which run or host it is of. */
	public StartupReport(String traceId, long startNs, long endNs, String outcome, String error,
			List<Stage> supervisorStages, List<ServerReport> servers) {
		this(traceId, startNs, endNs, outcome, error, supervisorStages, servers, null, null);
	}

	public boolean ready() {
		return StartupOutcome.READY.equals(this.outcome);
	}

	public long durationNs() {
		return this.endNs - this.startNs;
	}

	/**
	 * Which server held "all ready" back (the last to become ready) and its slowest stage;
	 * empty unless every server became ready. In a fleet with dependencies the reports show the
	 * {@link CriticalChain} instead.
	 */
	public Optional<CriticalPath> criticalPath() {
		if (!ready()) {
			return Optional.empty();
		}
		return this.servers.stream()
			.max(Comparator.comparingLong(ServerReport::endNs))
			.map((last) -> new CriticalPath(last, last.endNs() - this.startNs, last.slowestStage()));
	}

	/** Whether any server waited for others ({@code depends-on}). */
	public boolean hasDependencies() {
		return this.servers.stream().anyMatch((server) -> server.waiting().isPresent());
	}

	/**
	 * The server that held a startup back.
	 *
	 * @param server the last server to become ready
	 * @param allReadyAfterNs from the supervisor's start to that server's first healthy probe
	 * @param slowestStage that server's longest stage, if it reported its stages
	 */
	public record CriticalPath(ServerReport server, long allReadyAfterNs, Optional<Stage> slowestStage) {

	}

}
