package io.github.startuptelemetry.launch.kubernetes;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.KubernetesLabels;
import io.github.startuptelemetry.kubernetes.internal.KubernetesClients;

/**
 * This supervisor process's lease in the namespace ({@code coordination.k8s.io/v1}), named after
 * its instance and renewed every third of its duration while it runs: what tells another
 * supervisor's clean-up that this process's pods are not left behind. Deleted when it closes; a
 * process that dies stops renewing it, and once it has run out its pods are taken for orphans.
 */
final class SupervisorLease implements AutoCloseable {

	private static final Log logger = KubernetesLauncherLog.get();

	/** The prefix of every supervisor lease's name: the instance follows. */
	static final String PREFIX = "startup-telemetry-";

	private final KubernetesClient client;

	private final ApiRequests requests;

	private final String namespace;

	private final String name;

	private final Duration duration;

	private final AtomicBoolean failingSaid = new AtomicBoolean();

	private volatile @Nullable ScheduledFuture<?> renewing;

	/** The lease as last written: renewed with its version (an update, as leader election does it). */
	private volatile @Nullable Lease current;

	private SupervisorLease(KubernetesClient client, ApiRequests requests, String namespace, String name,
			Duration duration) {
		this.client = client;
		this.requests = requests;
		this.namespace = namespace;
		this.name = name;
		this.duration = duration;
	}

	/** The lease name of supervisor instance {@code instance}. */
	static String name(String instance) {
		return PREFIX + instance;
	}

	/**
	 * Take the lease of this process (before it creates any pod) and renew it on {@code timer}.
	 * @throws RuntimeException when it cannot be created (the API's answer: no permission, say)
	 */
	static SupervisorLease take(KubernetesClient client, ApiRequests requests, String namespace, String supervisorName,
			String instance, Duration duration, ScheduledExecutorService timer) {
		SupervisorLease lease = new SupervisorLease(client, requests, namespace, name(instance), duration);
		ZonedDateTime now = now();
		lease.current = requests.call(() -> client.leases().inNamespace(namespace).resource(new LeaseBuilder().withNewMetadata()
			.withName(lease.name)
			.addToLabels(KubernetesLabels.MANAGED_BY, KubernetesLabels.MANAGED_BY_VALUE)
			.addToLabels(KubernetesLabels.SUPERVISOR, supervisorName)
			.addToLabels(KubernetesLabels.INSTANCE, instance)
			.endMetadata()
			.withNewSpec()
			.withHolderIdentity(instance)
			.withLeaseDurationSeconds((int) duration.toSeconds())
			.withAcquireTime(now)
			.withRenewTime(now)
			.endSpec()
			.build()).create());
		long every = Math.max(1000, duration.toMillis() / 3);
		lease.renewing = timer.scheduleWithFixedDelay(lease::renew, every, every, TimeUnit.MILLISECONDS);
		return lease;
	}

	/**
	 * Renew it now (an update of the version last written; on a conflict, of the one read again);
	 * said once when it cannot be, since its pods may then be taken for orphans.
	 */
	void renew() {
		try {
			Lease renewed;
			try {
				renewed = update(this.current);
			}
			catch (KubernetesClientException ex) {
				if (ex.getCode() != 409 && ex.getCode() != 404) {
					throw ex;
				}
				renewed = update(null);
			}
			this.current = renewed;
			if (this.failingSaid.compareAndSet(true, false)) {
				logger.info("Lease " + this.namespace + "/" + this.name + " renewed again");
			}
		}
		catch (RuntimeException ex) {
			if (this.failingSaid.compareAndSet(false, true)) {
				logger.warn("Could not renew lease " + this.namespace + "/" + this.name + " (" + KubernetesClients.describe(ex)
						+ "): once " + this.duration.toSeconds() + " s pass without a renewal, another supervisor's "
						+ "clean-up takes this one's pods for orphans and deletes them");
			}
		}
	}

	/** {@code lease} (read now when {@code null}) renewed; a lease someone deleted is a failure to renew (said once). */
	private Lease update(@Nullable Lease lease) {
		Lease base = (lease != null) ? lease
				: this.requests.call(() -> this.client.leases().inNamespace(this.namespace).withName(this.name).get());
		if (base == null) {
			throw new KubernetesClientException("lease " + this.name + " was deleted by someone else", 404, null);
		}
		Lease renewed = new LeaseBuilder(base).editSpec().withRenewTime(now()).endSpec().build();
		return this.requests.call(() -> this.client.leases().inNamespace(this.namespace).resource(renewed).update());
	}

	/** Stop renewing it and delete it: this process's pods are gone. */
	@Override
	public void close() {
		ScheduledFuture<?> renewing = this.renewing;
		if (renewing != null) {
			renewing.cancel(false);
		}
		try {
			this.requests.run(() -> this.client.leases().inNamespace(this.namespace).withName(this.name).delete());
		}
		catch (RuntimeException ex) {
			logger.debug("Could not delete lease " + this.namespace + "/" + this.name + ": " + KubernetesClients.describe(ex));
		}
	}

	String name() {
		return this.name;
	}

	/** Now as a lease keeps it: microseconds ({@code metav1.MicroTime}). */
	static ZonedDateTime now() {
		return ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
	}

}
