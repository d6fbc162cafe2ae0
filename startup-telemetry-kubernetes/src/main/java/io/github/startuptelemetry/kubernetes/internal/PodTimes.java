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
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.internal.PlatformStages;

/**
 * When a pod was created, scheduled, set up and its server's container started, and what its image
 * pulls took, as the Kubernetes API (and, in the container, {@code /proc}) tells them, each
 * boundary with its source, resolution and clock: for the server (its own pod) and its supervisor
 * (each pod it created) alike. Events are best-effort: used when there, never required.
 */
public final class PodTimes {

	/** The resolution of a field the API keeps in whole seconds ({@code metav1.Time}). */
	public static final double SECONDS = 1000.0;

	/** The resolution of a {@code metav1.MicroTime} ({@code eventTime}). */
	public static final double MICROSECONDS = 0.001;

	/** The resolution of a supervisor's own clock reading (its spawn stamp). */
	static final double NANOSECONDS = 0.000001;

	/** The supervisor's clock. */
	static final String SUPERVISOR_CLOCK = "supervisor";

	/** The API server's and the scheduler's clock (the control plane's). */
	static final String CONTROL_PLANE_CLOCK = "control_plane";

	/** The node's clock: the kubelet's, the container runtime's and the server process's own. */
	static final String NODE_CLOCK = "node";

	/** Kubernetes' annotation naming a pod's default container ({@code kubectl logs}, {@code exec}). */
	public static final String DEFAULT_CONTAINER_ANNOTATION = "kubectl.kubernetes.io/default-container";

	private final @Nullable Boundary created;

	private final @Nullable Boundary scheduled;

	private final @Nullable Boundary sandboxReady;

	private final @Nullable Boundary initialized;

	private final @Nullable Boundary started;

	private final @Nullable String container;

	private final List<Pull> pulls;

	private final Map<String, String> waitedOn;

	private final Map<String, Object> names;

	private PodTimes(@Nullable Boundary created, @Nullable Boundary scheduled, @Nullable Boundary sandboxReady,
			@Nullable Boundary initialized, @Nullable Boundary started, @Nullable String container, List<Pull> pulls,
			Map<String, String> waitedOn, Map<String, Object> names) {
		this.created = created;
		this.scheduled = scheduled;
		this.sandboxReady = sandboxReady;
		this.initialized = initialized;
		this.started = started;
		this.container = container;
		this.pulls = pulls;
		this.waitedOn = waitedOn;
		this.names = names;
	}

	/**
	 * The times of {@code pod} as the API tells them, with its {@code events} (any order, any
	 * object: those of other objects are skipped).
	 * @param container the server's container, or {@code null} for the pod's default
	 */
	public static PodTimes of(Pod pod, List<Event> events, @Nullable String container) {
		return of(pod, events, container, null, null);
	}

