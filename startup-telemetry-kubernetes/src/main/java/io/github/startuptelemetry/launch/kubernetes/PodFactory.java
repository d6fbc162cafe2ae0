package io.github.startuptelemetry.launch.kubernetes;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.KubernetesAttributes;
import io.github.startuptelemetry.contract.KubernetesLabels;
import io.github.startuptelemetry.contract.NemoEnv;
import io.github.startuptelemetry.contract.ResourceAttributes;
import io.github.startuptelemetry.contract.StartupEnv;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.kubernetes.internal.PodTimes;
import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.internal.LaunchShell;
import io.github.startuptelemetry.lifecycle.internal.OtelListValues;
import io.github.startuptelemetry.lifecycle.internal.ProcessResourceAttributes;

/**
 * Makes one server's pod: its settings' template (or an empty pod), then what the launcher owns,
 * its name, labels, owner, restart policy, deadline, the server's container and command, and its
 * environment with the env contract and the pod's own names (never its supervisor's). Every value
 * the supervisor passes has each {@code $} doubled, since Kubernetes expands {@code $(VAR)} and
 * reads {@code $$} as {@code $}.
 */
final class PodFactory {

	/** Downward API fields of the pod's own names, each into the OpenTelemetry Operator's variable. */
	private static final Map<String, String> DOWNWARD = Map.of(KubernetesAttributes.ENV_POD_NAME, "metadata.name",
			KubernetesAttributes.ENV_POD_UID, "metadata.uid", KubernetesAttributes.ENV_NODE_NAME, "spec.nodeName");

	/** Variables that describe one process: the supervisor's are never a server's. */
	private static final Set<String> PER_PROCESS = Set.of(TelemetryEnv.TELEMETRY_STARTUP_SERVER_NAME,
			TelemetryEnv.TELEMETRY_STARTUP_SERVER_TYPE, TelemetryEnv.TELEMETRY_STARTUP_WORKER,
			TelemetryEnv.TELEMETRY_STARTUP_WARMUP_PATH, TelemetryEnv.TELEMETRY_RANK, TelemetryEnv.TELEMETRY_WORLD_SIZE,
			TelemetryEnv.TELEMETRY_LOCAL_RANK, TelemetryEnv.TELEMETRY_WORKER_GROUP);

	/** What only the supervisor can say, per server and per run: never left to the template. */
	private static final Set<String> CONTRACT = Set.of(StartupEnv.SPAWN_NS, StartupEnv.SETUP_DONE_NS,
			StartupEnv.SERVE_NS, StartupEnv.TRACEPARENT, StartupEnv.OTEL_TRACEPARENT,
			TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL, TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_TOKEN);

	private final KubernetesProperties properties;

	private final String namespace;

	private final String supervisorName;

	private final String instance;

	private final @Nullable OwnerReference owner;

	private final @Nullable String callbackHost;

	private final Function<String, Pod> configMapTemplates;

	private final Map<String, String> supervisorEnv;

	private final @Nullable Long activeDeadlineSeconds;

	/**
	 * @param properties the launcher's settings
	 * @param namespace the pods' namespace
	 * @param supervisorName the supervisor's stable name, a label value
	 * @param instance this supervisor process's id, a label value
	 * @param owner the supervisor's own pod as every pod's owner, or {@code null}
	 * @param callbackHost the host pods reach the readiness callback at, or {@code null} to keep its URL
	 * @param configMapTemplates the template in a ConfigMap, by reference (read once, a copy each call)
	 * @param supervisorEnv the supervisor's own environment (what its servers inherit of it)
	 * @param activeDeadlineSeconds each pod's {@code activeDeadlineSeconds}, or {@code null} for none
	 */
	PodFactory(KubernetesProperties properties, String namespace, String supervisorName, String instance,
			@Nullable OwnerReference owner, @Nullable String callbackHost, Function<String, Pod> configMapTemplates,
			Map<String, String> supervisorEnv, @Nullable Long activeDeadlineSeconds) {
		this.properties = properties;
		this.namespace = namespace;
		this.supervisorName = supervisorName;
		this.instance = instance;
		this.owner = owner;
		this.callbackHost = callbackHost;
		this.configMapTemplates = configMapTemplates;
		this.supervisorEnv = Map.copyOf(supervisorEnv);
		this.activeDeadlineSeconds = activeDeadlineSeconds;
	}

