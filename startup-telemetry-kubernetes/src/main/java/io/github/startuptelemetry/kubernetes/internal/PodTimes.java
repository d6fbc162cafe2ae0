package io.github.startuptelemetry.kubernetes.internal;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.KubernetesAttributes;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.timeline.internal.PlatformStages;
import io.github.startuptelemetry.timeline.Stage;

/**
 * When a pod was created, scheduled and its server's container started, and what its image pull
 * took, as the Kubernetes API tells them, for the server (its own pod) and its supervisor (each
 * pod it created) alike. Events are best-effort: used when there, never required.
 */
public final class PodTimes {

	/** The precision of a field the API keeps in whole seconds ({@code metav1.Time}). */
	public static final double SECONDS = 1000.0;

	/** The precision of a {@code metav1.MicroTime} ({@code eventTime}). */
	public static final double MICROSECONDS = 0.001;

	/** The precision of a supervisor's own clock reading (its spawn stamp). */
	static final double NANOSECONDS = 0.000001;

	/** Kubernetes' annotation naming a pod's default container ({@code kubectl logs}, {@code exec}). */
	public static final String DEFAULT_CONTAINER_ANNOTATION = "kubectl.kubernetes.io/default-container";

	private final @Nullable Time created;

	private final @Nullable Time scheduled;

	private final @Nullable Time started;

	private final @Nullable Time pulled;

	private final @Nullable PulledMessage pull;

	private final Map<String, Object> names;

	private PodTimes(@Nullable Time created, @Nullable Time scheduled, @Nullable Time started, @Nullable Time pulled,
			@Nullable PulledMessage pull, Map<String, Object> names) {
		this.created = created;
		this.scheduled = scheduled;
		this.started = started;
		this.pulled = pulled;
		this.pull = pull;
		this.names = names;
	}

	/**
	 * The times of {@code pod}, with its {@code events} (any order, any object: those of other
	 * objects are skipped).
	 * @param container the server's container, or {@code null} for the pod's default
	 */
	public static PodTimes of(Pod pod, List<Event> events, @Nullable String container) {
		String name = container(pod, container);
		String uid = (pod.getMetadata() != null) ? pod.getMetadata().getUid() : null;
		Time created = (pod.getMetadata() != null) ? Time.seconds(pod.getMetadata().getCreationTimestamp()) : null;
		Time scheduled = null;
		Time pulled = null;
		PulledMessage pull = null;
		for (Event event : events) {
			if (!about(event, pod, uid)) {
				continue;
			}
			if ("Scheduled".equals(event.getReason()) && scheduled == null) {
				scheduled = eventTime(event);
			}
			else if ("Pulled".equals(event.getReason()) && name != null && event.getInvolvedObject() != null
					&& ("spec.containers{" + name + "}").equals(event.getInvolvedObject().getFieldPath())) {
				PulledMessage message = PulledMessage.parse(event.getMessage());
				if (message != null) {
					pulled = eventTime(event);
					pull = message;
				}
			}
		}
		if (scheduled == null) {
			scheduled = Time.seconds(condition(pod, "PodScheduled"));
		}
		return new PodTimes(created, scheduled, Time.seconds(startedAt(pod, name)), pulled, pull, names(pod, name));
	}

	private static boolean about(Event event, Pod pod, @Nullable String uid) {
		if (event.getInvolvedObject() == null) {
			return false;
		}
		if (uid != null && event.getInvolvedObject().getUid() != null) {
			return uid.equals(event.getInvolvedObject().getUid());
		}
		return pod.getMetadata() != null && "Pod".equals(event.getInvolvedObject().getKind())
				&& pod.getMetadata().getName() != null
				&& pod.getMetadata().getName().equals(event.getInvolvedObject().getName());
	}

	/** The event's {@code eventTime} when set (microseconds), else when it was last recorded (seconds). */
	private static @Nullable Time eventTime(Event event) {
		if (event.getEventTime() != null && event.getEventTime().getTime() != null) {
			Time time = Time.parse(event.getEventTime().getTime(), MICROSECONDS);
			if (time != null) {
				return time;
			}
		}
		Time last = Time.seconds(event.getLastTimestamp());
		return (last != null) ? last : Time.seconds(event.getFirstTimestamp());
	}

