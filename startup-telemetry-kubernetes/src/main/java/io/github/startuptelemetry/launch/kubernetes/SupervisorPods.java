package io.github.startuptelemetry.launch.kubernetes;

import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.KubernetesLabels;
import io.github.startuptelemetry.kubernetes.internal.InCluster;
import io.github.startuptelemetry.kubernetes.internal.KubernetesClients;
import io.github.startuptelemetry.internal.DaemonThreads;
import io.github.startuptelemetry.launch.LaunchRequest;

/**
 * The supervisor's side of the cluster, opened when it starts: the namespace, its own pod (the
 * servers' owner), the templates kept in ConfigMaps, the clean-up of an earlier run's pods, and
 * one watch of the pods this process creates that keeps each {@link ServerPod} up to date.
 */
final class SupervisorPods implements ServerPod.Cluster, AutoCloseable {

	private static final Log logger = KubernetesLauncherLog.get();

	private final KubernetesClient client;

	private final String namespace;

	private final String container;

	private final long stopGraceSeconds;

	private final String supervisorName;

	private final String instance;

	private final PodFactory factory;

	private final Map<String, ServerPod> pods = new ConcurrentHashMap<>();

	private final Set<String> names = new HashSet<>();

	private final ExecutorService work = Executors.newCachedThreadPool(DaemonThreads.named("kubernetes-pods"));

	private final AtomicBoolean eventsForbiddenSaid = new AtomicBoolean();

	private volatile @Nullable SharedIndexInformer<Pod> informer;

	private SupervisorPods(KubernetesClient client, String namespace, KubernetesLauncherSettings settings,
			@Nullable OwnerReference owner, @Nullable String callbackHost, Map<String, Pod> configMapTemplates) {
		this.client = client;
		this.namespace = namespace;
		this.container = settings.properties().getContainerName();
		this.stopGraceSeconds = Math.max(1, (settings.stopTimeout().toMillis() + 999) / 1000);
		this.supervisorName = settings.supervisorName();
		this.instance = settings.instance();
		this.factory = new PodFactory(settings.properties(), namespace, this.supervisorName, this.instance, owner,
				callbackHost, (reference) -> new PodBuilder(configMapTemplates.get(reference)).build());
	}

	/**
	 * Connect, find this supervisor's own pod, read the templates, clean up what an earlier run
	 * left, and start watching.
	 * @throws IOException when the cluster cannot be used, saying why and what to set
	 */
	static SupervisorPods open(KubernetesLauncherSettings settings) throws IOException {
		KubernetesProperties properties = settings.properties();
		KubernetesClient client = KubernetesClients.create(properties.getApiTimeout(), 1);
		try {
			Pod self = InCluster.detected(settings.env()) ? self(client, settings.env()) : null;
			String namespace = namespace(properties, settings.env(), client);
			OwnerReference owner = owner(self, namespace, properties);
			String callbackHost = (properties.getCallbackHost() != null) ? properties.getCallbackHost()
					: (self != null && self.getStatus() != null) ? self.getStatus().getPodIP() : null;
			if (settings.callbackEnabled() && callbackHost == null && InCluster.detected(settings.env())) {
				throw new IOException("server pods cannot be told where the readiness callback is: the supervisor's "
						+ "own pod IP is unknown; set " + KubernetesProperties.PREFIX + ".callback-host");
			}
			SupervisorPods pods = new SupervisorPods(client, namespace, settings, owner, callbackHost,
					configMapTemplates(client, namespace, properties));
			if (properties.isCleanUpOnStart()) {
				EarlierPods.cleanUp(client, namespace, settings.supervisorName(), settings.instance(), self,
						pods.stopGraceSeconds);
			}
			pods.watch();
			logger.info("Server pods go to namespace '" + namespace + "'"
					+ ((owner != null) ? ", owned by pod " + owner.getName() : "")
					+ ((callbackHost != null) ? "; they call back at " + callbackHost : ""));
			return pods;
		}
		catch (IOException | RuntimeException ex) {
			client.close();
			throw (ex instanceof IOException io) ? io
					: new IOException("the Kubernetes API: " + KubernetesClients.describe(ex), ex);
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
					+ "they get none (the clean-up at start still finds them)");
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
	 * Create the pod of {@code request}.
	 * @throws IOException when it cannot be made or the API refuses it
	 */
	ServerPod launch(LaunchRequest request) throws IOException {
		String name = podName(request.name());
		ServerPod server = new ServerPod(this, name, this.container, request.log());
		Pod pod = this.factory.pod(request, name);
		// known before it exists, so that no change the watch sees goes unheard
		this.pods.put(name, server);
		try {
			this.client.pods().inNamespace(this.namespace).resource(pod).create();
		}
		catch (RuntimeException ex) {
			server.notCreated();
			throw new IOException("pod " + this.namespace + "/" + name + " could not be created: "
					+ KubernetesClients.describe(ex), ex);
		}
		return server;
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

	/** The pod's events (its own only), or none when they cannot be listed; said once when forbidden. */
	@Override
	public List<Event> events(Pod pod) {
		try {
			return this.client.v1()
				.events()
				.inNamespace(this.namespace)
				.withInvolvedObject(new ObjectReferenceBuilder().withUid(pod.getMetadata().getUid()).build())
				.list()
				.getItems();
		}
		catch (RuntimeException ex) {
			if (KubernetesClients.forbidden(ex) && this.eventsForbiddenSaid.compareAndSet(false, true)) {
				logger.warn("The supervisor may not list events in namespace '" + this.namespace + "' ("
						+ KubernetesClients.describe(ex) + "): the servers' pod stages leave out the image pull and "
						+ "the scheduler's microsecond times; grant list on events (docs/kubernetes.md)");
			}
			else if (!KubernetesClients.forbidden(ex)) {
				logger.debug("Could not list the events of pod " + pod.getMetadata().getName(), ex);
			}
			return List.of();
		}
	}

	/**
	 * The container's log (its last run's when {@code previous}), at most {@code limitBytes} of it,
	 * or a line saying why there is none.
	 */
	@Override
	public String containerLog(String pod, String container, boolean previous, int limitBytes) {
		try {
			PodResource resource = this.client.pods().inNamespace(this.namespace).withName(pod);
			String log = previous ? resource.inContainer(container).terminated().getLog()
					: resource.inContainer(container).limitBytes(limitBytes).getLog();
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

	/**
	 * Delete the pod, with {@code graceSeconds} for its containers to stop.
	 * @return whether it is gone already (it was not found)
	 */
	@Override
	public boolean delete(String pod, long graceSeconds) {
		try {
			List<StatusDetails> deleted = this.client.pods()
				.inNamespace(this.namespace)
				.withName(pod)
				.withGracePeriod(graceSeconds)
				.delete();
			return deleted.isEmpty();
		}
		catch (RuntimeException ex) {
			if (KubernetesClients.notFound(ex)) {
				return true;
			}
			logger.warn("Could not delete pod " + this.namespace + "/" + pod + ": " + KubernetesClients.describe(ex));
			return false;
		}
	}

	@Override
	public long stopGraceSeconds() {
		return this.stopGraceSeconds;
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
	public void close() {
		SharedIndexInformer<Pod> informer = this.informer;
		if (informer != null) {
			informer.close();
		}
		this.work.shutdown();
		this.client.close();
	}

}
