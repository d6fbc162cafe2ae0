package io.github.startuptelemetry.fleet;

import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * One server of a {@link FleetRun}: its plan, its process once spawned, whether it became ready,
 * the code it exited with, and its timeline once fetched. Written under the run's lock; volatile
 * so that the report can read it once the verdict is in.
 */
final class FleetServer {

	final ServerPlan plan;

	/** Counted down once the server is spawned and probed, its timeline fetched, or it failed. */
	final CountDownLatch settled = new CountDownLatch(1);

	volatile LaunchedServer process;

	volatile ServerTimeline timeline;

	volatile boolean ready;

	volatile Integer exitCode;

	volatile String exitReason;

	/** What made it ready: {@code callback} or {@code probe}; {@code null} before. */
	volatile String readySource;

	/**
	 * Whether it asked the readiness callback for the clock: it has the starter and reaches the
	 * callback, so its callback is awaited and its probe is only the fallback.
	 */
	volatile boolean callingBack;

	/** Completed with true when its ready callback was accepted. */
	final CompletableFuture<Boolean> calledBack = new CompletableFuture<>();

	/** Where it listens, as its ready callback said; {@code null} without one. */
	volatile URI address;

	/** The server whose condition, met last, released it ({@code depends-on}); {@code null} before, or without. */
	volatile String releasedBy;

	/** The server it was still waiting for when the startup ended, never spawned; {@code null} otherwise. */
	volatile String blockedBy;

	FleetServer(ServerPlan plan) {
		this.plan = plan;
	}

	String name() {
		return this.plan.name();
	}

}
