package io.github.startuptelemetry.supervisor;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.boot.json.JsonParserFactory;

import io.github.startuptelemetry.report.BeanTiming;
import io.github.startuptelemetry.timeline.Stage;

/**
 * Reads a ready server's own stages (and slow beans, when it reports them as
 * {@code beanSpans}) from its {@code /actuator/startuptimeline} endpoint, for the report. A
 * server without the endpoint, or with anything unexpected there, just has no stages; beans
 * that cannot be read are left out: never an error.
 */
final class TimelineClient {

	private final HttpClient http;

	private final Duration timeout;

	private final Duration retryInterval;

	TimelineClient(HttpClient http, SupervisorProperties.Probe settings) {
		this.http = http;
		this.timeout = settings.getTimeout();
		this.retryInterval = settings.getInitialInterval();
	}

	/**
	 * The server's timeline; asks again (for up to one probe timeout) while the server says it
	 * is not ready yet, as one whose health URL is not a readiness check may.
	 */
	Optional<Timeline> fetch(URI uri) throws InterruptedException {
		long deadline = System.nanoTime() + this.timeout.toNanos();
		while (true) {
			Map<String, Object> body = body(uri);
			if (body == null) {
				return Optional.empty();
			}
			if ("true".equals(String.valueOf(body.get("ready")))) {
				return timeline(body);
			}
			if (System.nanoTime() > deadline) {
				return Optional.empty();
			}
			Thread.sleep(Math.max(1, this.retryInterval.toMillis()));
		}
	}

	private Map<String, Object> body(URI uri) throws InterruptedException {
		try {
			HttpResponse<String> response = this.http.send(HealthProbe.request(uri, this.timeout),
					HttpResponse.BodyHandlers.ofString());
			return (response.statusCode() == 200) ? JsonParserFactory.getJsonParser().parseMap(response.body()) : null;
		}
		catch (IOException | RuntimeException ex) {
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
