package io.github.startuptelemetry.kubernetes.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.StageNames;

/**
 * What a pod waits on that the scheduler or the kubelet retries (unschedulable, an image pull
 * backing off, a Secret not there yet), from its status; and what it waited on, from its events.
 * A wait is no failure: it ends when the cause goes (a node added, the registry answering).
 */
public final class PodWaits {

	/** The kubelet's image pull errors: each retried with a back-off (up to 5 minutes apart). */
	static final Set<String> IMAGE = Set.of("ErrImagePull", "ImagePullBackOff", "RegistryUnavailable",
			"ImageInspectError", "SignatureValidationFailed", "ErrImageNeverPull");

	/** The kubelet's container creation errors: retried on each of its syncs (a Secret created later). */
	static final Set<String> CONFIG = Set.of("CreateContainerConfigError", "CreateContainerError",
			"PreCreateHookError", "PreStartHookError");

	/** The scheduler's reasons for {@code PodScheduled=False}: it retries each. */
	static final Set<String> SCHEDULING = Set.of("Unschedulable", "SchedulingGated", "SchedulerError");

	/** The kubelet's events of a pod being set up that say why it is not yet. */
	static final Set<String> SETUP_EVENTS = Set.of("FailedMount", "FailedAttachVolume", "FailedCreatePodSandBox",
			"FailedCreatePodSandbox", "Failed", "BackOff", "InspectFailed", "ErrImageNeverPull", "FailedPostStartHook");

	private PodWaits() {
	}

	/** What a pod waits on, by its kind: the limits a supervisor may set differ per kind. */
	public enum Kind {

		/** The scheduler found no node (yet): an autoscaler may add one, a preemption may make room. */
		SCHEDULING("the scheduler"),

		/** An image pull failed and is retried with a back-off. */
		IMAGE("its image"),

		/** The container could not be created yet (a Secret or ConfigMap missing, a hook). */
		CONFIG("its container's configuration");

		private final String words;

		Kind(String words) {
			this.words = words;
		}

		/** What it waits for, e.g. {@code the scheduler}. */
		public String words() {
			return this.words;
		}

	}

	/**
	 * A wait.
	 *
	 * @param kind its kind
	 * @param reason the scheduler's or the kubelet's reason, e.g. {@code ImagePullBackOff}
	 * @param message their message, or {@code no message}
	 * @param who what waits, e.g. {@code container 'server' of pod model-0-x7k2p}
	 */
	public record Wait(Kind kind, String reason, String message, String who) {

		/** The sentence, e.g. {@code waits for its image (container 'server' of pod P, ImagePullBackOff: ...)}. */
		public String describe() {
			return "waits for " + this.kind.words() + " (" + this.who + ", " + this.reason + ": " + this.message + ")";
		}

	}

	/**
	 * What {@code pod} waits on now that the scheduler or the kubelet retries, or {@code null}: not
	 * scheduled for a reason the scheduler retries, or a container (an init container, a sidecar,
	 * the server's) waiting for its image or its configuration.
	 */
	public static @Nullable Wait current(Pod pod) {
		String name = (pod.getMetadata() != null) ? pod.getMetadata().getName() : "?";
		if (pod.getStatus() == null) {
			return null;
		}
		for (PodCondition condition : pod.getStatus().getConditions()) {
			if ("PodScheduled".equals(condition.getType()) && "False".equals(condition.getStatus())
					&& condition.getReason() != null && SCHEDULING.contains(condition.getReason())) {
				return new Wait(Kind.SCHEDULING, condition.getReason(), text(condition.getMessage()), "pod " + name);
			}
		}
		List<ContainerStatus> statuses = new ArrayList<>(pod.getStatus().getInitContainerStatuses());
		statuses.addAll(pod.getStatus().getContainerStatuses());
		for (ContainerStatus status : statuses) {
			ContainerStateWaiting waiting = (status.getState() != null) ? status.getState().getWaiting() : null;
			String reason = (waiting != null) ? waiting.getReason() : null;
			Kind kind = (reason == null) ? null
					: IMAGE.contains(reason) ? Kind.IMAGE : CONFIG.contains(reason) ? Kind.CONFIG : null;
			if (kind != null) {
				boolean init = pod.getStatus().getInitContainerStatuses().contains(status);
				return new Wait(kind, reason, text(waiting.getMessage()),
						(init ? "init container '" : "container '") + status.getName() + "' of pod " + name);
			}
		}
		return null;
	}

	/**
	 * What the pod waited on, by the stage it waited in, from its events: the scheduler's
	 * {@code FailedScheduling} in {@code pod_scheduling}; the kubelet's warnings (a failed pull, a
	 * volume that would not mount, a sandbox not created) and image back-offs in {@code pod_setup}.
	 * Each reason once, with how often it was said and its last message, e.g.
	 * {@code FailedScheduling ×3: 0/1 nodes are available: 1 Insufficient cpu.}.
	 */
	public static Map<String, String> fromEvents(List<Event> events) {
		Map<String, Map<String, Said>> byStage = new LinkedHashMap<>();
		for (Event event : events) {
			String reason = String.valueOf(event.getReason());
			String stage = "FailedScheduling".equals(reason) ? StageNames.POD_SCHEDULING
					: SETUP_EVENTS.contains(reason) && ("Warning".equals(event.getType())
							|| String.valueOf(event.getMessage()).startsWith("Back-off pulling image"))
									? StageNames.POD_SETUP : null;
			if (stage != null) {
				byStage.computeIfAbsent(stage, (key) -> new LinkedHashMap<>())
					.merge(reason, new Said(count(event), text(event.getMessage())), Said::add);
			}
		}
		Map<String, String> waited = new LinkedHashMap<>();
		byStage.forEach((stage, said) -> {
			List<String> parts = new ArrayList<>();
			said.forEach((reason, what) -> parts.add(reason + ((what.count() > 1) ? " ×" + what.count() : "") + ": "
					+ what.message()));
			waited.put(stage, cap(String.join("; ", parts)));
		});
		return waited;
	}

	/** How often an event was said: its series' count (new events), else its count (the kubelet's). */
	public static int count(Event event) {
		if (event.getSeries() != null && event.getSeries().getCount() != null) {
			return event.getSeries().getCount();
		}
		return (event.getCount() != null && event.getCount() > 0) ? event.getCount() : 1;
	}

	/** At most this much of what a pod waited on goes on a span. */
	static final int WAITED_ON_LIMIT = 480;

	/** {@code text} cut to what a span attribute should hold. */
	static String cap(String text) {
		return (text.length() <= WAITED_ON_LIMIT) ? text : text.substring(0, WAITED_ON_LIMIT - 1) + "…";
	}

	static String text(@Nullable String text) {
		return (text == null || text.isBlank()) ? "no message" : text.strip();
	}

	private record Said(int count, String message) {

		Said add(Said later) {
			return new Said(this.count + later.count, later.message);
		}

	}

}
