package io.github.startuptelemetry.launch.kubernetes;

import java.util.List;
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
 * What ends a server's pod before it could be ready, as its status tells it (unschedulable, an
 * image that cannot be pulled, a crash loop, an exit, an eviction, ...), mapped onto a
 * {@link ServerExit}: the startup's outcome is then {@code crashed}, with the container's exit code
 * when it ran and exited, else {@link #NO_EXIT_CODE}.
 */
final class PodFailure {

	/** The exit code of a server whose container never ran or never exited (its pod failed around it). */
	static final int NO_EXIT_CODE = -1;

	private static final Set<String> IMAGE = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName",
			"ErrImageNeverPull", "RegistryUnavailable", "SignatureValidationFailed");

	private static final Set<String> CREATE = Set.of("CreateContainerConfigError", "CreateContainerError",
			"RunContainerError", "PreStartHookError", "PostStartHookError", "ContainerCannotRun", "StartError");

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
		for (PodCondition condition : pod.getStatus().getConditions()) {
			if ("PodScheduled".equals(condition.getType()) && "False".equals(condition.getStatus())
					&& "Unschedulable".equals(condition.getReason())) {
				return new ServerExit(NO_EXIT_CODE,
						"could not be scheduled (pod " + name + ", Unschedulable: " + text(condition.getMessage()) + ")");
			}
		}
		ServerExit init = containers(pod.getStatus().getInitContainerStatuses(), name, null);
		if (init != null) {
			return init;
		}
		ContainerStatus status = PodTimes.status(pod, container);
		ServerExit server = (status != null) ? containers(List.of(status), name, container) : null;
		if (server != null) {
			return server;
		}
		if ("Failed".equals(pod.getStatus().getPhase())) {
			return new ServerExit(NO_EXIT_CODE, "failed (pod " + name + ": " + text(pod.getStatus().getReason()) + ": "
					+ text(pod.getStatus().getMessage()) + ")");
		}
		if ("Succeeded".equals(pod.getStatus().getPhase())) {
			return new ServerExit(0, "exited with code 0 (pod " + name + " completed)");
		}
		return null;
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
			ContainerStateWaiting waiting = (state != null) ? state.getWaiting() : null;
			if (waiting != null && IMAGE.contains(waiting.getReason())) {
				return new ServerExit(NO_EXIT_CODE, "could not pull its image (" + who + ", " + waiting.getReason() + ": "
						+ text(waiting.getMessage()) + ")");
			}
			if (waiting != null && CREATE.contains(waiting.getReason())) {
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
				return new ServerExit(code(terminated), "exited with code " + code(terminated) + " (" + who + ": "
						+ text(terminated.getReason()) + message(terminated) + ")");
			}
			if (server != null && last != null && status.getRestartCount() != null && status.getRestartCount() > 0) {
				return new ServerExit(code(last), "was restarted after it exited with code " + code(last) + " (" + who
						+ ": " + text(last.getReason()) + message(last) + ")");
			}
		}
		return null;
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