	private static @Nullable String condition(Pod pod, String type) {
		if (pod.getStatus() == null) {
			return null;
		}
		for (PodCondition condition : pod.getStatus().getConditions()) {
			if (type.equals(condition.getType()) && "True".equals(condition.getStatus())) {
				return condition.getLastTransitionTime();
			}
		}
		return null;
	}

	/** The server's container: the one named, else the pod's default container, else its first. */
	static @Nullable String container(Pod pod, @Nullable String named) {
		if (named != null && !named.isBlank()) {
			return named;
		}
		if (pod.getMetadata() != null && pod.getMetadata().getAnnotations() != null) {
			String annotated = pod.getMetadata().getAnnotations().get(DEFAULT_CONTAINER_ANNOTATION);
			if (annotated != null && !annotated.isBlank()) {
				return annotated;
			}
		}
		if (pod.getSpec() != null && !pod.getSpec().getContainers().isEmpty()) {
			Container first = pod.getSpec().getContainers().get(0);
			return first.getName();
		}
		return null;
	}

	/** When the container's current (or last) run started, or {@code null} before it runs. */
	static @Nullable String startedAt(Pod pod, @Nullable String container) {
		ContainerStatus status = status(pod, container);
		if (status == null) {
			return null;
		}
		ContainerState state = status.getState();
		if (state != null && state.getRunning() != null && state.getRunning().getStartedAt() != null) {
			return state.getRunning().getStartedAt();
		}
		if (state != null && state.getTerminated() != null && state.getTerminated().getStartedAt() != null) {
			return state.getTerminated().getStartedAt();
		}
		return null;
	}

	/** The status of the container named {@code container}, or {@code null}. */
	public static @Nullable ContainerStatus status(Pod pod, @Nullable String container) {
		if (pod.getStatus() == null || container == null) {
			return null;
		}
		for (ContainerStatus status : pod.getStatus().getContainerStatuses()) {
			if (container.equals(status.getName())) {
				return status;
			}
		}
		return null;
	}

	/** OpenTelemetry's {@code k8s.*} names of the pod, those it has. */
	private static Map<String, Object> names(Pod pod, @Nullable String container) {
		Map<String, Object> names = new LinkedHashMap<>();
		if (pod.getMetadata() != null) {
			put(names, KubernetesAttributes.POD_NAME, pod.getMetadata().getName());
			put(names, KubernetesAttributes.POD_UID, pod.getMetadata().getUid());
			put(names, KubernetesAttributes.NAMESPACE_NAME, pod.getMetadata().getNamespace());
		}
		if (pod.getSpec() != null) {
			put(names, KubernetesAttributes.NODE_NAME, pod.getSpec().getNodeName());
		}
		put(names, KubernetesAttributes.CONTAINER_NAME, container);
		return Map.copyOf(names);
	}

	private static void put(Map<String, Object> names, String key, @Nullable String value) {
		if (value != null && !value.isBlank()) {
			names.put(key, value);
		}
	}

	/** Whether the container has started: the pod's stages are known. */
	public boolean started() {
		return this.created != null && this.started != null;
	}

	/** OpenTelemetry's {@code k8s.*} names of the pod and the server's container. */
	public Map<String, Object> names() {
		return this.names;
	}

	/**
	 * The pod's stages as the API tells them: {@code pod_scheduling} from its creation to its
	 * scheduling, {@code pod_setup} from there to the container's start, each boundary clamped to
	 * the one before; empty before the container started.
	 */
	public List<Stage> stages() {
		if (!started()) {
			return List.of();
		}
		long created = this.created.epochNs();
		long scheduled = Math.max(created, (this.scheduled != null) ? this.scheduled.epochNs() : created);
		long started = Math.max(scheduled, this.started.epochNs());
		return List.of(new Stage(StageNames.POD_SCHEDULING, created, scheduled),
				new Stage(StageNames.POD_SETUP, scheduled, started));
	}

