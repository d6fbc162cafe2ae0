package io.github.startuptelemetry.supervisor;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Probes a server's health URL until it answers 2xx, with a fast backoff: the first probe
 * {@code initial-interval} after the spawn, then a growing interval (at most
 * {@code max-interval}) while nothing answers. Once the server answers but is not ready yet, it
 * is in its last stages: the interval drops back to {@code initial-interval}.
 */
final class HealthProbe {

	private final HttpClient http;

	private final SupervisorProperties.Probe settings;

	HealthProbe(HttpClient http, SupervisorProperties.Probe settings) {
		this.http = http;
		this.settings = settings;
	}

	/** Whether {@code uri} answered 2xx; false as soon as {@code keepGoing} says stop. */
	boolean awaitHealthy(URI uri, BooleanSupplier keepGoing) throws InterruptedException {
		long initial = Math.max(1, this.settings.getInitialInterval().toMillis());
		long max = Math.max(initial, this.settings.getMaxInterval().toMillis());
		long interval = initial;
		while (true) {
			Thread.sleep(interval);
			if (!keepGoing.getAsBoolean()) {
				return false;
			}
			int status = status(uri);
			if (status >= 200 && status < 300) {
				return true;
			}
			interval = (status > 0) ? initial : Math.min(max, interval + Math.max(1, interval / 2));
		}
	}

	/** The HTTP status of one GET, or 0 when nothing answered. */
	private int status(URI uri) throws InterruptedException {
		try {
			return this.http.send(request(uri, this.settings.getTimeout()), HttpResponse.BodyHandlers.discarding())
				.statusCode();
		}
		catch (IOException ex) {
			return 0;
		}
	}

	static HttpRequest request(URI uri, Duration timeout) {
		return HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
	}

}
