package io.github.startuptelemetry.supervisor;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.json.JsonParser;
import org.springframework.boot.json.JsonParserFactory;

import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.TimelineJson;

/**
 * Reads a ready server's own timeline (stages, and slow beans when it reports them) from its {@code /actuator/startuptimeline} endpoint, for the report,
 * through the JDK client's asynchronous API. A server without the endpoint, or with anything
 * unexpected there, just has no stages; beans that cannot be read are left out: never an
 * error. One JSON parser serves every fetch (a new one builds a new Jackson mapper, its caches
 * cold).
 */
final class TimelineClient {

	private final HttpClient http;

	private final ScheduledExecutorService scheduler;

	private final Duration timeout;

	private final long retryIntervalMs;

	private final JsonParser json = JsonParserFactory.getJsonParser();

	TimelineClient(HttpClient http, ScheduledExecutorService scheduler, SupervisorProperties.Probe settings) {
		this.http = http;
		this.scheduler = scheduler;
		this.timeout = settings.getTimeout();
		this.retryIntervalMs = Math.max(1, settings.getInitialInterval().toMillis());
	}

	/**
	 * The server's timeline; asks again (for up to one probe timeout) while the server says it
	 * is not ready yet, as one whose health URL is not a readiness check may. Never completes
	 * exceptionally.
	 */
	CompletableFuture<Optional<ServerTimeline>> fetch(URI uri) {
		return attempt(uri, System.nanoTime() + this.timeout.toNanos());
	}

	private CompletableFuture<Optional<ServerTimeline>> attempt(URI uri, long deadline) {
		return this.http.sendAsync(HealthProbe.request(uri, this.timeout), HttpResponse.BodyHandlers.ofString())
			.handle((response, error) -> body(response))
			.thenCompose((body) -> {
				if (body == null) {
					return CompletableFuture.completedFuture(Optional.<ServerTimeline>empty());
				}
				if (TimelineJson.isReady(body)) {
					return CompletableFuture.completedFuture(TimelineJson.read(body));
				}
				if (System.nanoTime() > deadline) {
					return CompletableFuture.completedFuture(Optional.<ServerTimeline>empty());
				}
				CompletableFuture<Void> retry = new CompletableFuture<>();
				this.scheduler.schedule(() -> retry.complete(null), this.retryIntervalMs, TimeUnit.MILLISECONDS);
				return retry.thenCompose((ignored) -> attempt(uri, deadline));
			})
			.exceptionally((ex) -> Optional.empty());
	}

	private Map<String, Object> body(HttpResponse<String> response) {
		try {
			return (response != null && response.statusCode() == 200) ? this.json.parseMap(response.body()) : null;
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

}
