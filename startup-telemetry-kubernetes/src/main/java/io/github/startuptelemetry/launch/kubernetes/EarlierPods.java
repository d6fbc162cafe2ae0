package io.github.startuptelemetry.launch.kubernetes;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.KubernetesLabels;
import io.github.startuptelemetry.kubernetes.internal.KubernetesClients;

/**
 * The clean-up of pods that supervisor processes which are gone left in the namespace, whatever
 * their supervisor's name: a process is gone when the pod it ran in is gone, failed (evicted) or
 * is this supervisor's own (its earlier process), or, outside a pod, when its lease ran out. A
 * process that still runs keeps its pods, even of the same name; one whose lease is current but
 * may have died is checked again once the lease had time to run out.
 */
final class EarlierPods {

	private static final Log logger = KubernetesLauncherLog.get();

	private EarlierPods() {
	}

	/**
	 * What a clean-up did.
	 *
	 * @param deleted the pods it deleted
	 * @param alive the instances it left alone on their lease alone, to be checked again
	 */
	record Sweep(List<String> deleted, List<LiveInstance> alive) {

	}

	/**
	 * A supervisor instance whose lease was current when seen.
	 *
	 * @param instance its id
	 * @param resourceVersion its lease's version then
	 * @param duration its lease's duration
	 */
	record LiveInstance(String instance, String resourceVersion, Duration duration) {

	}

	/**
	 * Delete the pods of every other supervisor instance in {@code namespace} that is gone.
	 * @param instance this process's instance (its pods are never looked at)
	 * @param self this supervisor's pod, or {@code null} outside the cluster
	 */
	static Sweep cleanUp(KubernetesClient client, ApiRequests requests, String namespace, String instance,
			@Nullable Pod self, long graceSeconds) {
		List<Pod> managed = requests.call(() -> client.pods()
			.inNamespace(namespace)
			.withLabel(KubernetesLabels.MANAGED_BY, KubernetesLabels.MANAGED_BY_VALUE)
			.withoutLabel(KubernetesLabels.INSTANCE, instance)
			.list()
			.getItems());
		Map<String, List<Pod>> byInstance = new LinkedHashMap<>();
		for (Pod pod : managed) {
			String other = pod.getMetadata().getLabels().get(KubernetesLabels.INSTANCE);
			if (other != null) {
				byInstance.computeIfAbsent(other, (key) -> new ArrayList<>()).add(pod);
			}
		}
		List<String> deleted = new ArrayList<>();
		List<LiveInstance> alive = new ArrayList<>();
		byInstance.forEach((other, pods) -> {
			Verdict verdict = verdict(client, requests, namespace, other, pods.get(0), self);
			if (verdict.gone()) {
				deleted.addAll(delete(client, requests, namespace, other, pods, graceSeconds, verdict.why()));
			}
			else {
				logger.info("Left " + pods.size() + " pod(s) of supervisor instance " + other + describeSupervisor(pods)
						+ " alone: " + verdict.why());
				if (verdict.live() != null) {
					alive.add(verdict.live());
				}
			}
		});
		return new Sweep(deleted, alive);
	}

	/**
	 * Check {@code live} again, once its lease had the time to run out: unrenewed since, its
	 * process is gone and its pods are deleted.
	 * @return the pods deleted
	 */
	static List<String> recheck(KubernetesClient client, ApiRequests requests, String namespace, LiveInstance live,
			long graceSeconds) {
		Lease lease = requests.call(() -> client.leases().inNamespace(namespace).withName(SupervisorLease.name(live.instance()))
			.get());
		if (lease != null && !live.resourceVersion().equals(lease.getMetadata().getResourceVersion())) {
			return List.of();
		}
		List<Pod> pods = requests.call(() -> client.pods().inNamespace(namespace)
			.withLabel(KubernetesLabels.INSTANCE, live.instance())
			.list()
			.getItems());
		if (pods.isEmpty()) {
			return List.of();
		}
		return delete(client, requests, namespace, live.instance(), pods, graceSeconds,
				(lease != null) ? "its lease was not renewed in " + live.duration().toSeconds() + " s" : "its lease is gone");
	}

