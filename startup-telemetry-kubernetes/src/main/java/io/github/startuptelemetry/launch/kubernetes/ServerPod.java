package io.github.startuptelemetry.launch.kubernetes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.kubernetes.internal.PodTimes;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.timeline.Stage;

/**
 * One server as a pod, kept up to date by the supervisor's watch of its pods: its host is the
 * pod's IP once its container runs, it has exited when its status says it cannot become ready,
 * and stopping it is deleting it, its container's log saved first.
 */
final class ServerPod implements LaunchedServer {

	/** Most of a container's log kept in the run directory. */
	private static final int LOG_LIMIT_BYTES = 4 * 1024 * 1024;

	private final Cluster pods;

	private final String name;

	private final String container;

	private final Path log;

	private final CompletableFuture<String> host = new CompletableFuture<>();

	private final CompletableFuture<ServerExit> exit = new CompletableFuture<>();

	private final CompletableFuture<Void> gone = new CompletableFuture<>();

	private final AtomicBoolean timing = new AtomicBoolean();

	private final AtomicBoolean failing = new AtomicBoolean();

	private final AtomicBoolean logSaved = new AtomicBoolean();

	private volatile @Nullable PodTimes times;

	private @Nullable String lastStep;

	ServerPod(Cluster pods, String name, String container, Path log) {
		this.pods = pods;
		this.name = name;
		this.container = container;
		this.log = log;
	}

	String name() {
		return this.name;
	}

	/** The pod as the watch sees it now: on the watch's thread, so anything slow goes to the pods' own. */
	void update(Pod pod) {
		if (pod.getMetadata() != null && pod.getMetadata().getDeletionTimestamp() != null) {
			note("deleting");
		}
		else {
			note(step(pod));
		}
		ServerExit failure = PodFailure.of(pod, this.container);
		if (failure != null) {
			if (this.failing.compareAndSet(false, true)) {
				this.pods.work(() -> {
					note(failure.reason());
					saveLog(pod);
					fail(failure);
				});
			}
			return;
		}
		String podIp = (pod.getStatus() != null) ? pod.getStatus().getPodIP() : null;
		if (podIp != null && !podIp.isBlank() && running(pod) && this.timing.compareAndSet(false, true)) {
			this.pods.work(() -> {
				this.times = PodTimes.of(pod, this.pods.events(pod), this.container);
				this.host.complete(podIp);
			});
		}
	}

	/** The pod is gone (deleted, by the supervisor or anyone). */
	void deleted() {
		note("deleted");
		this.gone.complete(null);
		if (this.failing.compareAndSet(false, true)) {
			fail(new ServerExit(PodFailure.NO_EXIT_CODE, "was deleted (pod " + this.name + ")"));
		}
	}

	/** The pod could not be created: nothing to watch, nothing to delete. */
	void notCreated() {
		this.gone.complete(null);
		if (this.failing.compareAndSet(false, true)) {
			fail(new ServerExit(PodFailure.NO_EXIT_CODE, "was not created (pod " + this.name + ")"));
		}
	}

	private void fail(ServerExit failure) {
		// the exit first: a server whose probing waits for its host then finds it ended
		this.exit.complete(failure);
		this.host.complete(null);
	}

	private boolean running(Pod pod) {
		ContainerStatus status = PodTimes.status(pod, this.container);
		return status != null && status.getState() != null && status.getState().getRunning() != null;
	}

	/** What the pod is at, in a few words, for the log: a line each time it changes. */
	private String step(Pod pod) {
		if (pod.getStatus() == null) {
			return "created";
		}
		ContainerStatus status = PodTimes.status(pod, this.container);
		ContainerState state = (status != null) ? status.getState() : null;
		if (state != null && state.getRunning() != null) {
			return "container '" + this.container + "' running (started " + state.getRunning().getStartedAt() + ")";
		}
		if (state != null && state.getWaiting() != null) {
			return "container '" + this.container + "' waiting: " + state.getWaiting().getReason();
		}
		if (state != null && state.getTerminated() != null) {
			return "container '" + this.container + "' terminated: exit code " + state.getTerminated().getExitCode();
		}
		String node = (pod.getSpec() != null) ? pod.getSpec().getNodeName() : null;
		String phase = (pod.getStatus().getPhase() != null) ? pod.getStatus().getPhase() : "Pending";
		return (node != null) ? phase + " on node " + node : phase;
	}

	/** A line about the pod in its log file, when it says something new. */
	private synchronized void note(String step) {
		if (step.equals(this.lastStep)) {
			return;
		}
		this.lastStep = step;
		append("[" + Instant.now() + " pod " + this.name + "] " + step + "\n");
	}

	/** The container's log into the log file, once: its last run's, when it crash-loops. */
	private void saveLog(@Nullable Pod pod) {
		if (!this.logSaved.compareAndSet(false, true)) {
			return;
		}
		ContainerStatus status = (pod != null) ? PodTimes.status(pod, this.container) : null;
		boolean restarted = status != null && status.getLastState() != null
				&& status.getLastState().getTerminated() != null
				&& (status.getState() == null || status.getState().getRunning() == null);
		String text = this.pods.containerLog(this.name, this.container, restarted, LOG_LIMIT_BYTES);
		append(text.endsWith("\n") || text.isEmpty() ? text : text + "\n");
	}

	private synchronized void append(String text) {
		try {
			Files.writeString(this.log, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
					StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			// the run directory went away: the pod's story is still in the supervisor's own log
		}
	}

	@Override
	public String describe() {
		return "pod " + this.name;
	}

	@Override
	public CompletableFuture<String> host() {
		return this.host;
	}

	@Override
	public CompletableFuture<ServerExit> onExit() {
		return this.exit.copy();
	}

	@Override
	public Path log() {
		return this.log;
	}

	@Override
	public Map<String, Object> attributes() {
		PodTimes times = this.times;
		return (times != null) ? times.attributes() : Map.of();
	}

	@Override
	public List<Stage> stages() {
		PodTimes times = this.times;
		return (times != null) ? times.stages() : List.of();
	}

	/** Its container's log saved, then deleted with the stop timeout as its grace period; at once. */
	@Override
	public void terminate() {
		this.pods.work(() -> {
			saveLog(this.pods.current(this.name));
			if (this.pods.delete(this.name, this.pods.stopGraceSeconds())) {
				this.gone.complete(null);
			}
		});
	}

	@Override
	public CompletableFuture<Void> stopped() {
		return this.gone.copy();
	}

	/** Deleted at once, without a grace period. */
	@Override
	public List<String> kill() {
		if (this.pods.delete(this.name, 0)) {
			this.gone.complete(null);
		}
		return List.of("pod " + this.name);
	}

	/** What a server's pod asks of the cluster, off the watch's thread. */
	interface Cluster {

		/** Run {@code task} on the pods' own threads; here when they are gone. */
		void work(Runnable task);

		/** The pod's events (its own only), or none when they cannot be listed. */
		List<Event> events(Pod pod);

		/**
		 * The container's log (its last run's when {@code previous}), at most {@code limitBytes} of
		 * it, or a line saying why there is none.
		 */
		String containerLog(String pod, String container, boolean previous, int limitBytes);

		/** The pod as the watch last saw it, or {@code null}. */
		@Nullable Pod current(String pod);

		/**
		 * Delete the pod, with {@code graceSeconds} for its containers to stop.
		 * @return whether it is gone already (it was not found)
		 */
		boolean delete(String pod, long graceSeconds);

		/** The grace period of a pod being stopped, in whole seconds. */
		long stopGraceSeconds();

	}

}
