package io.github.startuptelemetry.supervisor;

import java.net.http.HttpClient;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;

import io.github.startuptelemetry.support.DaemonThreads;
import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * Probing for a {@link FleetRun}: one scheduler thread (beside the HTTP client's selector)
 * probes every server until it is healthy and then fetches its timeline, so a hundred servers
 * cost no hundred threads. The client's completions run on that thread too: every callback is
 * short, no hand-off.
 */
final class FleetProbing {

	private final ScheduledExecutorService scheduler;

	private final HealthProbe probe;

	private final TimelineClient timelines;

	FleetProbing(SupervisorProperties.Probe properties) {
		this.scheduler = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("fleet-probe"));
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(properties.getTimeout())
			.executor(this.scheduler)
			.build();
		this.probe = new HealthProbe(http, this.scheduler, properties);
		this.timelines = new TimelineClient(http, this.scheduler, properties);
	}

	/**
	 * Probe one server until it is healthy, then, if it still counts as ready, fetch its timeline.
	 * @param plan the server
	 * @param probing whether to go on probing (the run still waits for this server)
	 * @param ready told that the server is healthy; whether it counts as ready (the run was still
	 * waiting)
	 * @return its timeline, empty when it was not ready or could not tell
	 */
	CompletableFuture<Optional<ServerTimeline>> watch(ServerPlan plan, BooleanSupplier probing,
			BooleanSupplier ready) {
		return this.probe.awaitHealthy(plan.healthUri(), probing)
			.thenCompose((healthy) -> (healthy && ready.getAsBoolean()) ? this.timelines.fetch(plan.timelineUri())
					: CompletableFuture.completedFuture(Optional.<ServerTimeline>empty()));
	}

	void shutdown() {
		this.scheduler.shutdownNow();
	}

}
