package io.github.startuptelemetry.launch.kubernetes;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.KubernetesLabels;
import io.github.startuptelemetry.contract.StartupEnv;
import io.github.startuptelemetry.internal.DaemonThreads;
import io.github.startuptelemetry.kubernetes.internal.InCluster;
import io.github.startuptelemetry.kubernetes.internal.KubernetesClients;
import io.github.startuptelemetry.kubernetes.internal.PodWaits;
import io.github.startuptelemetry.launch.LaunchRequest;

/**
 * The supervisor's side of the cluster, opened when it starts: the namespace, its own pod (the
 * servers' owner), its lease, the templates kept in ConfigMaps, the clean-up of what processes that
 * are gone left, one watch of the pods this process creates and one of the namespace's events. Its
 * requests go out on a bounded pool, at most {@code max-concurrent-requests} at once; its pods are
 * created in parallel and stopped with one delete by label.
 */
final class SupervisorPods implements ServerPod.Cluster, AutoCloseable {

	private static final Log logger = KubernetesLauncherLog.get();

	/** The most a stop waits for the stopped servers' logs before it deletes their pods. */
	private static final Duration LOGS_BEFORE_STOP = Duration.ofSeconds(10);

	private final KubernetesClient client;

	private final ApiRequests requests;

	private final String namespace;

	private final String container;

	private final long stopGraceSeconds;

	private final String instance;

	private final KubernetesLauncherSettings settings;

	private final boolean inCluster;

	private final PodFactory factory;

	private final Map<String, ServerPod> pods = new ConcurrentHashMap<>();

	private final Set<String> names = new HashSet<>();

	/** The pods' own threads: bounded, as their requests are. */
	private final ThreadPoolExecutor work;

	/** Lease renewals, wait limits, clean-up checks: short tasks at a time. */
	private final ScheduledThreadPoolExecutor timer;

	/** Stopping, one batch at a time. */
	private final ExecutorService stopper = Executors.newSingleThreadExecutor(DaemonThreads.named("kubernetes-stop"));

	private final Queue<ServerPod> toStop = new ConcurrentLinkedQueue<>();

	private final Set<ServerPod> stopAsked = ConcurrentHashMap.newKeySet();

	private final Object deleting = new Object();

	private boolean deletedAll;

	private boolean killedAll;

	private volatile PodEvents events;

	private volatile @Nullable SupervisorLease lease;

	private volatile @Nullable SharedIndexInformer<Pod> informer;