	/**
	 * The process's own stages with the pod's ahead ({@link PlatformStages#ahead(List, List)}), each
	 * span that has a boundary from the API saying how precise it is, the image pull nested in
	 * {@code pod_setup}, and the pod's names for the root span. Just {@code own} before the
	 * container started.
	 */
	public PlatformStages ahead(List<Stage> own) {
		List<Stage> stages = PlatformStages.ahead(own, stages());
		if (stages == own) {
			return PlatformStages.none(own);
		}
		boolean spawned = PlatformStages.spawned(own);
		// the first boundary is the supervisor's spawn stamp when there is one, else the creation
		double createdPrecision = spawned ? NANOSECONDS : SECONDS;
		double scheduledPrecision = (this.scheduled != null) ? this.scheduled.precisionMs() : SECONDS;
		Map<String, Map<String, Object>> attributes = new LinkedHashMap<>();
		attributes.put(StageNames.POD_SCHEDULING, precision(Math.max(createdPrecision, scheduledPrecision)));
		attributes.put(StageNames.POD_SETUP, precision(Math.max(scheduledPrecision, SECONDS)));
		// the stage after the pod's begins at the container's start, in whole seconds too
		attributes.put(stages.get(2).name(), precision(SECONDS));
		List<PlatformStages.Nested> nested = new ArrayList<>();
		Stage setup = stages.get(1);
		Stage pull = imagePull(setup);
		if (pull != null) {
			Map<String, Object> pullAttributes = new LinkedHashMap<>(precision(this.pulled.precisionMs()));
			pullAttributes.put(KubernetesAttributes.IMAGE_PULL_WAITING_MS, this.pull.waitingNs() / 1e6);
			nested.add(new PlatformStages.Nested(StageNames.POD_SETUP, pull, pullAttributes));
		}
		return new PlatformStages(stages, attributes, nested, this.names);
	}

	/** The image pull, clamped into {@code setup}; {@code null} when unknown. */
	private @Nullable Stage imagePull(Stage setup) {
		if (this.pulled == null || this.pull == null) {
			return null;
		}
		long end = Math.min(Math.max(this.pulled.epochNs(), setup.startNs()), setup.endNs());
		long start = Math.min(Math.max(this.pulled.epochNs() - this.pull.totalNs(), setup.startNs()), end);
		return new Stage(StageNames.IMAGE_PULL, start, end);
	}

	private static Map<String, Object> precision(double precisionMs) {
		return Map.of(KubernetesAttributes.PRECISION_MS, precisionMs);
	}

	/**
	 * What a supervisor's {@code gym.startup.server} span says of the pod: its {@code k8s.*} names,
	 * and, once the container started, its stages' and its image pull's durations with how precise
	 * they are (as the API tells them: the server's own spans place them against its start).
	 */
	public Map<String, Object> attributes() {
		Map<String, Object> attributes = new LinkedHashMap<>(this.names);
		List<Stage> stages = stages();
		if (!stages.isEmpty()) {
			attributes.put(KubernetesAttributes.POD_SCHEDULING_MS, stages.get(0).durationMs());
			attributes.put(KubernetesAttributes.POD_SETUP_MS, stages.get(1).durationMs());
			if (this.pull != null) {
				attributes.put(KubernetesAttributes.IMAGE_PULL_MS, this.pull.totalNs() / 1e6);
			}
			attributes.put(KubernetesAttributes.PRECISION_MS, SECONDS);
		}
		return attributes;
	}

	/**
	 * A time from the API and how precise it is.
	 *
	 * @param epochNs the time
	 * @param precisionMs its precision, in milliseconds
	 */
	record Time(long epochNs, double precisionMs) {

		static @Nullable Time seconds(@Nullable String text) {
			return parse(text, SECONDS);
		}

		static @Nullable Time parse(@Nullable String text, double precisionMs) {
			if (text == null || text.isBlank()) {
				return null;
			}
			try {
				Instant instant = Instant.parse(text.strip());
				return new Time(instant.getEpochSecond() * 1_000_000_000L + instant.getNano(), precisionMs);
			}
			catch (DateTimeParseException | ArithmeticException ex) {
				return null;
			}
		}

	}

}
