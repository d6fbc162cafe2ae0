package io.github.startuptelemetry.it.support.kubernetes;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The simulated garbage collector, for pods owned by pods: once an owner is gone from the API
 * (deleted, not merely {@code Failed}: the real one never looks at a phase), its dependants are
 * deleted (background propagation), and so is a dependant created for an owner already gone.
 */
final class GarbageCollector implements AutoCloseable {

	private final KubernetesClient client;

	/** The pods there are, by uid. */
	private final Map<String, String> live = new ConcurrentHashMap<>();

	private final SharedIndexInformer<Pod> informer;

	GarbageCollector(KubernetesClient client) {
		this.client = client;
		this.informer = client.pods().inNamespace(SimulatedApiServer.NAMESPACE).inform(new ResourceEventHandler<>() {

			@Override
			public void onAdd(Pod pod) {
				GarbageCollector.this.live.put(pod.getMetadata().getUid(), pod.getMetadata().getName());
				for (OwnerReference owner : pod.getMetadata().getOwnerReferences()) {
					if ("Pod".equals(owner.getKind()) && !GarbageCollector.this.live.containsKey(owner.getUid())
							&& gone(owner)) {
						delete(pod);
					}
				}
			}

			@Override
			public void onUpdate(Pod old, Pod pod) {
			}

			@Override
			public void onDelete(Pod pod, boolean unknown) {
				String uid = pod.getMetadata().getUid();
				GarbageCollector.this.live.remove(uid);
				for (Pod dependant : GarbageCollector.this.informer.getStore().list()) {
					if (dependant.getMetadata().getOwnerReferences().stream()
						.anyMatch((owner) -> uid.equals(owner.getUid()))) {
						delete(dependant);
					}
				}
			}

		});
	}

	/** Whether {@code owner} is not in the API (by name and uid), as the real collector checks before it deletes. */
	private boolean gone(OwnerReference owner) {
		Pod current = this.client.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(owner.getName()).get();
		return current == null || !owner.getUid().equals(current.getMetadata().getUid());
	}

	private void delete(Pod pod) {
		try {
			this.client.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(pod.getMetadata().getName()).delete();
		}
		catch (KubernetesClientException ex) {
			// gone already
		}
	}

	@Override
	public void close() {
		this.informer.close();
		this.client.close();
	}

}