	/**
	 * The times of {@code pod}, its creation the supervisor's create call when {@code spawnNs} is
	 * given, its container's start the process's when {@code containerProcess} is given and agrees
	 * with the container's status (same node clock, finer than its whole second).
	 * @param container the server's container, or {@code null} for the pod's default
	 * @param spawnNs when the supervisor sent the create call (its own clock), or {@code null}
	 * @param containerProcess when the container's first process started, read in the container, or
	 * {@code null}
	 */
	public static PodTimes of(Pod pod, List<Event> events, @Nullable String container, @Nullable Long spawnNs,
			@Nullable Boundary containerProcess) {
		String name = container(pod, container);
		String uid = (pod.getMetadata() != null) ? pod.getMetadata().getUid() : null;
		Boundary created = (spawnNs != null)
				? new Boundary(spawnNs, NANOSECONDS, KubernetesAttributes.SOURCE_SPAWN, SUPERVISOR_CLOCK)
				: Boundary.seconds((pod.getMetadata() != null) ? pod.getMetadata().getCreationTimestamp() : null,
						KubernetesAttributes.SOURCE_CREATION, CONTROL_PLANE_CLOCK);
		Boundary scheduled = null;
		List<Pull> pulls = new ArrayList<>();
		List<Event> mine = new ArrayList<>();
		for (Event event : events) {
			if (!about(event, pod, uid)) {
				continue;
			}
			mine.add(event);
			if ("Scheduled".equals(event.getReason()) && scheduled == null) {
				scheduled = eventTime(event, KubernetesAttributes.SOURCE_SCHEDULED_EVENT, CONTROL_PLANE_CLOCK);
			}
			else if ("Pulled".equals(event.getReason())) {
				Pull pull = Pull.of(event);
				if (pull != null) {
					pulls.add(pull);
				}
			}
		}
		if (scheduled == null) {
			scheduled = Boundary.seconds(condition(pod, "PodScheduled"), KubernetesAttributes.SOURCE_CONDITION,
					CONTROL_PLANE_CLOCK);
		}
		Boundary sandbox = Boundary.seconds(condition(pod, "PodReadyToStartContainers"),
				KubernetesAttributes.SOURCE_CONDITION, NODE_CLOCK);
		Boundary initialized = (pod.getSpec() != null && !pod.getSpec().getInitContainers().isEmpty())
				? Boundary.seconds(condition(pod, "Initialized"), KubernetesAttributes.SOURCE_CONDITION, NODE_CLOCK) : null;
		Boundary startedAt = Boundary.seconds(startedAt(pod, name), KubernetesAttributes.SOURCE_CONTAINER_STATUS,
				NODE_CLOCK);
		Boundary started = agrees(containerProcess, startedAt) ? containerProcess : startedAt;
		// the server's container's pull first: it is the one the supervisor's attribute names
		pulls.sort((a, b) -> Boolean.compare(!a.container().equals(name), !b.container().equals(name)));
		return new PodTimes(created, scheduled, sandbox, initialized, started, name, List.copyOf(pulls),
				PodWaits.fromEvents(mine), names(pod, name));
	}

