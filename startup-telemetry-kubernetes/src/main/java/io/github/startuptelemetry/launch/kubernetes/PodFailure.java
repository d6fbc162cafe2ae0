package io.github.startuptelemetry.launch.kubernetes;

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.kubernetes.internal.PodTimes;
import io.github.startuptelemetry.launch.LaunchedServer.ServerExit;

/**
 * What ends a server's pod before it could be ready, as its status tells it (an eviction, a
 * disruption, a container that exited, ran out of memory or could not start, a crash loop), mapped
 * onto a {@link ServerExit}: the startup's outcome is then {@code crashed}, with the container's
 * exit code when it ran and exited, else {@link #NO_EXIT_CODE}. What the scheduler and the kubelet
 * retry (unschedulable, an image pull backing off, a missing Secret) is no failure here but a wait
 * ({@code PodWaits}).
 */
final class PodFailure {

	/** The exit code of a server whose container never ran or never exited (its pod failed around it). */
	static final int NO_EXIT_CODE = -1;

	/** Waiting reasons the kubelet will not get past without a change to the pod. */
	private static final Set<String> IMAGE = Set.of("InvalidImageName");

	/** Waiting reasons of a container that was created and could not be started (or was killed by its hook). */
	private static final Set<String> START = Set.of("RunContainerError", "PostStartHookError");

	/** Terminated reasons of a container that never ran its command (containerd's, and dockershim's before it). */
	private static final Set<String> NOT_STARTED = Set.of("StartError", "ContainerCannotRun");

	/** What each {@code DisruptionTarget} reason did to the pod, in words. */
	private static final Map<String, String> DISRUPTIONS = Map.of("PreemptionByScheduler", "was preempted",
			"PreemptionByKubeScheduler", "was preempted", "DeletionByTaintManager", "was evicted by a NoExecute taint",
			"EvictionByEvictionAPI", "was evicted (a drain or the Eviction API)", "DeletionByPodGC",
			"was deleted by the pod garbage collector (its node is gone)", "TerminationByKubelet",
			"was terminated by the kubelet (node pressure or shutdown)");

	/** What each pod-level reason of a {@code Failed} pod means, in words. */
	private static final Map<String, String> POD_REASONS = Map.of("Evicted", "was evicted", "DeadlineExceeded",
			"exceeded its activeDeadlineSeconds", "Terminated", "was stopped by its node's shutdown", "Shutdown",
			"was stopped by its node's shutdown", "NodeShutdown", "was rejected by a node shutting down",
			"UnexpectedAdmissionError", "was rejected by its node", "NodeAffinity", "was rejected by its node",
			"NodeLost", "was lost with its node");

	private PodFailure() {
	}

	/**
	 * Why {@code pod} will not become ready, or {@code null} while it still may.
	 * @param container the server's container
	 */
	static @Nullable ServerExit of(Pod pod, String container) {
		String name = (pod.getMetadata() != null) ? pod.getMetadata().getName() : "?";
		if (pod.getStatus() == null) {
			return null;
		}
		ContainerStatus server = PodTimes.status(pod, container);
		ContainerStateTerminated serverEnd = (server != null && server.getState() != null)
				? server.getState().getTerminated() : null;
		String podReason = pod.getStatus().getReason();
		if ("Failed".equals(pod.getStatus().getPhase()) && podReason != null) {
			String words = POD_REASONS.get(podReason);
			return new ServerExit(code(serverEnd), ((words != null) ? words + " (pod " + name + ": "
					: "failed (pod " + name + ", " + podReason + ": ") + text(pod.getStatus().getMessage()) + ")");
		}
		PodCondition disruption = disruption(pod);
		if (disruption != null) {
			String words = (disruption.getReason() != null) ? DISRUPTIONS.getOrDefault(disruption.getReason(), "was disrupted")
					: "was disrupted";
			return new ServerExit(code(serverEnd), words + " (pod " + name + ", DisruptionTarget " + disruption.getReason()
					+ ": " + text(disruption.getMessage())
					+ ((serverEnd != null) ? "; its container exited with code " + code(serverEnd) : "") + ")");
		}
		ServerExit init = containers(pod.getStatus().getInitContainerStatuses(), name, null);
		if (init != null) {
			return init;
		}
		ServerExit exit = (server != null) ? containers(List.of(server), name, container) : null;
		if (exit != null) {
			return exit;
		}
		if ("Failed".equals(pod.getStatus().getPhase())) {
			return new ServerExit(NO_EXIT_CODE, "failed (pod " + name + ": " + text(pod.getStatus().getMessage()) + ")");
		}
		if ("Succeeded".equals(pod.getStatus().getPhase())) {
			return new ServerExit(0, "exited with code 0 (pod " + name + " completed)");
		}
		return null;
	}

