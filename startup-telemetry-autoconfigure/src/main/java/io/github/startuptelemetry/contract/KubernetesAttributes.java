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
	 * Kubernetes API, the resolution of its coarsest boundary, in milliseconds: {@code 1000} when one
	 * is in whole seconds, {@code 0.001} when the coarsest is the scheduler's microsecond
	 * {@code eventTime}. Resolution only, not accuracy: it says nothing of the clocks the boundaries
	 * came from nor of clamping. Deprecated: read {@link #START_SOURCE}, {@link #END_SOURCE}, their
	 * resolutions, {@link #SAME_CLOCK} and {@link #CLAMPED_MS}; kept with this meaning.
	 */
	public static final String PRECISION_MS = "startup.k8s.precision_ms";

	/**
	 * String: on a stage span (or a span nested in {@code pod_setup}) with a boundary taken from the
	 * pod, where its start came from: one of the {@code SOURCE_*} values.
	 */
	public static final String START_SOURCE = "startup.k8s.start_source";

	/** String: as {@link #START_SOURCE}, for the span's end. */
	public static final String END_SOURCE = "startup.k8s.end_source";

	/** Double: the resolution of the span's start as its source keeps it, in milliseconds. */
	public static final String START_RESOLUTION_MS = "startup.k8s.start_resolution_ms";

	/** Double: the resolution of the span's end as its source keeps it, in milliseconds. */
	public static final String END_RESOLUTION_MS = "startup.k8s.end_resolution_ms";

	/**
	 * Boolean: whether the span's two boundaries were read off one clock (one host's). When not,
	 * its duration also holds the offset between the two clocks, which nothing here measures.
	 */
	public static final String SAME_CLOCK = "startup.k8s.same_clock";

	/**
	 * Double: how far, in milliseconds, the span's boundaries were moved (added up) to keep the
	 * stages contiguous and the pod's before the process's start; {@code 0} when they are as read.
	 */
	public static final String CLAMPED_MS = "startup.k8s.clamped_ms";

	/**
	 * String: what the pod waited on during the span (on {@code gym.startup.server}: during its
	 * startup), as the scheduler and the kubelet said it: e.g.
	 * {@code Unschedulable 12.4 s: 0/3 nodes are available: 3 Insufficient cpu.}.
	 */
	public static final String WAITED_ON = "startup.k8s.waited_on";

	/** A {@link #START_SOURCE} value: the supervisor's create call (its clock, nanoseconds). */
	public static final String SOURCE_SPAWN = "supervisor_spawn";

	/** A source: the pod's {@code creationTimestamp} (the API server's clock, whole seconds). */
	public static final String SOURCE_CREATION = "pod_creation";

	/** A source: the scheduler's {@code Scheduled} event (the control plane's clock, microseconds). */
	public static final String SOURCE_SCHEDULED_EVENT = "scheduled_event";

	/** A source: a pod condition's {@code lastTransitionTime} (whole seconds). */
	public static final String SOURCE_CONDITION = "pod_condition";

	/** A source: a container status's {@code startedAt} (the node's clock, whole seconds). */
	public static final String SOURCE_CONTAINER_STATUS = "container_status";

	/**
	 * A source: the start of the container's first process (PID 1), read inside the container from
	 * {@code /proc/1/stat} against {@code /proc/uptime}: the node's clock, which the server's own
	 * process reads too, to the kernel's 10 ms.
	 */
	public static final String SOURCE_CONTAINER_PROCESS = "container_process";

	/** A source: the kubelet's {@code Pulled} event (whole seconds) less the duration it states. */
	public static final String SOURCE_PULLED_EVENT = "pulled_event";

	/** A source: the server process's own measurement (the JVM's start). */
	public static final String SOURCE_PROCESS = "process";

	/**
	 * A span nested in {@code pod_setup} (not a stage): from the scheduling to the pod's sandbox and
	 * network being ready ({@code PodReadyToStartContainers}), where the cluster has the condition.
	 */
	public static final String SPAN_POD_SANDBOX = "pod_sandbox";

	/**
	 * A span nested in {@code pod_setup} (not a stage): the pod's init containers, until the
	 * {@code Initialized} condition, for a pod that has any.
	 */
	public static final String SPAN_INIT_CONTAINERS = "init_containers";

	/** Double: on {@code gym.startup.server}, the pod's {@code pod_scheduling} stage, in milliseconds. */
	public static final String POD_SCHEDULING_MS = "startup.k8s.pod_scheduling_ms";

	/** Double: on {@code gym.startup.server}, the pod's {@code pod_setup} stage, in milliseconds. */
	public static final String POD_SETUP_MS = "startup.k8s.pod_setup_ms";

	/**
	 * Double: on {@code gym.startup.server}, the image pull of the server's container within
	 * {@code pod_setup} as the kubelet's {@code Pulled} event tells it (its wait for the image puller
	 * included), in milliseconds; omitted when the image was already present or the event is gone.
	 */
	public static final String IMAGE_PULL_MS = "startup.k8s.image_pull_ms";

	/**
	 * Double: on {@code gym.startup.server}, every image pull of the pod (init containers and
	 * sidecars too) added up, in milliseconds; omitted when no pull is known.
	 */
	public static final String IMAGE_PULLS_MS = "startup.k8s.image_pulls_ms";

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
