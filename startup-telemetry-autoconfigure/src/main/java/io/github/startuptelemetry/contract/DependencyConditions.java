package io.github.startuptelemetry.contract;

/**
 * When a fleet server's dependency counts as met ({@code telemetry.supervisor.servers[].depends-on}),
 * as reports and spans write it: in {@code startup.dependency.conditions}, the JSON report's
 * {@code condition} fields and the console's critical chain. Ours, not Gym's.
 */
public final class DependencyConditions {

	/** It became ready (its callback or health probe); a group of replicas when all of them did. */
	public static final String READY = StartupOutcome.READY;

	/** It was spawned. */
	public static final String STARTED = "started";

	/** A one-shot job exited 0; what the reports also call such a job's end. */
	public static final String COMPLETED = "completed";

	private DependencyConditions() {
	}

}
