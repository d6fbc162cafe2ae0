package io.github.startuptelemetry.supervisor;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.json.JsonParser;
import org.springframework.boot.json.JsonParserFactory;

import io.github.startuptelemetry.report.BeanTiming;
import io.github.startuptelemetry.timeline.Stage;

/**
 * Reads a ready server's own stages (and slow beans, when it reports them as
 * {@code beanSpans}) from its {@code /actuator/startuptimeline} endpoint, for the report,
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
	CompletableFuture<Optional<Timeline>> fetch(URI uri) {
		return attempt(uri, System.nanoTime() + this.timeout.toNanos());
	}

	private CompletableFuture<Optional<Timeline>> attempt(URI uri, long deadline) {
		return this.http.sendAsync(HealthProbe.request(uri, this.timeout), HttpResponse.BodyHandlers.ofString())
			.handle((response, error) -> body(response))
			.thenCompose((body) -> {
				if (body == null) {
					return CompletableFuture.completedFuture(Optional.<Timeline>empty());
				}
				// true, or "true" from Boot's basic parser (an application without Jackson)
				if ("true".equals(String.valueOf(body.get("ready")))) {
					return CompletableFuture.completedFuture(timeline(body));
				}
				if (System.nanoTime() > deadline) {
					return CompletableFuture.completedFuture(Optional.<Timeline>empty());
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

	private static Optional<Timeline> timeline(Map<String, Object> body) {
		try {
			List<Stage> stages = new ArrayList<>();
			for (Object item : (List<?>) body.get("stages")) {
				Map<?, ?> stage = (Map<?, ?>) item;
				stages.add(new Stage((String) stage.get("name"), ((Number) stage.get("startEpochNs")).longValue(),
						((Number) stage.get("endEpochNs")).longValue()));
			}
			return Optional.of(new Timeline(stages, ((Number) body.get("readyEpochNs")).longValue(),
					beans(body.get("beanSpans"))));
		}
		catch (RuntimeException ex) {
			return Optional.empty();
		}
	}

	/** The {@code beanSpans} field: name, type, start and end, nested {@code children}. */
	private static List<BeanTiming> beans(Object field) {
		if (!(field instanceof List<?> items)) {
			return List.of();
		}
		try {
			List<BeanTiming> beans = new ArrayList<>();
			for (Object item : items) {
				Map<?, ?> bean = (Map<?, ?>) item;
				beans.add(new BeanTiming((String) bean.get("name"), text(bean.get("type")),
						((Number) bean.get("startEpochNs")).longValue(), ((Number) bean.get("endEpochNs")).longValue(),
						beans(bean.get("children"))));
			}
			return beans;
		}
		catch (RuntimeException ex) {
			return List.of();
		}
	}

	/** A JSON string, or null: without Jackson, Boot's basic parser reads {@code null} as text. */
	private static String text(Object value) {
		return (value instanceof String text && !"null".equals(text)) ? text : null;
	}

	/**
	 * What a server reported about its own startup.
	 *
	 * @param stages its contiguous stages
	 * @param readyEpochNs when it reached {@code application_ready}
	 * @param beans its slow beans, empty when it reported none
	 */
	record Timeline(List<Stage> stages, long readyEpochNs, List<BeanTiming> beans) {

	}

}
