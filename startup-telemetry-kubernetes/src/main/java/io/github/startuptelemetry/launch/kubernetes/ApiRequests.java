package io.github.startuptelemetry.launch.kubernetes;

import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The supervisor's bound on its requests to the API server at once: fabric8's
 * {@code maxConcurrentRequests} applies to its OkHttp client only, the JDK's HTTP client it runs on
 * here has none. Watches are not counted: each holds one stream for as long as it runs.
 */
final class ApiRequests {

	private final Semaphore permits;

	private final int limit;

	ApiRequests(int limit) {
		this.limit = limit;
		this.permits = new Semaphore(limit, true);
	}

	/** Send the request {@code request} makes once a permit is free; its answer. */
	<T> T call(Supplier<T> request) {
		try {
			this.permits.acquire();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new KubernetesClientException("interrupted while waiting to send a request to the API server");
		}
		try {
			return request.get();
		}
		finally {
			this.permits.release();
		}
	}

	/** {@link #call(Supplier)} for a request without an answer. */
	void run(Runnable request) {
		call(() -> {
			request.run();
			return null;
		});
	}

	int limit() {
		return this.limit;
	}

	/** Requests in flight now. */
	int inFlight() {
		return this.limit - this.permits.availablePermits();
	}

}
