package io.github.startuptelemetry.contract;

/**
 * Kubernetes names: OpenTelemetry's stable {@code k8s.*} resource conventions, our own additions
 * under {@code startup.k8s.}, and the Downward API variables a server pod is given, named as the
 * OpenTelemetry Operator names them.
 */
public final class KubernetesAttributes {

	/** String: the pod's name. */
	public static final String POD_NAME = "k8s.pod.name";

	/** String: the pod's uid. */
	public static final String POD_UID = "k8s.pod.uid";

	/** String: the pod's namespace. */
	public static final String NAMESPACE_NAME = "k8s.namespace.name";

	/** String: the node the pod was scheduled on. */
	public static final String NODE_NAME = "k8s.node.name";

	/** String: the container the server runs in. */
	public static final String CONTAINER_NAME = "k8s.container.name";

	/**
	 * Double: on a stage span (and the {@code image_pull} span) with a boundary taken from the
	 * Kubernetes API, how precisely its boundaries are known, in milliseconds: {@code 1000} when one
	 * is in whole seconds (pod conditions, a container's start, the kubelet's events),
	 * {@code 0.001} when the coarsest is the scheduler's microsecond {@code eventTime}. Such a
	 * boundary is clamped between its neighbours (and never after the JVM's start), so that the
	 * stages stay contiguous.
	 */
	public static final String PRECISION_MS = "startup.k8s.precision_ms";

	/** Double: on {@code gym.startup.server}, the pod's {@code pod_scheduling} stage, in milliseconds. */
	public static final String POD_SCHEDULING_MS = "startup.k8s.pod_scheduling_ms";

	/** Double: on {@code gym.startup.server}, the pod's {@code pod_setup} stage, in milliseconds. */
	public static final String POD_SETUP_MS = "startup.k8s.pod_setup_ms";

	/**
	 * Double: on {@code gym.startup.server}, the image pull within {@code pod_setup} as the kubelet's
	 * {@code Pulled} event tells it (its wait for the image puller included), in milliseconds;
	 * omitted when the image was already present or the event is gone.
	 */
	public static final String IMAGE_PULL_MS = "startup.k8s.image_pull_ms";

	/**
	 * Double: on the {@code image_pull} span, the part of it the pull waited for the kubelet's image
	 * puller (the {@code Pulled} event's "including waiting" less the pull itself), in milliseconds.
	 */
	public static final String IMAGE_PULL_WAITING_MS = "startup.k8s.image_pull.waiting_ms";

	/** Set in every pod (with {@code KUBERNETES_SERVICE_PORT}): the API server's address. */
	public static final String ENV_SERVICE_HOST = "KUBERNETES_SERVICE_HOST";

	/** Downward API ({@code metadata.name}), the OpenTelemetry Operator's name: the pod's name. */
	public static final String ENV_POD_NAME = "OTEL_RESOURCE_ATTRIBUTES_POD_NAME";

	/** Downward API ({@code metadata.uid}), the OpenTelemetry Operator's name: the pod's uid. */
	public static final String ENV_POD_UID = "OTEL_RESOURCE_ATTRIBUTES_POD_UID";

	/** Downward API ({@code spec.nodeName}), the OpenTelemetry Operator's name: the pod's node. */
	public static final String ENV_NODE_NAME = "OTEL_RESOURCE_ATTRIBUTES_NODE_NAME";

	private KubernetesAttributes() {
	}

}
