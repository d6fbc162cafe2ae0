package io.github.startuptelemetry.launch.kubernetes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.KubernetesAttributes;
import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.kubernetes.internal.PodTimes;
import io.github.startuptelemetry.kubernetes.internal.PodWaits;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.timeline.Stage;

/**
 * One server as a pod, kept up to date by the supervisor's watch of its pods: its host is the
 * pod's IP once its container runs, it has exited when its status says it cannot become ready, it
 * waits (within its limits) on what the scheduler and the kubelet retry, and stopping it is
 * deleting it, its container's log saved first.
 */
final class ServerPod implements LaunchedServer {

	/** Most of a container's log kept in the run directory. */
	static final int LOG_LIMIT_BYTES = 4 * 1024 * 1024;

	private final Cluster pods;

	private final String name;

	private final String container;

	private final Path log;

	private final @Nullable Long spawnNs;

	private final CompletableFuture<String> host = new CompletableFuture<>();

	private final CompletableFuture<ServerExit> exit = new CompletableFuture<>();

	private final CompletableFuture<Void> gone = new CompletableFuture<>();

	private final AtomicBoolean timing = new AtomicBoolean();

	private final AtomicBoolean failing = new AtomicBoolean();

	private final AtomicBoolean logSaved = new AtomicBoolean();

	/** What it waited on, by reason, in the order first seen: for its span and its timeout. */
	private final Map<String, Waited> waited = new LinkedHashMap<>();

	/** Since when it waits on each kind of wait, on this process's clock; a kind it no longer waits on is gone. */
	private final Map<PodWaits.Kind, Long> waitingSince = new EnumMap<>(PodWaits.Kind.class);

	private volatile @Nullable PodTimes times;

	private volatile @Nullable Pod last;

	private volatile PodWaits.@Nullable Wait wait;

	private @Nullable String lastStep;

	/**
	 * @param spawnNs the supervisor's spawn stamp of it (its create call), or {@code null}
	 */
	ServerPod(Cluster pods, String name, String container, Path log, @Nullable Long spawnNs) {
		this.pods = pods;
		this.name = name;
		this.container = container;
		this.log = log;
		this.spawnNs = spawnNs;
	}

	String name() {
		return this.name;
	}

	/** The pod as the watch sees it now: on the watch's thread, so anything slow goes to the pods' own. */
	void update(Pod pod) {
		this.last = pod;
		if (pod.getMetadata() != null && pod.getMetadata().getDeletionTimestamp() != null) {
			note("deleting");
		}
		else {
			note(step(pod));
		}
		ServerExit failure = PodFailure.of(pod, this.container);
		if (failure != null) {
			failWith(failure, pod);
			return;
		}
		waits(PodWaits.current(pod));
		String podIp = (pod.getStatus() != null) ? pod.getStatus().getPodIP() : null;
		if (podIp != null && !podIp.isBlank() && running(pod) && this.timing.compareAndSet(false, true)) {
			// its events up to its container's start (another watch's, which may lag this one's)
			this.pods.eventsOf(pod, this.container).thenRun(() -> this.pods.work(() -> {
				this.times = PodTimes.of(pod, this.pods.events(pod), this.container, this.spawnNs, null);
				this.host.complete(podIp);
			}));
		}
	}

	private void failWith(ServerExit failure, @Nullable Pod pod) {
		if (this.failing.compareAndSet(false, true)) {
			this.pods.work(() -> {
				note(failure.reason());
				saveLog(pod);
				fail(failure);
			});
		}
	}

	/** What it waits on now, {@code null} for nothing: kept for its span, and held to its kind's limit. */
	private void waits(PodWaits.@Nullable Wait now) {
		this.wait = now;
		long nowNs = System.nanoTime();
		synchronized (this.waited) {
			if (now != null) {
				this.waited.computeIfAbsent(now.reason(), (reason) -> new Waited(nowNs, now.message())).seen(nowNs);
				if (this.waitingSince.putIfAbsent(now.kind(), nowNs) == null) {
					Duration limit = this.pods.waitLimit(now.kind());
					if (limit != null) {
						this.pods.later(() -> limitReached(now.kind(), nowNs, limit), limit);
					}
				}
			}
			this.waitingSince.keySet().removeIf((kind) -> now == null || kind != now.kind());
		}
	}

