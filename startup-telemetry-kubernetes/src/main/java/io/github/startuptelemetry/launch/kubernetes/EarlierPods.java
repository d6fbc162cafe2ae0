package io.github.startuptelemetry.launch.kubernetes;

import java.util.ArrayList;
import java.util.List;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.KubernetesLabels;
import io.github.startuptelemetry.kubernetes.internal.KubernetesClients;

/**
 * The clean-up at start: the pods an earlier run of this supervisor left are deleted before any
 * new one is created, so that a supervisor killed, crashed or outside the cluster leaves nothing
 * behind past its next start.
 */
final class EarlierPods {

	private static final Log logger = KubernetesLauncherLog.get();

	private EarlierPods() {
	}

	/**
	 * Delete them.
	 * @param self this supervisor's pod, or {@code null} outside the cluster
	 * @return the names of the pods deleted
	 */
	static List<String> cleanUp(KubernetesClient client, String namespace, String supervisorName, String instance,
			@Nullable Pod self, long graceSeconds) {
		List<Pod> earlier = client.pods()
			.inNamespace(namespace)
			.withLabel(KubernetesLabels.MANAGED_BY, KubernetesLabels.MANAGED_BY_VALUE)
			.withLabel(KubernetesLabels.SUPERVISOR, supervisorName)
			.withoutLabel(KubernetesLabels.INSTANCE, instance)
			.list()
			.getItems();
		List<String> deleted = new ArrayList<>();
		List<String> kept = new ArrayList<>();
		for (Pod pod : earlier) {
			String name = pod.getMetadata().getName();
			String liveOwner = liveOwner(client, namespace, pod, self);
			if (liveOwner != null) {
				kept.add(name + " (owned by running pod " + liveOwner + ")");
				continue;
			}
			try {
				client.pods().inNamespace(namespace).withName(name).withGracePeriod(graceSeconds).delete();
				deleted.add(name);
			}
			catch (RuntimeException ex) {
				if (!KubernetesClients.notFound(ex)) {
					logger.warn("Could not delete pod " + namespace + "/" + name + " an earlier run left: "
							+ KubernetesClients.describe(ex));
				}
			}
		}
		if (!deleted.isEmpty()) {
			logger.info("Deleted " + deleted.size() + " pod(s) an earlier run of supervisor '" + supervisorName
					+ "' left in namespace '" + namespace + "': " + String.join(", ", deleted));
		}
		if (!kept.isEmpty()) {
			logger.warn("Left " + kept.size() + " pod(s) labelled for supervisor '" + supervisorName + "' alone, another "
					+ "supervisor of that name runs (give each its own " + KubernetesProperties.PREFIX
					+ ".supervisor-name): " + String.join(", ", kept));
		}
		return deleted;
	}

	/** The name of the pod's owner when that owner is another supervisor pod that still runs, else {@code null}. */
	private static @Nullable String liveOwner(KubernetesClient client, String namespace, Pod pod, @Nullable Pod self) {
		for (OwnerReference owner : pod.getMetadata().getOwnerReferences()) {
			if (!"Pod".equals(owner.getKind())
					|| (self != null && self.getMetadata().getUid().equals(owner.getUid()))) {
				continue;
			}
			try {
				Pod running = client.pods().inNamespace(namespace).withName(owner.getName()).get();
				if (running != null && owner.getUid().equals(running.getMetadata().getUid())
						&& running.getMetadata().getDeletionTimestamp() == null) {
					return owner.getName();
				}
			}
			catch (RuntimeException ex) {
				// unreadable: taken for gone, as the garbage collector would
			}
		}
		return null;
	}

}