	@Nullable Long activeDeadlineSeconds() {
		return this.activeDeadlineSeconds;
	}

	/**
	 * The pod of {@code request}, named {@code name}.
	 * @throws IOException when it cannot be made (no image anywhere), saying what to set
	 */
	Pod pod(LaunchRequest request, String name) throws IOException {
		PodSettings settings = this.properties.forServer(request.name(), request.type());
		Pod pod = template(settings);
		ObjectMeta metadata = (pod.getMetadata() != null) ? pod.getMetadata() : new ObjectMeta();
		pod.setMetadata(metadata);
		metadata.setName(name);
		metadata.setGenerateName(null);
		metadata.setNamespace(this.namespace);
		metadata.setResourceVersion(null);
		metadata.setUid(null);
		Map<String, String> labels = new LinkedHashMap<>(metadata.getLabels());
		labels.putAll(settings.getLabels());
		labels.put(KubernetesLabels.MANAGED_BY, KubernetesLabels.MANAGED_BY_VALUE);
		labels.put(KubernetesLabels.SUPERVISOR, this.supervisorName);
		labels.put(KubernetesLabels.INSTANCE, this.instance);
		labels.put(KubernetesLabels.SERVER, labelValue(request.name()));
		metadata.setLabels(labels);
		Map<String, String> annotations = new LinkedHashMap<>(metadata.getAnnotations());
		annotations.putAll(settings.getAnnotations());
		annotations.put(PodTimes.DEFAULT_CONTAINER_ANNOTATION,
				this.properties.getContainerName());
		metadata.setAnnotations(annotations);
		if (this.owner != null) {
			List<OwnerReference> owners = new ArrayList<>(metadata.getOwnerReferences());
			owners.add(this.owner);
			metadata.setOwnerReferences(owners);
		}
		PodSpec spec = (pod.getSpec() != null) ? pod.getSpec() : new PodSpec();
		pod.setSpec(spec);
		if (spec.getRestartPolicy() == null) {
			spec.setRestartPolicy("Never");
		}
		if (settings.getServiceAccountName() != null) {
			spec.setServiceAccountName(settings.getServiceAccountName());
		}
		// the kubelet's bound on the pod, whatever becomes of its supervisor; a template's shorter one stays
		if (this.activeDeadlineSeconds != null && (spec.getActiveDeadlineSeconds() == null
				|| spec.getActiveDeadlineSeconds() > this.activeDeadlineSeconds)) {
			spec.setActiveDeadlineSeconds(this.activeDeadlineSeconds);
		}
		container(spec, settings, request);
		return pod;
	}

	private Pod template(PodSettings settings) {
		if (settings.getPodTemplateConfigMap() != null) {
			return this.configMapTemplates.apply(settings.getPodTemplateConfigMap());
		}
		return (settings.getPodTemplate() != null) ? PodTemplates.parse(settings.getPodTemplate()) : new Pod();
	}

	private void container(PodSpec spec, PodSettings settings, LaunchRequest request) throws IOException {
		String containerName = this.properties.getContainerName();
		Container container = null;
		for (Container candidate : spec.getContainers()) {
			if (containerName.equals(candidate.getName())) {
				container = candidate;
			}
		}
		if (container == null && !spec.getContainers().isEmpty()) {
			container = spec.getContainers().get(0);
		}
		if (container == null) {
			container = new Container();
			List<Container> containers = new ArrayList<>(spec.getContainers());
			containers.add(container);
			spec.setContainers(containers);
		}
		container.setName(containerName);
		if (settings.getImage() != null) {
			container.setImage(settings.getImage());
		}
		if (container.getImage() == null || container.getImage().isBlank()) {
			throw new IOException("no image for server '" + request.name() + "': set " + KubernetesProperties.PREFIX
					+ ".image (or .servers." + request.name() + ".image), or name one in the pod template");
		}
		if (settings.getImagePullPolicy() != null) {
			container.setImagePullPolicy(settings.getImagePullPolicy());
		}
		List<String> command = (request.setup() != null)
				? LaunchShell.unguardedCommandLine(request.setup(), request.command()) : request.command();
		container.setCommand(command.stream().map(PodFactory::verbatim).toList());
		container.setArgs(new ArrayList<>());
		if (request.workingDir() != null) {
			container.setWorkingDir(request.workingDir().toString());
		}
		resources(container, settings);
		container.setEnv(env(container.getEnv(), settings, request, containerName));
	}

