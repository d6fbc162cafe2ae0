package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A process's first {@code 200}, as the startup benchmark measures it: polled until it comes; fails
 * when the process exits first or the timeout passes.
 */
public final class FirstResponse {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build();

	private FirstResponse() {
	}

	/** Poll {@code uri} until it answers {@code 200}. */
	public static void await(JavaProcess process, URI uri, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			try {
				if (HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(1)).build(),
						HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
					return;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			if (!process.process().isAlive() || System.nanoTime() > deadline) {
				throw new AssertionError(uri + " did not answer 200 (alive: " + process.process().isAlive() + "):\n"
						+ process.log());
			}
			// another process: poll, bounded by its exit and the deadline
			process.process().waitFor(20, TimeUnit.MILLISECONDS);
		}
	}

}