	/** Its limit on {@code kind} ran out: still waiting on it since then, its startup fails. */
	private void limitReached(PodWaits.Kind kind, long sinceNs, Duration limit) {
		PodWaits.Wait now = this.wait;
		synchronized (this.waited) {
			Long since = this.waitingSince.get(kind);
			if (now == null || now.kind() != kind || since == null || since != sinceNs) {
				return;
			}
		}
		String property = switch (kind) {
			case SCHEDULING -> "unschedulable-timeout";
			case IMAGE -> "image-pull-timeout";
			case CONFIG -> "container-config-timeout";
		};
		String did = switch (kind) {
			case SCHEDULING -> "could not be scheduled";
			case IMAGE -> "could not pull its image";
			case CONFIG -> "could not start its container";
		};
		failWith(new ServerExit(PodFailure.NO_EXIT_CODE, did + " within " + Durations.format(limit.toNanos()) + " ("
				+ KubernetesProperties.PREFIX + "." + property + "; " + now.who() + ", " + now.reason() + ": "
				+ now.message() + ")"), this.last);
	}

	/** The pod is gone (deleted, by the supervisor or anyone). */
	void deleted() {
		note("deleted");
		this.gone.complete(null);
		Pod last = this.last;
		if (this.failing.compareAndSet(false, true)) {
			// a disruption (a preemption, a drain) deletes the pod: say what it was, not just that it went
			ServerExit disrupted = (last != null && PodFailure.disruption(last) != null) ? PodFailure.of(last, this.container)
					: null;
			fail((disrupted != null) ? disrupted
					: new ServerExit(PodFailure.NO_EXIT_CODE, "was deleted (pod " + this.name + ")"));
		}
	}

	/** The pod could not be created: nothing to watch, nothing to delete. */
	void notCreated(String why) {
		note("not created: " + why);
		this.gone.complete(null);
		if (this.failing.compareAndSet(false, true)) {
			fail(new ServerExit(PodFailure.NO_EXIT_CODE, "could not be created (pod " + this.name + ": " + why + ")"));
		}
	}