	private static void resources(Container container, PodSettings settings) {
		PodSettings.Resources resources = settings.getResources();
		if (resources.getRequests().isEmpty() && resources.getLimits().isEmpty()) {
			return;
		}
		ResourceRequirements requirements = (container.getResources() != null) ? container.getResources()
				: new ResourceRequirements();
		Map<String, Quantity> requests = new LinkedHashMap<>(requirements.getRequests());
		resources.getRequests().forEach((resource, amount) -> requests.put(resource, Quantity.parse(amount)));
		Map<String, Quantity> limits = new LinkedHashMap<>(requirements.getLimits());
		resources.getLimits().forEach((resource, amount) -> limits.put(resource, Quantity.parse(amount)));
		requirements.setRequests(requests);
		requirements.setLimits(limits);
		container.setResources(requirements);
	}

	/**
	 * The container's environment, in order (a {@code $(VAR)} reference resolves only against a
	 * variable before it): the template's, the Downward API's (unless the template has them), the
	 * settings' and the request's values (later ones win, kept in the first one's place), with the
	 * pod's {@code k8s.*} added to {@code OTEL_RESOURCE_ATTRIBUTES}.
	 */
	private List<EnvVar> env(List<EnvVar> template, PodSettings settings, LaunchRequest request, String containerName) {
		Map<String, EnvVar> env = new LinkedHashMap<>();
		for (EnvVar variable : template) {
			env.put(variable.getName(), variable);
		}
		DOWNWARD.keySet().stream().sorted().forEach((variable) -> env.computeIfAbsent(variable,
				(key) -> new EnvVarBuilder().withName(key).withNewValueFrom().withNewFieldRef()
					.withFieldPath(DOWNWARD.get(key)).endFieldRef().endValueFrom().build()));
		Map<String, String> values = inheritedTelemetry();
		values.putAll(settings.getEnv());
		values.putAll(request.env());
		ownIdentity(values, request);
		String callback = values.get(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL);
		if (callback != null && this.callbackHost != null) {
			values.put(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL, onHost(callback, this.callbackHost));
		}
		values.forEach((name, value) -> {
			EnvVar templates = env.get(name);
			// the template's reference (a Secret's key, say) keeps a credential out of the pod's spec: it stays
			if (templates == null || templates.getValueFrom() == null || CONTRACT.contains(name)) {
				env.put(name, new EnvVar(name, verbatim(value), null));
			}
		});
		// last: its references resolve only against the variables before it
		EnvVar resource = env.remove(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES);
		if (resource != null && resource.getValueFrom() != null) {
			env.put(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES, resource);
		}
		else {
			env.put(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES, new EnvVar(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES,
					resourceAttributes((resource != null) ? resource.getValue() : null, containerName), null));
		}
		return new ArrayList<>(env.values());
	}

	/**
	 * The supervisor's own telemetry variables that a local server inherits as they are (and the
	 * supervisor therefore leaves out of the request): a pod inherits nothing, so they are passed
	 * here, without what names one process or is the contract's.
	 */
	private Map<String, String> inheritedTelemetry() {
		Map<String, String> inherited = new LinkedHashMap<>();
		this.supervisorEnv.forEach((name, value) -> {
			boolean telemetry = name.startsWith("OTEL_") || name.startsWith("TELEMETRY_")
					|| name.startsWith(NemoEnv.GYM_PREFIX) || name.startsWith(NemoEnv.LENS_PREFIX);
			if (telemetry && !DOWNWARD.containsKey(name) && !CONTRACT.contains(name) && !PER_PROCESS.contains(name)
					&& !name.startsWith("TELEMETRY_SUPERVISOR_")) {
				inherited.put(name, value);
			}
		});
		return inherited;
	}