	/** The pod's {@code DisruptionTarget=True} condition: it is being preempted, evicted or deleted. */
	static @Nullable PodCondition disruption(Pod pod) {
		if (pod.getStatus() == null) {
			return null;
		}
		return pod.getStatus().getConditions().stream()
			.filter((c) -> "DisruptionTarget".equals(c.getType()) && "True".equals(c.getStatus()))
			.findFirst()
			.orElse(null);
	}

	/**
	 * The first failure among {@code statuses}.
	 * @param server the server's container, or {@code null} for init containers (whose exit 0 is
	 * their success)
	 */
	private static @Nullable ServerExit containers(List<ContainerStatus> statuses, String pod, @Nullable String server) {
		for (ContainerStatus status : statuses) {
			String who = ((server != null) ? "container '" : "init container '") + status.getName() + "' of pod " + pod;
			ContainerState state = status.getState();
			ContainerStateWaiting waiting = (state != null && state.getWaiting() != null
					&& state.getWaiting().getReason() != null) ? state.getWaiting() : null;
			if (waiting != null && IMAGE.contains(waiting.getReason())) {
				return new ServerExit(NO_EXIT_CODE, "could not pull its image (" + who + ", " + waiting.getReason() + ": "
						+ text(waiting.getMessage()) + ")");
			}
			if (waiting != null && START.contains(waiting.getReason())) {
				return new ServerExit(NO_EXIT_CODE, "could not start its container (" + who + ", " + waiting.getReason()
						+ ": " + text(waiting.getMessage()) + ")");
			}
			ContainerStateTerminated last = (status.getLastState() != null) ? status.getLastState().getTerminated() : null;
			if (waiting != null && "CrashLoopBackOff".equals(waiting.getReason())) {
				return new ServerExit(code(last), "crash-looped (" + who + ", CrashLoopBackOff: " + text(waiting.getMessage())
						+ exited(last) + ")");
			}
			ContainerStateTerminated terminated = (state != null) ? state.getTerminated() : null;
			if (terminated != null && (server != null || code(terminated) != 0)) {
				return terminated(terminated, who);
			}
			if (server != null && last != null && status.getRestartCount() != null && status.getRestartCount() > 0) {
				return new ServerExit(code(last), "was restarted after it exited with code " + code(last) + " (" + who
						+ ": " + text(last.getReason()) + message(last) + ")");
			}
		}
		return null;
	}

	/** A container's end, said as what it was: out of memory, never started, or an exit with its code. */
	private static ServerExit terminated(ContainerStateTerminated terminated, String who) {
		int code = code(terminated);
		String reason = terminated.getReason();
		if ("OOMKilled".equals(reason)) {
			return new ServerExit(code, "was killed for using more memory than its limit (" + who + ", OOMKilled, "
					+ "exit code " + code + ")");
		}
		if (reason != null && NOT_STARTED.contains(reason)) {
			return new ServerExit(code, "could not start its container (" + who + ", " + reason + ": "
					+ text(terminated.getMessage()) + ", exit code " + code + ")");
		}
		if ("ContainerStatusUnknown".equals(reason)) {
			return new ServerExit(code, "was lost: its container could not be found on its node (" + who + ")");
		}
		return new ServerExit(code, "exited with code " + code + " (" + who + ": " + text(reason) + message(terminated)
				+ ")");
	}

	private static int code(@Nullable ContainerStateTerminated terminated) {
		return (terminated != null && terminated.getExitCode() != null) ? terminated.getExitCode() : NO_EXIT_CODE;
	}

	private static String exited(@Nullable ContainerStateTerminated last) {
		return (last != null) ? "; it last exited with code " + code(last) + " (" + text(last.getReason()) + ")" : "";
	}

	private static String message(ContainerStateTerminated terminated) {
		return (terminated.getMessage() != null && !terminated.getMessage().isBlank()) ? ", " + terminated.getMessage().strip()
				: "";
	}

	private static String text(@Nullable String text) {
		return (text == null || text.isBlank()) ? "no message" : text.strip();
	}

}