	/** Its deletion was asked for and it was not found: it is gone. */
	void goneAlready() {
		this.gone.complete(null);
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
		PodWaits.Wait wait = PodWaits.current(pod);
		if (wait != null) {
			return wait.describe();
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
	void saveLog(@Nullable Pod pod) {
		if (!this.logSaved.compareAndSet(false, true)) {
			return;
		}
		ContainerStatus status = (pod != null) ? PodTimes.status(pod, this.container) : null;
		if (pod != null && (status == null || status.getState() == null
				|| (status.getState().getRunning() == null && status.getState().getTerminated() == null
						&& status.getLastState() == null))) {
			// it never ran: there is no log to ask for
			return;
		}
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

	/**
	 * What the pod waits on now, as the scheduler and the kubelet say it, with its last warnings:
	 * what a timeout names.
	 */
	@Override
	public @Nullable String waitingOn() {
		Pod pod = this.last;
		if (pod == null) {
			return "pod " + this.name + " not seen by the watch yet";
		}
		StringBuilder text = new StringBuilder();
		PodWaits.Wait wait = this.wait;
		if (wait != null) {
			Long since;
			synchronized (this.waited) {
				since = this.waitingSince.get(wait.kind());
			}
			text.append(wait.describe());
			if (since != null) {
				text.append(" for ").append(Durations.format(System.nanoTime() - since));
			}
		}
		else if (running(pod)) {
			text.append("its container runs (pod ").append(this.name).append(", IP ")
				.append(pod.getStatus().getPodIP()).append(") but never answered the supervisor");
			if (!this.pods.inCluster()) {
				text.append(": the supervisor runs outside the cluster, where pod IPs are often not routable and the "
						+ "pods cannot reach its callback; run it in the cluster (docs/kubernetes.md)");
			}
		}
		else {
			text.append(step(pod).replace("container '" + this.container + "' waiting: ",
					"its container waits: "));
		}
		String warnings = this.pods.warnings(pod);
		if (!warnings.isEmpty()) {
			text.append("; last warnings: ").append(warnings);
		}
		return text.toString();
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
		Map<String, Object> attributes = new LinkedHashMap<>((times != null) ? times.attributes() : Map.of());
		String waitedOn = waitedOn();
		if (waitedOn != null) {
			attributes.put(KubernetesAttributes.WAITED_ON, waitedOn);
		}
		return attributes;
	}

	/** What it waited on, each reason with how long it was seen for, e.g. {@code Unschedulable 12.1 s: 0/1 ...}. */
	@Nullable String waitedOn() {
		List<String> parts = new ArrayList<>();
		synchronized (this.waited) {
			this.waited.forEach((reason, waited) -> parts.add(reason + " " + Durations.format(waited.lastNs - waited.firstNs)
					+ ": " + waited.message));
		}
		if (parts.isEmpty()) {
			return null;
		}
		String text = String.join("; ", parts);
		return (text.length() <= 480) ? text : text.substring(0, 479) + "…";
	}

	@Override
	public List<Stage> stages() {
		PodTimes times = this.times;
		return (times != null) ? times.stages() : List.of();
	}

	/** Its container's log saved, then deleted with the stop timeout as its grace period (with the fleet's others); at once. */
	@Override
	public void terminate() {
		this.pods.stop(this);
	}

	@Override
	public CompletableFuture<Void> stopped() {
		return this.gone.copy();
	}

	/** Deleted at once, without a grace period. */
	@Override
	public List<String> kill() {
		return this.pods.kill(this);
	}

	boolean isGone() {
		return this.gone.isDone();
	}

	@Override
	public String toString() {
		return "pod " + this.name.toLowerCase(Locale.ROOT);
	}

	/** One reason it waited on: when first and last seen (this process's clock) and what was said first. */
	private static final class Waited {

		final long firstNs;

		final String message;

		long lastNs;

		Waited(long firstNs, String message) {
			this.firstNs = firstNs;
			this.lastNs = firstNs;
			this.message = message;
		}

		void seen(long ns) {
			this.lastNs = Math.max(this.lastNs, ns);
		}

	}

	/** What a server's pod asks of the cluster, off the watch's thread. */
	interface Cluster {

		/** Run {@code task} on the pods' own threads; here when they are gone. */
		void work(Runnable task);

		/** Run {@code task} after {@code delay}, unless the cluster is closed by then. */
		void later(Runnable task, Duration delay);

		/** The pod's events (its own only) as the watch of events has them, or none. */
		List<Event> events(Pod pod);

		/**
		 * Completes once the watch of events has the pod's events up to its container's start (its
		 * {@code Started} event), or after a short bound: the two watches do not keep pace.
		 */
		CompletableFuture<Void> eventsOf(Pod pod, String container);

		/** The pod's last warnings, e.g. {@code FailedMount ×3: ...}; empty without any. */
		String warnings(Pod pod);

		/**
		 * The container's log (its last run's when {@code previous}), at most {@code limitBytes} of
		 * it, or a line saying why there is none.
		 */
		String containerLog(String pod, String container, boolean previous, int limitBytes);

		/** The pod as the watch last saw it, or {@code null}. */
		@Nullable Pod current(String pod);

		/** Stop it (its log saved, then deleted gracefully), with every other server stopped at the same time; at once. */
		void stop(ServerPod server);

		/** Delete it at once, without a grace period; what was deleted, for the log. */
		List<String> kill(ServerPod server);

		/** How long a pod may wait on {@code kind}, or {@code null} for the fleet's ready timeout alone. */
		@Nullable Duration waitLimit(PodWaits.Kind kind);

		/** Whether the supervisor runs in the cluster (in a pod). */
		boolean inCluster();

	}

}
