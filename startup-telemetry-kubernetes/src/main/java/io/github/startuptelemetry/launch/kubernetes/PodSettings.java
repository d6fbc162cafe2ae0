package io.github.startuptelemetry.launch.kubernetes;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a server's pod is made of: its image and the rest of its container, on top of a pod
 * template. Fleet-wide under {@code telemetry.supervisor.kubernetes.*}; one server's (or one
 * type's) under {@code telemetry.supervisor.kubernetes.servers.<name>.*}, each set field winning
 * over the fleet-wide one, maps merged entry by entry.
 */
public class PodSettings {

	/**
	 * The image of the server's container, e.g. registry.example.com/model-server:1.4; the pod
	 * template's when unset. One of the two must name an image.
	 */
	private String image;

	/** The image pull policy of the server's container: Always, IfNotPresent or Never; Kubernetes' default when unset. */
	private String imagePullPolicy;

	/**
	 * The service account the server pods run as; the pod template's, else the namespace's default,
	 * when unset. To report its pod's stages, a server needs get on pods and list on events.
	 */
	private String serviceAccountName;

	/**
	 * A pod (YAML: a Pod manifest, or just its metadata and spec) every server pod starts from:
	 * anything the other settings do not say (volumes, node selector, tolerations, probes, security
	 * context, sidecars). Its labels and annotations are kept, its name and namespace are not; its
	 * container named by container-name (else its first) becomes the server's.
	 */
	private String podTemplate;

	/**
	 * The pod template in a ConfigMap of the servers' namespace instead, as name or name/key (key
	 * pod-template.yaml when only a name is given): read through the API once per supervisor start,
	 * which needs get on configmaps. A ConfigMap mounted into the supervisor's pod needs no such
	 * permission: import it with spring.config.import=configtree:... as pod-template.
	 */
	private String podTemplateConfigMap;

	/** Labels of each server pod, over the template's (the launcher's own under startuptelemetry.github.io/ win). */
	private Map<String, String> labels = new LinkedHashMap<>();

	/** Annotations of each server pod, over the template's. */
	private Map<String, String> annotations = new LinkedHashMap<>();

	/**
	 * Environment of the server's container, over the template's and under what the supervisor
	 * sets (its env contract, the server's own env). Values are passed as they are (a $ stays a $,
	 * Kubernetes' $(VAR) references included); for valueFrom, use the pod template.
	 */
	private Map<String, String> env = new LinkedHashMap<>();

	private final Resources resources = new Resources();

	public String getImage() {
		return this.image;
	}

	public void setImage(String image) {
		this.image = image;
	}

	public String getImagePullPolicy() {
		return this.imagePullPolicy;
	}

	public void setImagePullPolicy(String imagePullPolicy) {
		this.imagePullPolicy = imagePullPolicy;
	}

	public String getServiceAccountName() {
		return this.serviceAccountName;
	}

	public void setServiceAccountName(String serviceAccountName) {
		this.serviceAccountName = serviceAccountName;
	}

	public String getPodTemplate() {
		return this.podTemplate;
	}

	public void setPodTemplate(String podTemplate) {
		this.podTemplate = podTemplate;
	}

	public String getPodTemplateConfigMap() {
		return this.podTemplateConfigMap;
	}

	public void setPodTemplateConfigMap(String podTemplateConfigMap) {
		this.podTemplateConfigMap = podTemplateConfigMap;
	}

	public Map<String, String> getLabels() {
		return this.labels;
	}

	public void setLabels(Map<String, String> labels) {
		this.labels = labels;
	}

	public Map<String, String> getAnnotations() {
		return this.annotations;
	}

	public void setAnnotations(Map<String, String> annotations) {
		this.annotations = annotations;
	}

	public Map<String, String> getEnv() {
		return this.env;
	}

	public void setEnv(Map<String, String> env) {
		this.env = env;
	}

	public Resources getResources() {
		return this.resources;
	}

	/**
	 * These settings with {@code server}'s over them: each field {@code server} sets wins, maps are
	 * merged ({@code server}'s entries win), the template of the one that names one.
	 */
	PodSettings with(PodSettings server) {
		PodSettings merged = new PodSettings();
		merged.image = pick(server.image, this.image);
		merged.imagePullPolicy = pick(server.imagePullPolicy, this.imagePullPolicy);
		merged.serviceAccountName = pick(server.serviceAccountName, this.serviceAccountName);
		boolean ownTemplate = server.podTemplate != null || server.podTemplateConfigMap != null;
		merged.podTemplate = ownTemplate ? server.podTemplate : this.podTemplate;
		merged.podTemplateConfigMap = ownTemplate ? server.podTemplateConfigMap : this.podTemplateConfigMap;
		merged.labels = merge(this.labels, server.labels);
		merged.annotations = merge(this.annotations, server.annotations);
		merged.env = merge(this.env, server.env);
		merged.resources.requests = merge(this.resources.requests, server.resources.requests);
		merged.resources.limits = merge(this.resources.limits, server.resources.limits);
		return merged;
	}

	private static String pick(String server, String fleet) {
		return (server != null && !server.isBlank()) ? server : fleet;
	}

	private static Map<String, String> merge(Map<String, String> fleet, Map<String, String> server) {
		Map<String, String> merged = new LinkedHashMap<>(fleet);
		merged.putAll(server);
		return merged;
	}

	/** Compute resources of the server's container, over the template's. */
	public static class Resources {

		/** What the server's container requests, by resource, e.g. cpu: 500m, memory: 1Gi. */
		private Map<String, String> requests = new LinkedHashMap<>();

		/** The limits of the server's container, by resource, e.g. memory: 2Gi. */
		private Map<String, String> limits = new LinkedHashMap<>();

		public Map<String, String> getRequests() {
			return this.requests;
		}

		public void setRequests(Map<String, String> requests) {
			this.requests = requests;
		}

		public Map<String, String> getLimits() {
			return this.limits;
		}

		public void setLimits(Map<String, String> limits) {
			this.limits = limits;
		}

	}

}
