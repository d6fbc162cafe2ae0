package io.github.startuptelemetry.launch.kubernetes;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;

/**
 * How the {@code kubernetes} launcher runs each server as a pod
 * ({@code telemetry.supervisor.kubernetes.*}): the fleet's {@link PodSettings}, each server's
 * under {@code servers}, and where the supervisor creates them; validated when bound.
 */
@ConfigurationProperties(KubernetesProperties.PREFIX)
public class KubernetesProperties extends PodSettings implements Validator {

	static final String PREFIX = TelemetryProperties.SUPERVISOR + ".kubernetes";

	/** Its rules, handed in by the auto-configuration that declares it. */
	private @Nullable Validator validator;

	/**
	 * The namespace of the server pods; by default the supervisor's own (its service account's)
	 * when it runs in a pod, else the kubeconfig context's, else "default".
	 */
	private String namespace;

	/** The name of the server's container in each pod (a container of the template by that name becomes the server's). */
	private String containerName = "server";

	/**
	 * The host server pods reach the supervisor's readiness callback at: by default the
	 * supervisor pod's IP when it runs in the cluster (then telemetry.supervisor.callback.address
	 * must not be loopback: 0.0.0.0, the token still guards it), else the callback's own address.
	 * Set it to a Service's name to go through one.
	 */
	private String callbackHost;

	/**
	 * The supervisor's stable name on its pods (label startuptelemetry.github.io/supervisor), for
	 * selecting them (kubectl get pods -l ...); spring.application.name when unset. Two runs of one
	 * name are told apart by their instance label and lease: neither deletes the other's pods.
	 */
	private String supervisorName;

	/**
	 * Whether to delete, at start, the pods that supervisor processes which are gone (their lease
	 * run out, their own pod failed or deleted) left in the namespace: never a running one's.
	 */
	private boolean cleanUpOnStart = true;

	/**
	 * Whether each server pod names the supervisor's own pod as its owner when the supervisor
	 * runs in the cluster, so that Kubernetes deletes them when that pod goes, however the
	 * supervisor ended.
	 */
	private boolean ownerReference = true;

	/** How long one request to the API server may take (and connecting to it). */
	private Duration apiTimeout = Duration.ofSeconds(10);

	/**
	 * How many requests to the API server the supervisor sends at once, at most (creating,
	 * deleting, reading logs; its two watches aside): the JDK's HTTP client has no limit of its own,
	 * and the API server's per-connection stream limit and priority-and-fairness queues reject what
	 * goes beyond theirs.
	 */
	private int maxConcurrentRequests = 32;

	/**
	 * How long a server pod may wait for the scheduler (PodScheduled=False: Unschedulable,
	 * SchedulingGated) before its startup fails; unset, only telemetry.supervisor.ready-timeout
	 * bounds it. An autoscaler adding a node starts from exactly that condition: allow it the time
	 * it needs.
	 */
	private Duration unschedulableTimeout;

	/**
	 * How long a server pod may wait for an image pull the kubelet retries (ErrImagePull,
	 * ImagePullBackOff, ...) before its startup fails; unset, only ready-timeout bounds it.
	 */
	private Duration imagePullTimeout;

	/**
	 * How long a server pod may wait for its container's configuration (CreateContainerConfigError:
	 * a Secret or ConfigMap not there yet, ...) before its startup fails; unset, only ready-timeout
	 * bounds it.
	 */
	private Duration containerConfigTimeout;

	/**
	 * How long the lease this supervisor process holds in the namespace (renewed every third of it
	 * while it runs) lasts unrenewed: once it has run out, the process is taken for gone and another
	 * supervisor's clean-up deletes its pods.
	 */
	private Duration leaseDuration = Duration.ofSeconds(30);

	/**
	 * The activeDeadlineSeconds of each server pod: how long the kubelet lets it run before it ends
	 * it, whatever became of its supervisor. Unset: none for a fleet that stays up, and
	 * ready-timeout + stop-timeout + 1 minute with telemetry.supervisor.exit-when-ready (its servers
	 * are deleted once ready). 0 for none.
	 */
	private Duration activeDeadline;

