package io.github.startuptelemetry.supervisor;

import java.util.Map;
import java.util.Optional;

import io.github.startuptelemetry.report.StartupReport;

/**
 * The supervisor's side of one startup, for a launcher to drive: its own stages, each server's
 * spawn (the env it hands the server) and readiness, and the report. Thread-safe; every method
 * is idempotent and never throws (the trace it records is in docs/wire-contract.md).
 */
public interface SupervisorStartup {

	/** Open the {@code gym.startup} span (at the supervisor's start). Later calls do nothing. */
	void beginTrace();

	/**
	 * End the supervisor's current stage now and name it (after the moment that ends it, e.g.
	 * {@code spawn_servers}). Ignored once the startup finished or was aborted.
	 */
	void mark(String stage);

	/** {@link #serverEnv(String, String, int, int)} for the only server of its type (rank 0 of 1). */
	default Map<String, String> serverEnv(String name, String type) {
		return serverEnv(name, type, 0, 1);
	}

	/**
	 * The environment for one server about to be spawned: the env contract (spawn time and
	 * the traceparent of its {@code gym.startup.server} span, which this call opens), its
	 * identity ({@code TELEMETRY_STARTUP_SERVER_NAME}, {@code _TYPE}, {@code TELEMETRY_RANK},
	 * {@code _WORLD_SIZE}, {@code _LOCAL_RANK}, {@code _WORKER_GROUP}) and any
	 * {@link ChildTelemetryEnvironment} settings. A variable the supervisor's own environment
	 * already has is left out (the child inherits it), except the contract's. Asking again for
	 * the same server returns the same contract; it is spawned once.
	 * @param name the server's name, unique in this startup
	 * @param type the server's type, or {@code null}
	 * @param rank its rank among the servers of its type
	 * @param worldSize how many servers of its type there are
	 * @return a new mutable map to add to the child's environment
	 */
	Map<String, String> serverEnv(String name, String type, int rank, int worldSize);

	/**
	 * The named server waits for other servers before it is spawned ({@code depends-on}): its
	 * {@code gym.startup.server} span opens now, and its first stage,
	 * {@code waiting_for_dependencies}, lasts until {@link #serverEnv} spawns it, so that its
	 * spawn→ready stays its own. One still waiting when the startup ends is never spawned: its
	 * span ends with the startup's outcome. Later calls, and calls for a server already spawned,
	 * do nothing.
	 * @param name the server's name, unique in this startup
	 * @param type the server's type, or {@code null}
	 */
	default void serverWaiting(String name, String type) {
	}

	/**
	 * Add what its launcher knows about a server (e.g. {@code slurm.job.id},
	 * {@code startup.slurm.pending_ms}), or its dependencies ({@code startup.dependency.*}), to
	 * its {@code gym.startup.server} span, while it is open.
	 * @param name the server's name
	 * @param attributes {@code String}, {@code Long}, {@code Double}, {@code Boolean} or
	 * {@code List<String>} values
	 */
	default void serverAttributes(String name, Map<String, Object> attributes) {
	}

	/**
	 * Why the named server is not ready, in its own words (how it exited, the last lines of its
	 * log), for its {@code gym.startup.server} span should the startup be {@link #abort aborted}
	 * before it is: that span's ERROR status then says this (at most 2,048 characters), while
	 * what ended the startup is said once, on {@code gym.startup}. The last call before the abort
	 * counts; ignored for a server that is ready or unknown.
	 * @param name the server's name
	 * @param reason what to say
	 */
	default void serverNotReady(String name, String reason) {
	}

	/** Record that the named server first answered a health probe. Only the first call counts. */
	void serverReady(String name);

	/**
	 * Record that the named server is ready, and how the supervisor learnt it. Only the first
	 * call (of either form) counts.
	 * @param name the server
	 * (JDK types only: Spring introspects this interface even with telemetry off, and the off
	 * path loads no class of ours it does not need.)
	 * @param source {@code callback} or {@code probe} ({@code contract.ReadinessCallback})
	 * @param clockOffsetMs the server's clock minus the supervisor's (Cristian's method), or NaN
	 * when it was not measured
	 * @param clockUncertaintyMs how far the offset may be off, or NaN
	 */
	default void serverReady(String name, String source, double clockOffsetMs, double clockUncertaintyMs) {
		serverReady(name);
	}

	/**
	 * {@link #serverReady(String, String, double, double)} at a given instant: when the
	 * supervisor received what made the server ready (a ready callback counts from its arrival,
	 * not from when its body had been read and checked). Only the first call counts.
	 * @param name the server
	 * @param source {@code callback} or {@code probe}
	 * @param clockOffsetMs the server's clock minus the supervisor's, or NaN
	 * @param clockUncertaintyMs how far the offset may be off, or NaN
	 * @param readyEpochNs when the supervisor learnt it, on its own clock (epoch nanoseconds;
	 * never a time the server claims); a time in the future counts as now
	 */
	default void serverReady(String name, String source, double clockOffsetMs, double clockUncertaintyMs,
			long readyEpochNs) {
		serverReady(name, source, clockOffsetMs, clockUncertaintyMs);
	}

	/**
	 * {@link #serverReady(String, String, double, double, long)} in two steps, for a caller that
	 * holds a lock others wait on (the fleet run): this call claims the readiness (the server's
	 * outcome and end are fixed; only the first call of any form counts) and returns at once; the
	 * step it returns does the rest (the span's attributes and end, the metrics) outside that
	 * lock. {@link #finish()} and {@link #abort} run any step not run yet before they close the
	 * startup, so every server's span still ends before the root's. By default the whole of
	 * {@code serverReady} happens now and the step does nothing.
	 * @param name the server
	 * @param source {@code callback} or {@code probe}
	 * @param clockOffsetMs the server's clock minus the supervisor's, or NaN
	 * @param clockUncertaintyMs how far the offset may be off, or NaN
	 * @param readyEpochNs when the supervisor learnt it, on its own clock (epoch nanoseconds)
	 * @return the rest of the step; run it once, on any thread (it never throws)
	 */
	default Runnable claimReady(String name, String source, double clockOffsetMs, double clockUncertaintyMs,
			long readyEpochNs) {
		serverReady(name, source, clockOffsetMs, clockUncertaintyMs, readyEpochNs);
		return () -> {
		};
	}

	/**
	 * Close {@code gym.startup} (outcome {@code ready}) with the supervisor's stages beneath it,
	 * once every server is ready. It ends when the last server became ready (or at the last
	 * mark, if that came later); the time from the last mark to that ready becomes the
	 * {@code wait_for_servers} stage. Finishing while a server is not ready yet is an
	 * {@link #abort abort} with outcome {@code error}. Later calls do nothing.
	 */
	void finish();

	/**
	 * Close every open startup span after a startup that did not finish, so that the failed
	 * run is exported all the same: each server not ready yet and the root get {@code outcome}
	 * and ERROR status, and the supervisor stage that was running becomes {@code unfinished},
	 * so that the stages still cover the whole startup. The root's status and exception event
	 * carry {@code error} (bounded); each server's status says its own reason
	 * ({@link #serverNotReady}), else the first line of {@code error}'s message, so that the
	 * trace grows with the fleet, never with its square. Later calls, and calls after
	 * {@link #finish()}, do nothing.
	 * @param outcome {@code timeout}, {@code crashed}, {@code interrupted} or {@code error}
	 * (anything else counts as {@code error})
	 * @param error what ended the startup, or {@code null}
	 */
	void abort(String outcome, Throwable error);

	/** The report of this startup once it finished or was aborted; empty before, or when disabled. */
	Optional<StartupReport> report();

}
