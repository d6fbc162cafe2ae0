package io.github.startuptelemetry.supervisor;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

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
			this.scheduler.schedule(() -> result.complete(value), delay.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			result.complete(value);
		}
		return result;
	}

	void shutdown() {
		this.scheduler.shutdownNow();
	}

}