	/**
	 * The server's own identity, not its supervisor's: the supervisor's service name (which a
	 * server inherits as it is) gives way to the server's name, and its resource attributes lose
	 * what names one process (the supervisor's {@code k8s.*}, {@code service.instance.id}, ... as the
	 * OpenTelemetry Operator injects them) and gain the server's rank, world size and worker group,
	 * as a server that inherits nothing gets them.
	 */
	private void ownIdentity(Map<String, String> values, LaunchRequest request) {
		String serviceName = values.get(TelemetryEnv.OTEL_SERVICE_NAME);
		if (serviceName != null && serviceName.equals(this.supervisorEnv.get(TelemetryEnv.OTEL_SERVICE_NAME))) {
			values.put(TelemetryEnv.OTEL_SERVICE_NAME, request.name());
			values.putIfAbsent(NemoEnv.GYM_SERVICE_NAME_PER_SERVER, "false");
		}
		String attributes = values.get(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES);
		if (attributes != null) {
			Map<String, String> pairs = new LinkedHashMap<>(OtelListValues.parsePairs(attributes).pairs());
			boolean inherited = attributes.equals(this.supervisorEnv.get(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES));
			boolean changed = pairs.keySet().removeIf(PodFactory::namesOneProcess);
			if (inherited) {
				ProcessResourceAttributes.serverAttributes(request.type(), request.rank(), request.worldSize())
					.forEach(pairs::putIfAbsent);
			}
			if (changed || inherited) {
				values.put(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES, OtelListValues.formatPairs(pairs));
			}
		}
	}

	/** Whether a resource attribute names one process, pod or container: never passed from a supervisor to a pod. */
	private static boolean namesOneProcess(String key) {
		return key.startsWith("k8s.") || key.startsWith("container.") || key.startsWith("process.")
				|| key.startsWith("host.") || key.equals(ResourceAttributes.SERVICE_INSTANCE_ID)
				|| key.equals(ResourceAttributes.SERVICE_NAME);
	}

	/**
	 * {@code value} (already as Kubernetes reads it) with the pod's {@code k8s.*} it lacks: the
	 * namespace and the container as they are, the pod's name, uid and node as references to the
	 * Downward API variables, which the kubelet expands.
	 */
	private String resourceAttributes(@Nullable String value, String containerName) {
		Map<String, String> present = (value != null) ? OtelListValues.parsePairs(value).pairs() : Map.of();
		StringBuilder attributes = new StringBuilder((value != null) ? value.strip() : "");
		append(attributes, present, KubernetesAttributes.NAMESPACE_NAME, verbatim(this.namespace));
		append(attributes, present, KubernetesAttributes.CONTAINER_NAME, verbatim(containerName));
		append(attributes, present, KubernetesAttributes.POD_NAME, "$(" + KubernetesAttributes.ENV_POD_NAME + ")");
		append(attributes, present, KubernetesAttributes.POD_UID, "$(" + KubernetesAttributes.ENV_POD_UID + ")");
		append(attributes, present, KubernetesAttributes.NODE_NAME, "$(" + KubernetesAttributes.ENV_NODE_NAME + ")");
		return attributes.toString();
	}

	private static void append(StringBuilder attributes, Map<String, String> present, String key, String value) {
		if (!present.containsKey(key)) {
			attributes.append((attributes.length() > 0) ? "," : "").append(key).append('=').append(value);
		}
	}

	/** {@code value} as Kubernetes must be given it to pass it on unchanged: each {@code $} doubled. */
	static String verbatim(String value) {
		return value.replace("$", "$$");
	}

	/** {@code url} with its host replaced by {@code host}. */
	static String onHost(String url, String host) {
		try {
			URI uri = URI.create(url);
			String name = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
			return new URI(uri.getScheme(), uri.getUserInfo(), name, uri.getPort(), uri.getPath(), uri.getQuery(),
					uri.getFragment()).toString();
		}
		catch (IllegalArgumentException | URISyntaxException ex) {
			return url;
		}
	}

	/**
	 * {@code name} as a label value: characters a label value may not hold become {@code -}, it
	 * starts and ends with a letter or digit, at most 63 characters.
	 */
	static String labelValue(String name) {
		String value = name.replaceAll("[^A-Za-z0-9._-]", "-");
		if (value.length() > 63) {
			value = value.substring(0, 63);
		}
		value = value.replaceAll("^[^A-Za-z0-9]+", "").replaceAll("[^A-Za-z0-9]+$", "");
		return value.isEmpty() ? "server" : value;
	}

}
