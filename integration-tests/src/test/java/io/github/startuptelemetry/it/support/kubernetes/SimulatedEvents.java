package io.github.startuptelemetry.it.support.kubernetes;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.EventSeriesBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The events the simulated control plane writes, shaped as real ones are (k8s-fixtures): the
 * kubelet's legacy events (whole seconds, {@code count} and {@code lastTimestamp} moved on a
 * repeat, {@code source.component: kubelet}, {@code eventTime} null) and the scheduler's new ones
 * ({@code eventTime} in microseconds, no timestamps, no count, a {@code series} on a repeat,
 * {@code reportingComponent: default-scheduler}, an action).
 */
final class SimulatedEvents {

	private final KubernetesClient client;

	/** Each event's name, by what makes a repeat of it the same event: object, field, reason, message. */
	private final Map<String, String> names = new ConcurrentHashMap<>();

	SimulatedEvents(KubernetesClient client) {
		this.client = client;
	}

	/** An event of the kubelet (or another legacy recorder: {@code component}) about {@code pod} or one of its containers. */
	void legacy(Pod pod, String container, String component, String host, String reason, String type, String message) {
		String fieldPath = (container != null) ? "spec.containers{" + container + "}" : null;
		String key = pod.getMetadata().getUid() + "|" + fieldPath + "|" + reason + "|" + message;
		String now = seconds();
		synchronized (this) {
			String existing = this.names.get(key);
			if (existing != null) {
				Event repeated = events().withName(existing).edit((event) -> new EventBuilder(event)
					.withCount(((event.getCount() != null) ? event.getCount() : 1) + 1)
					.withLastTimestamp(now)
					.build());
				if (repeated != null) {
					return;
				}
			}
			String name = name(pod);
			this.names.put(key, name);
			events().resource(base(pod, fieldPath, name, reason, type, message).withCount(1)
				.withFirstTimestamp(now)
				.withLastTimestamp(now)
				.withNewSource()
				.withComponent(component)
				.withHost(host)
				.endSource()
				.withReportingComponent("")
				.withReportingInstance("")
				.build()).create();
		}
	}

	/** An event of the scheduler about {@code pod}: a repeat of the same one moves its series. */
	void scheduler(Pod pod, String node, String reason, String type, String action, String message) {
		String key = pod.getMetadata().getUid() + "|scheduler|" + reason + "|" + message;
		MicroTime now = new MicroTime(Instant.now().truncatedTo(ChronoUnit.MICROS).toString());
		synchronized (this) {
			String existing = this.names.get(key);
			if (existing != null) {
				Event repeated = events().withName(existing).edit((event) -> new EventBuilder(event)
					.withSeries(new EventSeriesBuilder()
						.withCount((event.getSeries() != null) ? event.getSeries().getCount() + 1 : 2)
						.withLastObservedTime(now)
						.build())
					.build());
				if (repeated != null) {
					return;
				}
			}
			String name = name(pod);
			this.names.put(key, name);
			events().resource(base(pod, null, name, reason, type, message).withEventTime(now)
				.withNewSource()
				.endSource()
				.withAction(action)
				.withReportingComponent("default-scheduler")
				.withReportingInstance("default-scheduler-" + node)
				.build()).create();
		}
	}

	private static EventBuilder base(Pod pod, String fieldPath, String name, String reason, String type, String message) {
		return new EventBuilder().withNewMetadata()
			.withName(name)
			.withNamespace(pod.getMetadata().getNamespace())
			.endMetadata()
			.withNewInvolvedObject()
			.withApiVersion("v1")
			.withKind("Pod")
			.withNamespace(pod.getMetadata().getNamespace())
			.withName(pod.getMetadata().getName())
			.withUid(pod.getMetadata().getUid())
			.withFieldPath(fieldPath)
			.endInvolvedObject()
			.withReason(reason)
			.withType(type)
			.withMessage(message);
	}

	private static String name(Pod pod) {
		// as real ones are named: the object's name, then a hex suffix
		return pod.getMetadata().getName() + "." + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
	}

	private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<Event, io.fabric8.kubernetes.api.model.EventList,
			io.fabric8.kubernetes.client.dsl.Resource<Event>> events() {
		return this.client.v1().events().inNamespace(SimulatedApiServer.NAMESPACE);
	}

	/** Now as the API keeps most times: RFC 3339 in whole seconds. */
	static String seconds() {
		return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
	}

}
