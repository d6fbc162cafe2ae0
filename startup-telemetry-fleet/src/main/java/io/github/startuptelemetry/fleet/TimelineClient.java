package io.github.startuptelemetry.fleet;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.fleet.ProbeClient.Reply;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.TimelineJson;

/**
 * Reads a ready server's own timeline from its {@code /actuator/startuptimeline} endpoint, for the
 * report, through the probing's {@link ProbeClient}, bounded, with the starter's own
 * {@link JsonText}. A server without the endpoint, or with anything unexpected there, just has no
 * stages: never an error.
 */
final class TimelineClient {

	/** A timeline with a thousand slow beans is some 300 KB: anything much longer is not one. */
	static final int MAX_BODY = 4 << 20;

	private final ProbeClient client;

	private final ProbeLoop loop;

	private final Duration timeout;

	private final long retryIntervalMs;

	public TimelineClient(ProbeClient client, ProbeLoop loop, ProbeSettings settings) {
		this.client = client;
		this.loop = loop;
		this.timeout = settings.timeout();
		this.retryIntervalMs = Math.max(1, settings.initialInterval().toMillis());
	}

	/**
	 * The server's timeline; asks again (for up to one probe timeout) while the server says it
	 * is not ready yet, as one whose health URL is not a readiness check may. Never completes
	 * exceptionally.
	 */
	public CompletableFuture<Optional<ServerTimeline>> fetch(URI uri) {
		CompletableFuture<Optional<ServerTimeline>> timeline = new CompletableFuture<>();
		try {
			attempt(uri, System.nanoTime() + this.timeout.toNanos(), timeline);
		}
		catch (RejectedExecutionException ex) {
			timeline.complete(Optional.empty());
		}
		return timeline;
	}

	private void attempt(URI uri, long deadline, CompletableFuture<Optional<ServerTimeline>> timeline) {
		this.client.get(uri, MAX_BODY, (reply) -> {
			try {
				Map<String, Object> body = body(reply);
				if (body != null && TimelineJson.isReady(body)) {
					timeline.complete(TimelineJson.read(body));
				}
				else if (body == null || System.nanoTime() > deadline) {
					timeline.complete(Optional.empty());
				}
				else {
					this.loop.schedule(() -> attempt(uri, deadline, timeline),
							TimeUnit.MILLISECONDS.toNanos(this.retryIntervalMs));
				}
			}
			catch (RuntimeException ex) {
				// the loop was closed meanwhile, or the body was no timeline
				timeline.complete(Optional.empty());
			}
		});
	}

	private Map<String, Object> body(Reply reply) {
		try {
			return (reply.kind() == ProbeClient.Kind.ANSWERED && reply.status() == 200)
					? JsonText.parseObject(reply.body()) : null;
		}
		catch (RuntimeException ex) {
			// not JSON, or too deeply nested to be a timeline
			return null;
		}
	}

}