	private SupervisorPods(KubernetesClient client, ApiRequests requests, String namespace,
			KubernetesLauncherSettings settings, boolean inCluster, @Nullable OwnerReference owner,
			@Nullable String callbackHost, Map<String, Pod> configMapTemplates, ScheduledThreadPoolExecutor timer) {
		this.client = client;
		this.requests = requests;
		this.namespace = namespace;
		this.settings = settings;
		this.inCluster = inCluster;
		this.container = settings.properties().getContainerName();
		this.stopGraceSeconds = Math.max(1, (settings.stopTimeout().toMillis() + 999) / 1000);
		this.instance = settings.instance();
		this.timer = timer;
		int threads = Math.min(64, requests.limit());
		this.work = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				DaemonThreads.named("kubernetes-pods"));
		this.work.allowCoreThreadTimeOut(true);
		this.events = PodEvents.none();
		this.factory = new PodFactory(settings.properties(), namespace, settings.supervisorName(), this.instance, owner,
				callbackHost, (reference) -> new PodBuilder(configMapTemplates.get(reference)).build(), settings.env(),
				settings.activeDeadlineSeconds());
	}

	/**
	 * Connect, find this supervisor's own pod, take its lease, read the templates, clean up what
	 * processes that are gone left, and start watching.
	 * @throws IOException when the cluster cannot be used, saying why and what to set
	 */
	static SupervisorPods open(KubernetesLauncherSettings settings) throws IOException {
		KubernetesProperties properties = settings.properties();
		KubernetesClient client = KubernetesClients.create(properties.getApiTimeout(), 1);
		ApiRequests requests = new ApiRequests(properties.getMaxConcurrentRequests());
		ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("kubernetes-timer"));
		timer.setRemoveOnCancelPolicy(true);
		SupervisorPods pods = null;
		try {
			boolean inCluster = InCluster.detected(settings.env());
			Pod self = inCluster ? self(client, settings.env()) : null;
			String namespace = namespace(properties, settings.env(), client);
			OwnerReference owner = owner(self, namespace, properties);
			String callbackHost = (properties.getCallbackHost() != null) ? properties.getCallbackHost()
					: (self != null && self.getStatus() != null) ? self.getStatus().getPodIP() : null;
			if (settings.callbackEnabled() && callbackHost == null && inCluster) {
				throw new IOException("server pods cannot be told where the readiness callback is: the supervisor's "
						+ "own pod IP is unknown; set " + KubernetesProperties.PREFIX + ".callback-host");
			}
			pods = new SupervisorPods(client, requests, namespace, settings, inCluster, owner, callbackHost,
					configMapTemplates(client, namespace, properties), timer);
			pods.lease = lease(client, requests, namespace, settings, timer);
			if (properties.isCleanUpOnStart()) {
				pods.cleanUp(self);
			}
			pods.watch();
			pods.events = PodEvents.watch(client, namespace);
			logger.info("Server pods go to namespace '" + namespace + "'"
					+ ((owner != null) ? ", owned by pod " + owner.getName() : "")
					+ ((callbackHost != null) ? "; they call back at " + callbackHost : "") + "; lease "
					+ pods.lease.name() + ((pods.factory.activeDeadlineSeconds() != null)
							? "; each pod's activeDeadlineSeconds " + pods.factory.activeDeadlineSeconds() : ""));
			if (!inCluster) {
				logger.info("The supervisor runs outside the cluster: it probes each pod at its IP and the pods call it "
						+ "back at " + ((callbackHost != null) ? callbackHost : "its callback address")
						+ "; where pod IPs are not routable from here, run it in the cluster (docs/kubernetes.md)");
			}
			return pods;
		}
		catch (IOException | RuntimeException ex) {
			if (pods != null) {
				pods.close();
			}
			else {
				timer.shutdownNow();
				client.close();
			}
			throw (ex instanceof IOException io) ? io
					: new IOException("the Kubernetes API: " + KubernetesClients.describe(ex), ex);
		}
	}

	private static SupervisorLease lease(KubernetesClient client, ApiRequests requests, String namespace,
			KubernetesLauncherSettings settings, ScheduledThreadPoolExecutor timer) throws IOException {
		try {
			return SupervisorLease.take(client, requests, namespace, settings.supervisorName(), settings.instance(),
					settings.properties().getLeaseDuration(), timer);
		}
		catch (RuntimeException ex) {
			if (!(ex instanceof KubernetesClientException answered) || answered.getCode() <= 0) {
				// the API unreachable: said as such by the caller
				throw ex;
			}
			throw new IOException("the supervisor's lease in namespace '" + namespace + "' could not be created ("
					+ KubernetesClients.describe(ex) + (KubernetesClients.forbidden(ex)
							? "; grant create, get, update and delete on leases (coordination.k8s.io)" : "")
					+ "): without it another supervisor could take this one's pods for orphans", ex);
		}
	}

	/** The clean-up at start, and a second look at each process whose lease was current but may have lapsed. */
	private void cleanUp(@Nullable Pod self) {
		EarlierPods.Sweep sweep = EarlierPods.cleanUp(this.client, this.requests, this.namespace, this.instance, self,
				this.stopGraceSeconds);
		for (EarlierPods.LiveInstance live : sweep.alive()) {
			later(() -> {
				try {
					EarlierPods.recheck(this.client, this.requests, this.namespace, live, this.stopGraceSeconds);
				}
				catch (RuntimeException ex) {
					logger.debug("Could not check supervisor instance " + live.instance() + " again: "
							+ KubernetesClients.describe(ex));
				}
			}, live.duration().plusSeconds(1));
		}
	}

	/**
	 * This supervisor's own pod, or {@code null} (said why) when it may not be read or is not
	 * found; an API it cannot reach fails the supervisor.
	 */
	private static @Nullable Pod self(KubernetesClient client, Map<String, String> env) {
		String namespace = InCluster.namespace(env);
		String name = InCluster.podName(env);
		if (namespace == null || name == null) {
			logger.warn("The supervisor runs in a pod but cannot tell which (no namespace file or pod name): "
					+ "its server pods get no owner reference");
			return null;
		}
		try {
			Pod self = client.pods().inNamespace(namespace).withName(name).get();
			if (self == null) {
				logger.warn("The supervisor's own pod " + namespace + "/" + name + " was not found: its server pods "
						+ "get no owner reference");
			}
			return self;
		}
		catch (RuntimeException ex) {
			if (!KubernetesClients.forbidden(ex)) {
				throw ex;
			}
			logger.warn("The supervisor may not read its own pod " + namespace + "/" + name + " ("
					+ KubernetesClients.describe(ex) + "): its server pods get no owner reference (grant get on pods)");
			return null;
		}
	}

	private static String namespace(KubernetesProperties properties, Map<String, String> env, KubernetesClient client) {
		if (properties.getNamespace() != null) {
			return properties.getNamespace();
		}
		String own = InCluster.detected(env) ? InCluster.namespace(env) : null;
		if (own != null) {
			return own;
		}
		String configured = client.getNamespace();
		return (configured != null && !configured.isBlank()) ? configured : "default";
	}

	/** The supervisor's pod as every server pod's owner, when it can be: same namespace, and wanted. */
	private static @Nullable OwnerReference owner(@Nullable Pod self, String namespace, KubernetesProperties properties) {
		if (self == null || !properties.isOwnerReference()) {
			return null;
		}
		if (!namespace.equals(self.getMetadata().getNamespace())) {
			logger.info("The server pods go to namespace '" + namespace + "', the supervisor runs in '"
					+ self.getMetadata().getNamespace() + "': an owner must be in its dependants' namespace, so "
					+ "they get none (its lease and the clean-up at start still find them)");
			return null;
		}
		// not a controller, and not blocking the owner's deletion (that needs update on pods/finalizers)
		return new OwnerReferenceBuilder().withApiVersion("v1")
			.withKind("Pod")
			.withName(self.getMetadata().getName())
			.withUid(self.getMetadata().getUid())
			.build();
	}

	/** Every template kept in a ConfigMap, read and checked once, by reference. */
	private static Map<String, Pod> configMapTemplates(KubernetesClient client, String namespace,
			KubernetesProperties properties) throws IOException {
		Map<String, String> references = new LinkedHashMap<>();
		if (properties.getPodTemplateConfigMap() != null) {
			references.put(properties.getPodTemplateConfigMap(), KubernetesProperties.PREFIX + ".pod-template-config-map");
		}
		properties.getServers().forEach((server, settings) -> {
			if (settings.getPodTemplateConfigMap() != null) {
				references.putIfAbsent(settings.getPodTemplateConfigMap(),
						KubernetesProperties.PREFIX + ".servers." + server + ".pod-template-config-map");
			}
		});
		Map<String, Pod> templates = new LinkedHashMap<>();
		for (Map.Entry<String, String> reference : references.entrySet()) {
			String[] nameAndKey = PodTemplates.configMap(reference.getKey());
			String where = reference.getValue() + "=" + reference.getKey() + ": ConfigMap " + namespace + "/"
					+ nameAndKey[0];
			ConfigMap map;
			try {
				map = client.configMaps().inNamespace(namespace).withName(nameAndKey[0]).get();
			}
			catch (RuntimeException ex) {
				throw new IOException(where + " could not be read (" + KubernetesClients.describe(ex)
						+ (KubernetesClients.forbidden(ex) ? "; grant get on configmaps" : "") + ")", ex);
			}
			String yaml = (map != null && map.getData() != null) ? map.getData().get(nameAndKey[1]) : null;
			if (yaml == null) {
				throw new IOException(where + ((map == null) ? " does not exist" : " has no key '" + nameAndKey[1] + "'"));
			}
			try {
				templates.put(reference.getKey(), PodTemplates.parse(yaml));
			}
			catch (IllegalArgumentException ex) {
				throw new IOException(where + ", key '" + nameAndKey[1] + "', " + ex.getMessage(), ex);
			}
		}
		return templates;
	}

	/** One informer of this process's pods: each change to its {@link ServerPod}, on the informer's thread. */
	private void watch() {
		this.informer = this.client.pods()
			.inNamespace(this.namespace)
			.withLabel(KubernetesLabels.INSTANCE, this.instance)
			.inform(new ResourceEventHandler<Pod>() {

				@Override
				public void onAdd(Pod pod) {
					ServerPod server = server(pod);
					if (server != null) {
						server.update(pod);
					}
				}

				@Override
				public void onUpdate(Pod old, Pod pod) {
					onAdd(pod);
				}

				@Override
				public void onDelete(Pod pod, boolean finalStateUnknown) {
					ServerPod server = server(pod);
					if (server != null) {
						server.deleted();
					}
				}

			});
	}

	private @Nullable ServerPod server(Pod pod) {
		return (pod.getMetadata() != null) ? this.pods.get(pod.getMetadata().getName()) : null;
	}

	/**
	 * The pod of {@code request}, made now and created on the pods' threads (at most
	 * {@code max-concurrent-requests} at once): a pod the API refuses ends its server then.
	 * @throws IOException when it cannot be made (no image)
	 */
	ServerPod launch(LaunchRequest request) throws IOException {
		String name = podName(request.name());
		ServerPod server = new ServerPod(this, name, this.container, request.log(), spawnNs(request));
		Pod pod = this.factory.pod(request, name);
		// known before it exists, so that no change the watch sees goes unheard
		this.pods.put(name, server);
		work(() -> {
			try {
				this.requests.run(() -> this.client.pods().inNamespace(this.namespace).resource(pod).create());
			}
			catch (RuntimeException ex) {
				String why = KubernetesClients.describe(ex);
				if (why.contains("violates PodSecurity")) {
					why += "; the namespace enforces Pod Security: give the pod template a securityContext that meets it "
							+ "(docs/kubernetes.md)";
				}
				else if (KubernetesClients.forbidden(ex)) {
					why += "; grant create on pods";
				}
				server.notCreated(why);
			}
		});
		return server;
	}

	private static @Nullable Long spawnNs(LaunchRequest request) {
		String stamp = request.env().get(StartupEnv.SPAWN_NS);
		try {
			return (stamp != null) ? Long.valueOf(stamp.strip()) : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * A pod name for server {@code server}: its name as a DNS label, then this supervisor's
	 * instance (five characters), unique in this run.
	 */
	synchronized String podName(String server) {
		String base = server.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("^-+|-+$", "");
		base = base.isEmpty() ? "server" : base.substring(0, Math.min(base.length(), 50)).replaceAll("-+$", "");
		String suffix = this.instance.substring(0, 5);
		String name = base + "-" + suffix;
		for (int i = 2; !this.names.add(name); i++) {
			name = base + "-" + i + "-" + suffix;
		}
		return name;
	}

	@Override
	public List<Event> events(Pod pod) {
		return this.events.of(pod);
	}

	@Override
	public CompletableFuture<Void> eventsOf(Pod pod, String container) {
		String started = "spec.containers{" + container + "}";
		return this.events.awaitEvent(pod, (event) -> "Started".equals(event.getReason())
				&& event.getInvolvedObject() != null && started.equals(event.getInvolvedObject().getFieldPath()));
	}

	@Override
	public String warnings(Pod pod) {
		return this.events.warnings(pod, 3);
	}

	/**
	 * The container's log (its last run's when {@code previous}), at most {@code limitBytes} of it,
	 * or a line saying why there is none.
	 */
	@Override
	public String containerLog(String pod, String container, boolean previous, int limitBytes) {
		try {
			String log = this.requests.call(() -> {
				PodResource resource = this.client.pods().inNamespace(this.namespace).withName(pod);
				return previous ? resource.inContainer(container).terminated().getLog()
						: resource.inContainer(container).limitBytes(limitBytes).getLog();
			});
			return (log != null) ? log : "";
		}
		catch (RuntimeException ex) {
			return "(no log of container '" + container + "': " + KubernetesClients.describe(ex)
					+ (KubernetesClients.forbidden(ex) ? "; grant get on pods/log" : "") + ")\n";
		}
	}

	/** The pod as the watch last saw it, or {@code null}. */
	@Override
	public @Nullable Pod current(String pod) {
		SharedIndexInformer<Pod> informer = this.informer;
		return (informer != null) ? informer.getStore().getByKey(this.namespace + "/" + pod) : null;
	}

	/** Its log saved and then deleted, with every other server asked to stop by then: on the stopping thread. */
	@Override
	public void stop(ServerPod server) {
		if (this.stopAsked.add(server)) {
			this.toStop.add(server);
			try {
				this.stopper.execute(this::stopAsked);
			}
			catch (RejectedExecutionException ex) {
				stopAsked();
			}
		}
	}

	/**
	 * Stop what was asked to stop since the last time: their logs saved (in parallel, bounded),
	 * then, when every server of this process was asked, one delete of all of them by their
	 * instance's label, else one delete each.
	 */
	private void stopAsked() {
		List<ServerPod> batch = new ArrayList<>();
		for (List<ServerPod> more = drain(); !more.isEmpty(); more = drain()) {
			saveLogs(more);
			batch.addAll(more);
		}
		if (batch.isEmpty()) {
			return;
		}
		synchronized (this.deleting) {
			if (this.deletedAll) {
				return;
			}
			if (this.stopAsked.containsAll(live())) {
				this.deletedAll = true;
				deleteAll(this.stopGraceSeconds);
				return;
			}
		}
		for (ServerPod server : batch) {
			delete(server, this.stopGraceSeconds);
		}
	}

	private List<ServerPod> drain() {
		List<ServerPod> drained = new ArrayList<>();
		for (ServerPod server = this.toStop.poll(); server != null; server = this.toStop.poll()) {
			drained.add(server);
		}
		return drained;
	}

	/** The logs of {@code servers} into their files, in parallel on the pods' threads, for a bounded time. */
	private void saveLogs(List<ServerPod> servers) {
		List<CompletableFuture<Void>> saving = new ArrayList<>();
		for (ServerPod server : servers) {
			CompletableFuture<Void> saved = new CompletableFuture<>();
			work(() -> {
				try {
					server.saveLog(current(server.name()));
				}
				finally {
					saved.complete(null);
				}
			});
			saving.add(saved);
		}
		try {
			CompletableFuture.allOf(saving.toArray(CompletableFuture[]::new))
				.get(LOGS_BEFORE_STOP.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException | ExecutionException ex) {
			logger.info("Not every server's log was saved within " + LOGS_BEFORE_STOP.toSeconds() + " s: the pods are "
					+ "deleted now (their logs, until then, with kubectl logs)");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** The servers whose pods may still be there. */
	private List<ServerPod> live() {
		return this.pods.values().stream().filter((server) -> !server.isGone()).toList();
	}

	@Override
	public List<String> kill(ServerPod server) {
		synchronized (this.deleting) {
			if (this.killedAll) {
				return List.of("pod " + server.name());
			}
			if (this.stopAsked.containsAll(live())) {
				this.killedAll = true;
				deleteAll(0);
				return List.of("pod " + server.name());
			}
		}
		delete(server, 0);
		return List.of("pod " + server.name());
	}

	/** Every pod of this process, in one request: its instance's label (RBAC's deletecollection). */
	private void deleteAll(long graceSeconds) {
		try {
			this.requests.run(() -> this.client.pods()
				.inNamespace(this.namespace)
				.withLabel(KubernetesLabels.INSTANCE, this.instance)
				.withGracePeriod(graceSeconds)
				.delete());
		}
		catch (RuntimeException ex) {
			logger.warn("Could not delete the server pods of this supervisor (label " + KubernetesLabels.INSTANCE + "="
					+ this.instance + ") in namespace '" + this.namespace + "': " + KubernetesClients.describe(ex)
					+ (KubernetesClients.forbidden(ex) ? "; grant deletecollection on pods" : "") + "; deleting each");
			live().forEach((server) -> delete(server, graceSeconds));
		}
	}

	/** Delete one pod, with {@code graceSeconds} for its containers to stop. */
	private void delete(ServerPod server, long graceSeconds) {
		try {
			List<?> deleted = this.requests.call(() -> this.client.pods()
				.inNamespace(this.namespace)
				.withName(server.name())
				.withGracePeriod(graceSeconds)
				.delete());
			if (deleted.isEmpty()) {
				server.goneAlready();
			}
		}
		catch (RuntimeException ex) {
			if (KubernetesClients.notFound(ex)) {
				server.goneAlready();
				return;
			}
			logger.warn("Could not delete pod " + this.namespace + "/" + server.name() + ": "
					+ KubernetesClients.describe(ex));
		}
	}

	@Override
	public @Nullable Duration waitLimit(PodWaits.Kind kind) {
		KubernetesProperties properties = this.settings.properties();
		return switch (kind) {
			case SCHEDULING -> properties.getUnschedulableTimeout();
			case IMAGE -> properties.getImagePullTimeout();
			case CONFIG -> properties.getContainerConfigTimeout();
		};
	}

	@Override
	public boolean inCluster() {
		return this.inCluster;
	}

	/** Run {@code task} on the pods' own threads; here when they are gone. */
	@Override
	public void work(Runnable task) {
		try {
			this.work.execute(task);
		}
		catch (RejectedExecutionException ex) {
			task.run();
		}
	}

	@Override
	public void later(Runnable task, Duration delay) {
		try {
			this.timer.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			// closed: nothing is waited on any more
		}
	}

	/**
	 * Close it: what this process still has is deleted (no pod outlives its supervisor), the
	 * watches stop, its lease is given up.
	 */
	@Override
	public void close() {
		boolean anyLeft;
		synchronized (this.deleting) {
			anyLeft = !this.deletedAll && !this.killedAll && !live().isEmpty();
			this.deletedAll = true;
		}
		if (anyLeft) {
			deleteAll(this.stopGraceSeconds);
		}
		SharedIndexInformer<Pod> informer = this.informer;
		if (informer != null) {
			informer.close();
		}
		this.events.close();
		SupervisorLease lease = this.lease;
		if (lease != null) {
			lease.close();
		}
		this.timer.shutdownNow();
		this.stopper.shutdown();
		this.work.shutdown();
		this.client.close();
	}

}