	private static List<String> delete(KubernetesClient client, ApiRequests requests, String namespace, String instance,
			List<Pod> pods, long graceSeconds, String why) {
		try {
			// one request for all of them (RBAC's deletecollection); the lease of a process that is gone goes too
			requests.run(() -> client.pods().inNamespace(namespace).withLabel(KubernetesLabels.INSTANCE, instance)
				.withGracePeriod(graceSeconds)
				.delete());
			requests.run(() -> client.leases().inNamespace(namespace).withName(SupervisorLease.name(instance)).delete());
		}
		catch (RuntimeException ex) {
			if (!KubernetesClients.notFound(ex)) {
				logger.warn("Could not delete the pods supervisor instance " + instance + " left in namespace '" + namespace
						+ "': " + KubernetesClients.describe(ex));
				return List.of();
			}
		}
		List<String> names = pods.stream().map((pod) -> pod.getMetadata().getName()).toList();
		logger.info("Deleted " + names.size() + " pod(s) supervisor instance " + instance + describeSupervisor(pods)
				+ " left in namespace '" + namespace + "' (" + why + "): " + String.join(", ", names));
		return names;
	}

	private static String describeSupervisor(List<Pod> pods) {
		String name = pods.get(0).getMetadata().getLabels().get(KubernetesLabels.SUPERVISOR);
		return (name != null) ? " (supervisor '" + name + "')" : "";
	}

	/** Whether supervisor instance {@code other}, whose pods include {@code pod}, is gone, and why. */
	private static Verdict verdict(KubernetesClient client, ApiRequests requests, String namespace, String other, Pod pod,
			@Nullable Pod self) {
		for (OwnerReference owner : pod.getMetadata().getOwnerReferences()) {
			if (!"Pod".equals(owner.getKind())) {
				continue;
			}
			if (self != null && self.getMetadata().getUid().equals(owner.getUid())) {
				return new Verdict(true, "it ran in this supervisor's own pod, whose process it was before this one", null);
			}
			try {
				Pod running = requests.call(() -> client.pods().inNamespace(namespace).withName(owner.getName()).get());
				if (running == null || !owner.getUid().equals(running.getMetadata().getUid())) {
					return new Verdict(true, "its pod " + owner.getName() + " is gone", null);
				}
				String phase = (running.getStatus() != null) ? running.getStatus().getPhase() : null;
				if ("Failed".equals(phase) || "Succeeded".equals(phase)) {
					String reason = running.getStatus().getReason();
					return new Verdict(true, "its pod " + owner.getName() + " " + ("Failed".equals(phase) ? "failed" : "completed")
							+ ((reason != null) ? ": " + reason : ""), null);
				}
				if (running.getMetadata().getDeletionTimestamp() != null) {
					return new Verdict(true, "its pod " + owner.getName() + " is being deleted", null);
				}
				return new Verdict(false, "its pod " + owner.getName() + " runs", null);
			}
			catch (RuntimeException ex) {
				// unreadable: the lease decides
				logger.debug("Could not read pod " + owner.getName() + ": " + KubernetesClients.describe(ex));
			}
		}
		Lease lease = requests.call(() -> client.leases().inNamespace(namespace).withName(SupervisorLease.name(other)).get());
		if (lease == null || lease.getSpec() == null || lease.getSpec().getRenewTime() == null) {
			return new Verdict(true, "it holds no lease", null);
		}
		int seconds = (lease.getSpec().getLeaseDurationSeconds() != null) ? lease.getSpec().getLeaseDurationSeconds() : 30;
		Duration duration = Duration.ofSeconds(seconds);
		ZonedDateTime renewed = lease.getSpec().getRenewTime();
		// the renewal is on the other host's clock: run out by a whole duration more, it is gone whatever the skew
		if (renewed.plus(duration.multipliedBy(2)).isBefore(SupervisorLease.now())) {
			return new Verdict(true, "its lease ran out: last renewed " + renewed.toInstant(), null);
		}
		return new Verdict(false, "its lease was renewed at " + renewed.toInstant() + " (it is checked again once "
				+ seconds + " s have passed)", new LiveInstance(other, lease.getMetadata().getResourceVersion(), duration));
	}

	private record Verdict(boolean gone, String why, @Nullable LiveInstance live) {

	}

}
