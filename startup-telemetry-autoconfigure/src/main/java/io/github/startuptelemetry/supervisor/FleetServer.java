package io.github.startuptelemetry.supervisor;

import java.util.concurrent.CountDownLatch;

import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * One server of a {@link FleetRun}: its plan, its process once spawned, whether it became ready,
 * the code it exited with, and its timeline once fetched. Written under the run's lock; volatile
 * so that the report can read them once the verdict is in.
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

	FleetServer(ServerPlan plan) {
		this.plan = plan;
	}

	String name() {
		return this.plan.name();
	}

}