	/**
	 * Whether the container's first process, read in the container, started within the second its
	 * status says (or shortly before: the runtime creates it before it records the start): else it is
	 * not the server's container's (a shared process namespace, a restart) and the status is kept.
	 */
	static boolean agrees(@Nullable Boundary process, @Nullable Boundary startedAt) {
		if (process == null || startedAt == null) {
			return false;
		}
		long early = startedAt.epochNs() - 2_000_000_000L;
		long late = startedAt.epochNs() + 1_000_000_000L;
		return process.epochNs() >= early && process.epochNs() < late;
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
	static @Nullable Boundary eventTime(Event event, String source, String clock) {
		if (event.getEventTime() != null && event.getEventTime().getTime() != null) {
			Boundary time = Boundary.parse(event.getEventTime().getTime(), MICROSECONDS, source, clock);
			if (time != null) {
				return time;
			}
		}
		Boundary last = Boundary.seconds(event.getLastTimestamp(), source, clock);
		return (last != null) ? last : Boundary.seconds(event.getFirstTimestamp(), source, clock);
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
	public static @Nullable String container(Pod pod, @Nullable String named) {
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

	/** The names of the pod's containers (not its init containers), in order. */
	public static List<String> containers(Pod pod) {
		return (pod.getSpec() != null) ? pod.getSpec().getContainers().stream().map(Container::getName).toList()
				: List.of();
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

	/** Where the container's start came from: one of {@code KubernetesAttributes.SOURCE_*}; {@code null} before it. */
	public @Nullable String startSource() {
		return (this.started != null) ? this.started.source() : null;
	}

	/** OpenTelemetry's {@code k8s.*} names of the pod and the server's container. */
	public Map<String, Object> names() {
		return this.names;
	}

	/**
	 * The pod's stages as they were read: {@code pod_scheduling} from its creation (the
	 * supervisor's create call when known) to its scheduling, {@code pod_setup} from there to the
	 * container's start, each boundary clamped to the one before; empty before the container started.
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
	 * span with a boundary from the pod saying where each came from, how fine, on which clocks and
	 * how far it was clamped; the pod's sandbox, init containers and image pulls nested in
	 * {@code pod_setup}; the pod's names for the root span. Just {@code own} before the container
	 * started.
	 */
	public PlatformStages ahead(List<Stage> own) {
		List<Stage> stages = PlatformStages.ahead(own, stages());
		if (stages == own) {
			return PlatformStages.none(own);
		}
		// the first boundary is the supervisor's spawn stamp when there is one, else the creation
		Boundary first = PlatformStages.spawned(own) ? new Boundary(own.get(0).startNs(), NANOSECONDS,
				KubernetesAttributes.SOURCE_SPAWN, SUPERVISOR_CLOCK) : this.created;
		Boundary scheduled = (this.scheduled != null) ? this.scheduled : first;
		Boundary process = new Boundary(stages.get(2).endNs(), NANOSECONDS, KubernetesAttributes.SOURCE_PROCESS,
				NODE_CLOCK);
		Map<String, Map<String, Object>> attributes = new LinkedHashMap<>();
		attributes.put(StageNames.POD_SCHEDULING, span(first, scheduled, stages.get(0),
				this.waitedOn.get(StageNames.POD_SCHEDULING)));
		attributes.put(StageNames.POD_SETUP, span(scheduled, this.started, stages.get(1),
				this.waitedOn.get(StageNames.POD_SETUP)));
		// the stage after the pod's begins at the container's start
		attributes.put(stages.get(2).name(), span(this.started, process, stages.get(2), null));
		Stage setup = stages.get(1);
		List<PlatformStages.Nested> nested = new ArrayList<>();
		Boundary sandboxEnd = nest(nested, setup, KubernetesAttributes.SPAN_POD_SANDBOX, scheduled, this.sandboxReady);
		nest(nested, setup, KubernetesAttributes.SPAN_INIT_CONTAINERS, (sandboxEnd != null) ? sandboxEnd : scheduled,
				this.initialized);
		for (Pull pull : this.pulls) {
			Stage stage = pull.within(setup);
			Map<String, Object> pullAttributes = new LinkedHashMap<>(span(pull.start(), pull.end(), stage, null));
			pullAttributes.put(KubernetesAttributes.IMAGE_PULL_WAITING_MS, pull.message().waitingNs() / 1e6);
			pullAttributes.put(KubernetesAttributes.CONTAINER_NAME, pull.container());
			nested.add(new PlatformStages.Nested(StageNames.POD_SETUP, stage, pullAttributes));
		}
		return new PlatformStages(stages, attributes, nested, this.names);
	}

	/** A span nested in {@code setup} from {@code start} to {@code end}, when the pod tells the end; that end. */
	private static @Nullable Boundary nest(List<PlatformStages.Nested> nested, Stage setup, String name,
			Boundary start, @Nullable Boundary end) {
		if (end == null) {
			return null;
		}
		long from = clamp(start.epochNs(), setup);
		Stage stage = new Stage(name, from, Math.max(from, clamp(end.epochNs(), setup)));
		nested.add(new PlatformStages.Nested(StageNames.POD_SETUP, stage, span(start, end, stage, null)));
		return end;
	}

	private static long clamp(long ns, Stage within) {
		return Math.min(Math.max(ns, within.startNs()), within.endNs());
	}

	/** What a span from {@code start} to {@code end}, placed as {@code placed}, says of its boundaries. */
	private static Map<String, Object> span(Boundary start, Boundary end, Stage placed, @Nullable String waitedOn) {
		Map<String, Object> attributes = new LinkedHashMap<>();
		attributes.put(KubernetesAttributes.PRECISION_MS, Math.max(start.resolutionMs(), end.resolutionMs()));
		attributes.put(KubernetesAttributes.START_SOURCE, start.source());
		attributes.put(KubernetesAttributes.START_RESOLUTION_MS, start.resolutionMs());
		attributes.put(KubernetesAttributes.END_SOURCE, end.source());
		attributes.put(KubernetesAttributes.END_RESOLUTION_MS, end.resolutionMs());
		attributes.put(KubernetesAttributes.SAME_CLOCK, start.clock().equals(end.clock()));
		attributes.put(KubernetesAttributes.CLAMPED_MS,
				(Math.abs(placed.startNs() - start.epochNs()) + Math.abs(placed.endNs() - end.epochNs())) / 1e6);
		if (waitedOn != null) {
			attributes.put(KubernetesAttributes.WAITED_ON, waitedOn);
		}
		return attributes;
	}

	/**
	 * What a supervisor's {@code gym.startup.server} span says of the pod: its {@code k8s.*} names,
	 * and, once the container started, its stages' and its image pulls' durations (as read: the
	 * server's own spans place them against its start, which may clamp them).
	 */
	public Map<String, Object> attributes() {
		Map<String, Object> attributes = new LinkedHashMap<>(this.names);
		List<Stage> stages = stages();
		if (!stages.isEmpty()) {
			attributes.put(KubernetesAttributes.POD_SCHEDULING_MS, stages.get(0).durationMs());
			attributes.put(KubernetesAttributes.POD_SETUP_MS, stages.get(1).durationMs());
			this.pulls.stream()
				.filter((pull) -> pull.container().equals(this.container))
				.findFirst()
				.ifPresent((pull) -> attributes.put(KubernetesAttributes.IMAGE_PULL_MS, pull.message().totalNs() / 1e6));
			if (!this.pulls.isEmpty()) {
				attributes.put(KubernetesAttributes.IMAGE_PULLS_MS,
						this.pulls.stream().mapToLong((pull) -> pull.message().totalNs()).sum() / 1e6);
			}
			attributes.put(KubernetesAttributes.PRECISION_MS, SECONDS);
		}
		return attributes;
	}

	/**
	 * A time read off the pod (or the container), how fine, from where and on which host's clock.
	 *
	 * @param epochNs the time
	 * @param resolutionMs the resolution its source keeps it in, in milliseconds
	 * @param source where it came from, a {@code KubernetesAttributes.SOURCE_*} value
	 * @param clock whose clock: the supervisor's, the control plane's or the node's
	 */
	public record Boundary(long epochNs, double resolutionMs, String source, String clock) {

		/** A time the container's own process read on its node's clock. */
		public static Boundary containerProcess(long epochNs, double resolutionMs) {
			return new Boundary(epochNs, resolutionMs, KubernetesAttributes.SOURCE_CONTAINER_PROCESS, NODE_CLOCK);
		}

		static @Nullable Boundary seconds(@Nullable String text, String source, String clock) {
			return parse(text, SECONDS, source, clock);
		}

		static @Nullable Boundary parse(@Nullable String text, double resolutionMs, String source, String clock) {
			Long ns = PodTimes.epochNs(text);
			return (ns != null) ? new Boundary(ns, resolutionMs, source, clock) : null;
		}

	}

	/** An RFC 3339 time's epoch nanoseconds, or {@code null}. */
	static @Nullable Long epochNs(@Nullable String text) {
		if (text == null || text.isBlank()) {
			return null;
		}
		try {
			Instant instant = Instant.parse(text.strip());
			return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
		}
		catch (DateTimeParseException | ArithmeticException ex) {
			return null;
		}
	}

	/**
	 * One container's image pull, from the kubelet's {@code Pulled} event.
	 *
	 * @param container the container
	 * @param end the event's time
	 * @param message the durations it states
	 */
	record Pull(String container, Boundary end, PulledMessage message) {

		/** The pull of a {@code Pulled} event about one container, or {@code null} (no pull, no container). */
		static @Nullable Pull of(Event event) {
			String container = containerOf(event);
			PulledMessage message = PulledMessage.parse(event.getMessage());
			Boundary end = eventTime(event, KubernetesAttributes.SOURCE_PULLED_EVENT, NODE_CLOCK);
			return (container != null && message != null && end != null) ? new Pull(container, end, message) : null;
		}

		Boundary start() {
			return new Boundary(this.end.epochNs() - this.message.totalNs(), this.end.resolutionMs(), this.end.source(),
					this.end.clock());
		}

		/** The pull, clamped into {@code setup}. */
		Stage within(Stage setup) {
			long end = clamp(this.end.epochNs(), setup);
			long start = Math.min(clamp(this.end.epochNs() - this.message.totalNs(), setup), end);
			return new Stage(StageNames.IMAGE_PULL, start, end);
		}

	}

	/** The container an event is about ({@code spec.containers{x}}, {@code spec.initContainers{x}}), or {@code null}. */
	static @Nullable String containerOf(Event event) {
		String path = (event.getInvolvedObject() != null) ? event.getInvolvedObject().getFieldPath() : null;
		if (path == null) {
			return null;
		}
		for (String prefix : List.of("spec.containers{", "spec.initContainers{")) {
			if (path.startsWith(prefix) && path.endsWith("}")) {
				return path.substring(prefix.length(), path.length() - 1);
			}
		}
		return null;
	}

}
