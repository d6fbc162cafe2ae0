package io.github.startuptelemetry.launch.kubernetes;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.kubernetes.internal.KubernetesClients;
import io.github.startuptelemetry.kubernetes.internal.PodWaits;

/**
 * The events of the namespace, from one watch (an informer), indexed by the object they are
 * about: each pod's {@code Scheduled} and {@code Pulled} events and its warnings without a list
 * request per pod. Best-effort: a supervisor that may not watch events says so once and goes on
 * without them.
 */
final class PodEvents implements AutoCloseable {

	private static final Log logger = KubernetesLauncherLog.get();

	private static final String BY_UID = "involvedObject.uid";

	/** How long a pod's timing waits for the watch of events to catch up with the watch of pods. */
	static final Duration CATCH_UP = Duration.ofSeconds(2);

	private final @Nullable SharedIndexInformer<Event> informer;

	/** Who waits for which pod's event, by the pod's uid. */
	private final Map<String, List<Waiter>> waiters = new ConcurrentHashMap<>();

	private PodEvents(@Nullable SharedIndexInformer<Event> informer) {
		this.informer = informer;
	}

	/** No events: before the watch starts, or when it may not. */
	static PodEvents none() {
		return new PodEvents(null);
	}

	/** Watch the events of {@code namespace}; none when they may not be watched (said once). */
	static PodEvents watch(KubernetesClient client, String namespace) {
		SharedIndexInformer<Event> informer = client.v1().events().inNamespace(namespace).runnableInformer(0);
		try {
			informer.addIndexers(Map.of(BY_UID, (event) -> (event.getInvolvedObject() != null
					&& event.getInvolvedObject().getUid() != null) ? List.of(event.getInvolvedObject().getUid()) : List.of()));
			PodEvents watching = new PodEvents(informer);
			informer.addEventHandler(new ResourceEventHandler<>() {

				@Override
				public void onAdd(Event event) {
					watching.arrived(event);
				}

				@Override
				public void onUpdate(Event old, Event event) {
					watching.arrived(event);
				}

				@Override
				public void onDelete(Event event, boolean finalStateUnknown) {
				}

			});
			// blocks until the first list is in, and throws when it is refused
			informer.run();
			return watching;
		}
		catch (RuntimeException ex) {
			informer.close();
			logger.warn("The supervisor may not watch events in namespace '" + namespace + "' ("
					+ KubernetesClients.describe(ex) + "): the servers' pod stages leave out the image pulls and the "
					+ "scheduler's microsecond times, and a timeout cannot name a pod's warnings; grant list and watch "
					+ "on events (docs/kubernetes.md)");
			return none();
		}
	}

	/** The events about {@code pod}, oldest first. */
	List<Event> of(Pod pod) {
		SharedIndexInformer<Event> informer = this.informer;
		String uid = (pod.getMetadata() != null) ? pod.getMetadata().getUid() : null;
		if (informer == null || uid == null) {
			return List.of();
		}
		List<Event> events = new ArrayList<>(informer.getIndexer().byIndex(BY_UID, uid));
		events.sort(Comparator.comparing(PodEvents::lastSeen, Comparator.nullsFirst(Comparator.naturalOrder())));
		return events;
	}

	/**
	 * When {@code event} was last seen: its series' last observation (microseconds), else its last
	 * timestamp (whole seconds), its event time, its creation; {@code null} when it has none that parses.
	 */
	static @Nullable Instant lastSeen(Event event) {
		List<String> candidates = new ArrayList<>();
		if (event.getSeries() != null && event.getSeries().getLastObservedTime() != null) {
			candidates.add(event.getSeries().getLastObservedTime().getTime());
		}
		candidates.add(event.getLastTimestamp());
		if (event.getEventTime() != null) {
			candidates.add(event.getEventTime().getTime());
		}
		candidates.add((event.getMetadata() != null) ? event.getMetadata().getCreationTimestamp() : null);
		for (String candidate : candidates) {
			if (candidate != null && !candidate.isBlank()) {
				try {
					return OffsetDateTime.parse(candidate).toInstant();
				}
				catch (DateTimeParseException ex) {
					// not a time the API writes: the next one
				}
			}
		}
		return null;
	}

	/**
	 * Completes once an event about {@code pod} that {@code wanted} accepts is here, or after
	 * {@link #CATCH_UP}: the watch of events and the watch of pods do not keep pace with each other.
	 */
	CompletableFuture<Void> awaitEvent(Pod pod, Predicate<Event> wanted) {
		String uid = (pod.getMetadata() != null) ? pod.getMetadata().getUid() : null;
		if (this.informer == null || uid == null) {
			return CompletableFuture.completedFuture(null);
		}
		Waiter waiter = new Waiter(wanted, new CompletableFuture<>());
		this.waiters.computeIfAbsent(uid, (key) -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(waiter);
		if (of(pod).stream().anyMatch(wanted)) {
			waiter.done().complete(null);
		}
		waiter.done().whenComplete((done, error) -> {
			List<Waiter> left = this.waiters.get(uid);
			if (left != null) {
				left.remove(waiter);
			}
		});
		return waiter.done().completeOnTimeout(null, CATCH_UP.toMillis(), TimeUnit.MILLISECONDS);
	}

	private void arrived(Event event) {
		String uid = (event.getInvolvedObject() != null) ? event.getInvolvedObject().getUid() : null;
		List<Waiter> waiting = (uid != null) ? this.waiters.get(uid) : null;
		if (waiting != null) {
			for (Waiter waiter : waiting) {
				if (waiter.wanted().test(event)) {
					waiter.done().complete(null);
				}
			}
		}
	}

	/**
	 * The pod's last warnings, newest first, each once, e.g. {@code FailedMount ×3: ...} (one reason
	 * may say several things: the kubelet's {@code Failed} is both the pull's error and
	 * {@code Error: ImagePullBackOff}).
	 */
	String warnings(Pod pod, int most) {
		List<Event> warnings = new ArrayList<>(of(pod).stream().filter((event) -> "Warning".equals(event.getType())).toList());
		java.util.Collections.reverse(warnings);
		List<String> said = new ArrayList<>();
		java.util.Set<String> reasons = new java.util.HashSet<>();
		for (Event event : warnings) {
			if (said.size() < most && reasons.add(event.getReason() + "\n" + String.valueOf(event.getMessage()).strip())) {
				int count = PodWaits.count(event);
				said.add(event.getReason() + ((count > 1) ? " ×" + count : "") + ": "
						+ String.valueOf(event.getMessage()).strip());
			}
		}
		return String.join("; ", said);
	}

	@Override
	public void close() {
		if (this.informer != null) {
			this.informer.close();
		}
	}

	private record Waiter(Predicate<Event> wanted, CompletableFuture<Void> done) {

	}

}