	/**
	 * Pod settings of one server, or of every server of one type, keyed by the server's name (a
	 * replica's without its -index) or type: each field set here wins over the fleet-wide one.
	 */
	private Map<String, PodSettings> servers = new LinkedHashMap<>();

	public String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(String namespace) {
		this.namespace = namespace;
	}

	public String getContainerName() {
		return this.containerName;
	}

	public void setContainerName(String containerName) {
		this.containerName = containerName;
	}

	public String getCallbackHost() {
		return this.callbackHost;
	}

	public void setCallbackHost(String callbackHost) {
		this.callbackHost = callbackHost;
	}

	public String getSupervisorName() {
		return this.supervisorName;
	}

	public void setSupervisorName(String supervisorName) {
		this.supervisorName = supervisorName;
	}

	public boolean isCleanUpOnStart() {
		return this.cleanUpOnStart;
	}

	public void setCleanUpOnStart(boolean cleanUpOnStart) {
		this.cleanUpOnStart = cleanUpOnStart;
	}

	public boolean isOwnerReference() {
		return this.ownerReference;
	}

	public void setOwnerReference(boolean ownerReference) {
		this.ownerReference = ownerReference;
	}

	public Duration getApiTimeout() {
		return this.apiTimeout;
	}

	public void setApiTimeout(Duration apiTimeout) {
		this.apiTimeout = apiTimeout;
	}

	public int getMaxConcurrentRequests() {
		return this.maxConcurrentRequests;
	}

	public void setMaxConcurrentRequests(int maxConcurrentRequests) {
		this.maxConcurrentRequests = maxConcurrentRequests;
	}

	public Duration getUnschedulableTimeout() {
		return this.unschedulableTimeout;
	}

	public void setUnschedulableTimeout(Duration unschedulableTimeout) {
		this.unschedulableTimeout = unschedulableTimeout;
	}

	public Duration getImagePullTimeout() {
		return this.imagePullTimeout;
	}

	public void setImagePullTimeout(Duration imagePullTimeout) {
		this.imagePullTimeout = imagePullTimeout;
	}

	public Duration getContainerConfigTimeout() {
		return this.containerConfigTimeout;
	}

	public void setContainerConfigTimeout(Duration containerConfigTimeout) {
		this.containerConfigTimeout = containerConfigTimeout;
	}

	public Duration getLeaseDuration() {
		return this.leaseDuration;
	}

	public void setLeaseDuration(Duration leaseDuration) {
		this.leaseDuration = leaseDuration;
	}

	public Duration getActiveDeadline() {
		return this.activeDeadline;
	}

	public void setActiveDeadline(Duration activeDeadline) {
		this.activeDeadline = activeDeadline;
	}

	public Map<String, PodSettings> getServers() {
		return this.servers;
	}

	public void setServers(Map<String, PodSettings> servers) {
		this.servers = servers;
	}

	/**
	 * The settings of server {@code name} of type {@code type}: the fleet-wide ones with those of
	 * its name, else of its name without a replica's index, else of its type, over them.
	 */
	PodSettings forServer(String name, String type) {
		PodSettings server = this.servers.get(name);
		if (server == null && name.matches(".*-\\d+")) {
			server = this.servers.get(name.substring(0, name.lastIndexOf('-')));
		}
		if (server == null && type != null) {
			server = this.servers.get(type);
		}
		return (server != null) ? with(server) : with(new PodSettings());
	}

	@Override
	public boolean supports(Class<?> type) {
		return KubernetesProperties.class.isAssignableFrom(type);
	}

	@Override
	public void validate(Object target, Errors errors) {
		if (this.validator != null) {
			this.validator.validate(target, errors);
		}
	}

	/** Check it with {@code validator} when it is bound. */
	KubernetesProperties validatedBy(Validator validator) {
		this.validator = validator;
		return this;
	}

}
