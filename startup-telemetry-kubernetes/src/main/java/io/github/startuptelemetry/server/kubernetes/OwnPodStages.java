package io.github.startuptelemetry.server.kubernetes;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.KubernetesAttributes;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.kubernetes.internal.InCluster;
import io.github.startuptelemetry.kubernetes.internal.KubernetesClients;
import io.github.startuptelemetry.kubernetes.internal.PodTimes;
import io.github.startuptelemetry.lifecycle.internal.OtelListValues;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.internal.PlatformPrelude;
import io.github.startuptelemetry.timeline.internal.PlatformStages;
import io.github.startuptelemetry.timeline.internal.WallClock;

/**
 * This server's own pod and its events, read once after ready on the reporter's thread, so that
 * its stages go ahead of the JVM's ({@link PodTimes#ahead}), its container's start read from
 * {@code /proc} where it agrees with the pod's status. One bounded request of each, no retry;
 * whatever stands in the way is said once, at INFO, and the server's own stages are reported as
 * they are.
 */
final class OwnPodStages implements PlatformPrelude {

	private static final Log logger = LogFactory.getLog(OwnPodStages.class);

	private static final String DOCS = " (docs/kubernetes.md)";

	private final Map<String, String> env;

	private final Duration timeout;

	private final Supplier<PodTimes.@Nullable Boundary> containerStart;

	private final AtomicBoolean said = new AtomicBoolean();

	/**
	 * @param env this process's environment
	 * @param timeout how long connecting and each request may take: the report waits for them
	 */
	OwnPodStages(Map<String, String> env, Duration timeout) {
		this(env, timeout, () -> new ContainerStart(Path.of("/proc")).read(WallClock.nowNs()));
	}

	/** @param containerStart when this container's first process started, read when asked */
	OwnPodStages(Map<String, String> env, Duration timeout, Supplier<PodTimes.@Nullable Boundary> containerStart) {
		this.env = Map.copyOf(env);
		this.timeout = timeout;
		this.containerStart = containerStart;
	}

	@Override
	public PlatformStages read(List<Stage> own) {
		try {
			String notInPod = InCluster.notDetected(this.env);
			String namespace = InCluster.namespace(this.env);
			String name = InCluster.podName(this.env);
			if (notInPod != null || namespace == null || name == null) {
				leftOut((notInPod != null) ? "not in a pod with a service account: " + notInPod
						: "the pod's " + ((namespace == null) ? "namespace (service account)" : "name") + " is unknown");
				return PlatformStages.none(own);
			}
			try (KubernetesClient client = KubernetesClients.create(this.timeout, 0)) {
				Pod pod = pod(client, namespace, name);
				if (pod == null) {
					return PlatformStages.none(own);
				}
				String container = container(pod);
				PodTimes times = PodTimes.of(pod, events(client, pod), container, null,
						this.containerStart.get());
				if (!times.started()) {
					leftOut("container '" + container + "' of pod " + namespace + "/" + name
							+ " has no start in the pod's status");
				}
				return times.ahead(own);
			}
		}
		catch (RuntimeException | LinkageError ex) {
			leftOut("could not read the pod: " + KubernetesClients.describe(ex));
			return PlatformStages.none(own);
		}
	}

	private @Nullable Pod pod(KubernetesClient client, String namespace, String name) {
		try {
			Pod pod = client.pods().inNamespace(namespace).withName(name).get();
			if (pod == null) {
				leftOut("pod " + namespace + "/" + name + " not found");
			}
			return pod;
		}
		catch (RuntimeException ex) {
			leftOut(KubernetesClients.forbidden(ex)
					? "the service account may not get pod " + namespace + "/" + name + " ("
							+ KubernetesClients.describe(ex) + "); grant it get on pods" + DOCS
					: "could not read pod " + namespace + "/" + name + ": " + KubernetesClients.describe(ex));
			return null;
		}
	}

	/** The pod's events, when the service account may list them; else none, said once. */
	private List<Event> events(KubernetesClient client, Pod pod) {
		try {
			return client.v1()
				.events()
				.inNamespace(pod.getMetadata().getNamespace())
				.withInvolvedObject(new ObjectReferenceBuilder().withUid(pod.getMetadata().getUid()).build())
				.list()
				.getItems();
		}
		catch (RuntimeException ex) {
			if (logger.isDebugEnabled()) {
				logger.debug("Pod events not read, so the pod's stages leave out the image pull and the scheduler's "
						+ "microsecond time: " + (KubernetesClients.forbidden(ex)
								? "the service account may not list events (" + KubernetesClients.describe(ex)
										+ "); grant it list on events" + DOCS
								: KubernetesClients.describe(ex)));
			}
			return List.of();
		}
	}

	/**
	 * This server's container: the one {@code OTEL_RESOURCE_ATTRIBUTES} names (the launcher's, or
	 * the OpenTelemetry Operator's), when the pod has it; else the pod's default container (said:
	 * the name came from elsewhere, a supervisor's, say).
	 */
	private @Nullable String container(Pod pod) {
		String attributes = this.env.get(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES);
		String named = (attributes != null)
				? OtelListValues.parsePairs(attributes).pairs().get(KubernetesAttributes.CONTAINER_NAME) : null;
		List<String> containers = PodTimes.containers(pod);
		if (named != null && !containers.contains(named)) {
			String fallback = PodTimes.container(pod, null);
			say("k8s.container.name=" + named + " (OTEL_RESOURCE_ATTRIBUTES) is no container of pod "
					+ pod.getMetadata().getName() + " (its containers: " + String.join(", ", containers)
					+ "): its stages are read for container '" + fallback + "'; is the name inherited from another pod?");
			return fallback;
		}
		return named;
	}

	private void leftOut(String why) {
		say("Pod stages left out, the JVM's stages are reported as they are: " + why);
	}

	/** Said once, at INFO: a server in a pod that cannot read its pod is worth one line, never more. */
	private void say(String line) {
		if (this.said.compareAndSet(false, true)) {
			logger.info(line);
		}
	}

}
