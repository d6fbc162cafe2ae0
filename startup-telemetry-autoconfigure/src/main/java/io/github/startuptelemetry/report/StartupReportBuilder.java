package io.github.startuptelemetry.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

/**
 * The one place a {@link StartupReport} is built: from what the supervisor saw (its stages,
 * each server's spawn and end, the trace, how the startup ended and why), then what only the
 * run knows (each server's own timeline, the code a server exited with).
 * <p>
 * Each server's outcome is decided once, by {@link #serverOutcome}, when its startup ends, and
 * that one word is the span's {@code nemo.gym.startup.outcome}, the metric's tag, the console's
 * and the HTML's: a ready server is {@code ready}; every other one takes the startup's outcome.
 * A server still starting when another crashed is therefore {@code crashed} too; the reports say
 * in words that it was {@linkplain ServerReport#stopped() stopped}, the exit code says which
 * server crashed.
 */
public final class StartupReportBuilder {

	private final String traceId;

	private final long startNs;

	private final long endNs;

	private final String outcome;

	private final String error;

	private final List<Stage> supervisorStages;

	private final Map<String, ServerReport> servers = new LinkedHashMap<>();

	private @Nullable String runId;

	private @Nullable String host;

	private @Nullable JvmCacheReport jvmCache;

	/**
	 * @param traceId the {@code gym.startup} trace's id, or {@code null} when none was exported
	 * @param startNs when the supervisor started
	 * @param endNs when all servers were ready, or when the startup was aborted
	 * @param outcome {@code ready} or why the startup was aborted
	 * @param error what aborted it, or {@code null}
	 * @param supervisorStages the supervisor's own contiguous stages
	 */
	public StartupReportBuilder(String traceId, long startNs, long endNs, String outcome, String error,
			List<Stage> supervisorStages) {
		this.traceId = traceId;
		this.startNs = startNs;
		this.endNs = endNs;
		this.outcome = outcome;
		this.error = error;
		this.supervisorStages = List.copyOf(supervisorStages);
	}

	/** Go on from a report of what the supervisor alone saw (any {@code SupervisorStartup}'s). */
	public static StartupReportBuilder from(StartupReport supervisor) {
		StartupReportBuilder builder = new StartupReportBuilder(supervisor.traceId(), supervisor.startNs(),
				supervisor.endNs(), supervisor.outcome(), supervisor.error(), supervisor.supervisorStages());
		supervisor.servers().forEach(builder::server);
		return builder.run(supervisor.runId(), supervisor.host()).jvmCache(supervisor.jvmCache());
	}

	/**
	 * The report of a server that ran without a supervisor: its own timeline, from its first
	 * stage to ready, as the one row.
	 * @param timeline what the server reported
	 * @return the builder, to add the run and host
	 */
	public static StartupReportBuilder ofServer(ServerTimeline timeline) {
		StartupReportBuilder builder = new StartupReportBuilder(timeline.traceId(), timeline.startEpochNs(),
				timeline.readyEpochNs(), StartupOutcome.READY, null, List.of());
		builder.server(ServerReport.of(timeline.serverName(), timeline.serverType(), timeline.startEpochNs(),
				timeline.readyEpochNs(), StartupOutcome.READY).withTimeline(timeline));
		return builder;
	}

	/**
	 * Which run and host this startup was.
	 * @param runId the run's id, or {@code null}
	 * @param host the host's name, or {@code null}
	 * @return this builder
	 */
	public StartupReportBuilder run(@Nullable String runId, @Nullable String host) {
		this.runId = runId;
		this.host = host;
		return this;
	}

	/**
	 * How a server's startup ended: {@code ready} if it was, else the startup's outcome.
	 * @param ready whether it answered a health probe before the startup ended
	 * @param startupOutcome how the startup ended
	 * @return one of {@code ready}, {@code timeout}, {@code crashed}, {@code interrupted},
	 * {@code error}
	 */
	public static String serverOutcome(boolean ready, String startupOutcome) {
		return ready ? StartupOutcome.READY : StartupOutcome.failure(startupOutcome);
	}

	/**
	 * A server as the supervisor saw it ({@link ServerReport#of}), in spawn order.
	 * @param server its row, with its {@link #serverOutcome}
	 * @return this builder
	 */
	public StartupReportBuilder server(ServerReport server) {
		this.servers.put(server.name(), server);
		return this;
	}

	/**
	 * The server's own timeline, as it reported it.
	 * @param name the server
	 * @param timeline its stages, ready time and slow steps
	 * @return this builder
	 */
	public StartupReportBuilder timeline(String name, ServerTimeline timeline) {
		return change(name, (row) -> row.withTimeline(timeline));
	}

	/**
	 * The code the server exited with, which counts only if it was not ready: then it is what
	 * crashed the startup, or how it ended after the startup was aborted.
	 * @param name the server
	 * @param exitCode its exit code
	 * @return this builder
	 */
	public StartupReportBuilder exited(String name, int exitCode) {
		return change(name, (row) -> row.ready() ? row : row.withExitCode(exitCode));
	}

	/**
	 * What the server waited for before it was spawned, and which server released it or, for
	 * one never spawned, held it: what only the run that scheduled it knows.
	 * @param name the server
	 * @param dependsOn its {@code depends-on}, in declared order
	 * @param releasedBy the server whose condition was met last, or {@code null}
	 * @param blockedBy the server it still waited for when the startup ended, or {@code null}
	 * @return this builder
	 */
	public StartupReportBuilder waiting(String name, List<ServerReport.DependsOn> dependsOn, @Nullable String releasedBy,
			@Nullable String blockedBy) {
		return change(name, (row) -> row.withWaiting(row.waiting()
			.orElse(new ServerReport.Waiting(row.spawnNs(), true, List.of(), null, null))
			.with(dependsOn, releasedBy, blockedBy)));
	}

	/**
	 * The server is a replica of a declared server: the reports group a large group's replicas.
	 * @param name the server ({@code model-3})
	 * @param declared the declared server ({@code model})
	 * @return this builder
	 */
	public StartupReportBuilder replicaOf(String name, String declared) {
		return change(name, (row) -> row.asReplicaOf(declared));
	}

	/**
	 * The server is a one-shot job: ready means it exited 0.
	 * @param name the server
	 * @return this builder
	 */
	public StartupReportBuilder oneShot(String name) {
		return change(name, ServerReport::asOneShot);
	}

	/**
	 * What the supervisor's JVM startup caches did ({@code telemetry.supervisor.jvm-cache}).
	 * @param jvmCache the caches' report, or {@code null} when they are off
	 * @return this builder
	 */
	public StartupReportBuilder jvmCache(@Nullable JvmCacheReport jvmCache) {
		this.jvmCache = jvmCache;
		return this;
	}

	public StartupReport build() {
		return new StartupReport(this.traceId, this.startNs, this.endNs, this.outcome, this.error,
				this.supervisorStages, List.copyOf(this.servers.values()), this.runId, this.host, this.jvmCache);
	}

	private StartupReportBuilder change(String name, UnaryOperator<ServerReport> change) {
		this.servers.computeIfPresent(name, (key, row) -> change.apply(row));
		return this;
	}

}
