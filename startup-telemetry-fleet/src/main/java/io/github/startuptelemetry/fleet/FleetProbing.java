package io.github.startuptelemetry.fleet;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.github.startuptelemetry.fleet.HealthProbe;
import io.github.startuptelemetry.fleet.ProbeClient;
import io.github.startuptelemetry.fleet.ProbeLoop;
import io.github.startuptelemetry.fleet.ProbeSettings;
import io.github.startuptelemetry.fleet.TimelineClient;
import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * Probing for a {@link FleetRun}: one {@link ProbeLoop} thread probes every server until it is
 * healthy and then fetches its timeline, so a hundred servers cost no hundred threads (nor an
 * HTTP client). Every callback runs on that thread and is short: no hand-off.
 */
final class FleetProbing {

	private final ProbeLoop loop;

	private final HealthProbe probe;

	private final TimelineClient timelines;

	FleetProbing(SupervisorProperties.Probe properties) {
		this.loop = new ProbeLoop("fleet-probe");
		ProbeSettings settings = new ProbeSettings(properties.getInitialInterval(), properties.getMaxInterval(),
				properties.getTimeout(), properties.getMaxPerSecond());
		ProbeClient client = new ProbeClient(this.loop, settings.timeout());
		this.probe = new HealthProbe(client, this.loop, settings);
		this.timelines = new TimelineClient(client, this.loop, settings);
	}

	/**
	 * Probe one server until it is healthy, then, if it still counts as ready, fetch its timeline.
	 * @param plan the server
	 * @param probing whether to go on probing (the run still waits for this server)
	 * @param relaxed whether the server will say itself when it is ready (probe it slowly)
	 * @param ready told that the server is healthy; whether it counts as ready (the run was still
	 * waiting), possibly later
	 * @return its timeline, empty when it was not ready or could not tell
	 */
	CompletableFuture<Optional<ServerTimeline>> watch(ServerPlan plan, BooleanSupplier probing,
			BooleanSupplier relaxed, Supplier<CompletableFuture<Boolean>> ready) {
		return this.probe.awaitHealthy(plan.healthUri(), probing, relaxed)
			.thenCompose((healthy) -> healthy ? ready.get() : CompletableFuture.completedFuture(false))
			.thenCompose((counts) -> counts ? this.timelines.fetch(plan.timelineUri())
					: CompletableFuture.completedFuture(Optional.<ServerTimeline>empty()));
	}

	/** Complete {@code result} with {@code value} after {@code delay}, unless done before. */
	<T> CompletableFuture<T> completeAfter(CompletableFuture<T> result, T value, Duration delay) {
		try {
			this.loop.schedule(() -> result.complete(value), delay.toNanos());
		}
		catch (RejectedExecutionException ex) {
			result.complete(value);
		}
		return result;
	}

	void shutdown() {
		this.loop.close();
	}

}
