package io.github.startuptelemetry.launch.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * A pod template as written in YAML ({@code pod-template}, or a ConfigMap's key): a Pod manifest,
 * or just its {@code metadata} and {@code spec} ({@code apiVersion} and {@code kind} may be left
 * out). Parsed with the client's own mapper, so that every field Kubernetes knows is kept.
 */
final class PodTemplates {

	/** The key a ConfigMap named without one holds its template under. */
	static final String CONFIG_MAP_KEY = "pod-template.yaml";

	private PodTemplates() {
	}

	/**
	 * The pod {@code yaml} describes, a new object each time (the caller changes it).
	 * @throws IllegalArgumentException when it is no pod, saying why
	 */
	static Pod parse(String yaml) {
		Pod pod;
		try {
			pod = Serialization.unmarshal(yaml, Pod.class);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("is not a pod manifest in YAML: " + firstLine(ex.getMessage()), ex);
		}
		if (pod == null) {
			throw new IllegalArgumentException("is empty: a Pod manifest in YAML, or its metadata and spec");
		}
		if (pod.getKind() != null && !"Pod".equals(pod.getKind())) {
			throw new IllegalArgumentException("is a " + pod.getKind() + ": it must be a Pod (or just its metadata "
					+ "and spec), from which each server's pod is made");
		}
		return new PodBuilder(pod).withApiVersion("v1").withKind("Pod").build();
	}

	/** {@code name} or {@code name/key} of a ConfigMap, as {name, key}. */
	static String[] configMap(String reference) {
		int slash = reference.indexOf('/');
		return (slash < 0) ? new String[] { reference.strip(), CONFIG_MAP_KEY }
				: new String[] { reference.substring(0, slash).strip(), reference.substring(slash + 1).strip() };
	}

	private static String firstLine(String message) {
		if (message == null) {
			return "unreadable";
		}
		int newline = message.indexOf('\n');
		return (newline < 0) ? message : message.substring(0, newline);
	}

}
