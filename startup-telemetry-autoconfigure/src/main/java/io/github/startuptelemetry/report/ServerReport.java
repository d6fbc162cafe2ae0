package io.github.startuptelemetry.report;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * One server's row of a startup report: what the supervisor saw (spawn, first healthy probe or
 * abort, an early exit) and, when the server could tell, its own timeline: stages and slow
 * beans. Epoch nanoseconds throughout.
 *
 * @param name the server's name
 * @param type the server's type, or {@code null}
 * @param spawnNs when the supervisor spawned it
 * @param endNs when it first answered a health probe, or when the startup was aborted
 * @param outcome how its startup ended ({@code ready}, {@code timeout}, {@code crashed}, ...)
 * @param timeline what the server reported of its own startup, if it could
 * @param exitCode the code it exited with before it was ready, if it did: what crashed the
 * startup, where the other servers of a crashed startup were merely stopped
 * @param queuedNs how long the platform held it back before it ran, when its launcher knows
 * (Slurm: the job step pending, {@code startup.slurm.pending_ms}); part of spawn→ready, so that
 * "the scheduler held it back" reads apart from "it was slow"
 * @param waiting how it waited for the servers it depends on before it was spawned, for a server
 * with {@code depends-on}; not part of spawn→ready, which its own stages still add up to
 * @param oneShot whether it is a one-shot job: ready means it exited 0 (it completed)
 * @param replicaOf the declared server it is a replica of ({@code model} for {@code model-3}), or
 * {@code null} for a server declared alone
 */
public record ServerReport(String name, @Nullable String type, long spawnNs, long endNs, String outcome,
		Optional<ServerTimeline> timeline, OptionalInt exitCode, OptionalLong queuedNs, Optional<Waiting> waiting,
		boolean oneShot, @Nullable String replicaOf) {

	/** What a server's whole startup, spawn to ready, is called in the reports and by the regression gate. */
	public static final String SPAWN_TO_READY = "spawn→ready";

	public ServerReport {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(outcome, "outcome");
		Objects.requireNonNull(timeline, "timeline");
		Objects.requireNonNull(exitCode, "exitCode");
		Objects.requireNonNull(queuedNs, "queuedNs");
		Objects.requireNonNull(waiting, "waiting");
	}

	/** A row of a server that waited for nothing and is no one-shot job (the form before dependencies). */
	public ServerReport(String name, @Nullable String type, long spawnNs, long endNs, String outcome,
			Optional<ServerTimeline> timeline, OptionalInt exitCode, OptionalLong queuedNs) {
		this(name, type, spawnNs, endNs, outcome, timeline, exitCode, queuedNs, Optional.empty(), false);
	}

	/** A row of a server declared alone (the form before replicas were told apart). */
	public ServerReport(String name, @Nullable String type, long spawnNs, long endNs, String outcome,
			Optional<ServerTimeline> timeline, OptionalInt exitCode, OptionalLong queuedNs, Optional<Waiting> waiting,
			boolean oneShot) {
		this(name, type, spawnNs, endNs, outcome, timeline, exitCode, queuedNs, waiting, oneShot, null);
	}

	/** A row as the supervisor alone saw it, without the server's own timeline. */
	public static ServerReport of(String name, @Nullable String type, long spawnNs, long endNs, String outcome) {
		return new ServerReport(name, type, spawnNs, endNs, outcome, Optional.empty(), OptionalInt.empty(),
				OptionalLong.empty());
	}

	/** This row with the server's own timeline added. */
	public ServerReport withTimeline(ServerTimeline timeline) {
		return new ServerReport(this.name, this.type, this.spawnNs, this.endNs, this.outcome, Optional.of(timeline),
				this.exitCode, this.queuedNs, this.waiting, this.oneShot, this.replicaOf);
	}

	/** This row with the code the server exited with before it was ready. */
	public ServerReport withExitCode(int exitCode) {
		return new ServerReport(this.name, this.type, this.spawnNs, this.endNs, this.outcome, this.timeline,
				OptionalInt.of(exitCode), this.queuedNs, this.waiting, this.oneShot, this.replicaOf);
	}

	/** This row with how long the platform held the server back before it ran. */
	public ServerReport withQueuedNs(long queuedNs) {
		return new ServerReport(this.name, this.type, this.spawnNs, this.endNs, this.outcome, this.timeline,
				this.exitCode, OptionalLong.of(queuedNs), this.waiting, this.oneShot, this.replicaOf);
	}

	/** This row with how it waited for its dependencies. */
	public ServerReport withWaiting(Waiting waiting) {
		return new ServerReport(this.name, this.type, this.spawnNs, this.endNs, this.outcome, this.timeline,
				this.exitCode, this.queuedNs, Optional.of(waiting), this.oneShot, this.replicaOf);
	}

	/** This row of a one-shot job. */
	public ServerReport asOneShot() {
		return new ServerReport(this.name, this.type, this.spawnNs, this.endNs, this.outcome, this.timeline,
				this.exitCode, this.queuedNs, this.waiting, true, this.replicaOf);
	}

	/** This row of a replica of the declared server {@code declared}. */
	public ServerReport asReplicaOf(String declared) {
		return new ServerReport(this.name, this.type, this.spawnNs, this.endNs, this.outcome, this.timeline,
				this.exitCode, this.queuedNs, this.waiting, this.oneShot, declared);
	}

	/** Whether it was spawned: every server is, but one that was still waiting for its dependencies when the startup ended. */
	public boolean spawned() {
		return this.waiting.map(Waiting::spawned).orElse(true);
	}

	/** How long it waited for its dependencies before it was spawned (to the end, if it never was); 0 without any. */
	public long waitedNs() {
		return this.waiting.map((wait) -> (wait.spawned() ? this.spawnNs : this.endNs) - wait.startNs()).orElse(0L);
	}

	/** The server's own contiguous stages, empty when it could not report them. */
	public List<Stage> stages() {
		return this.timeline.map(ServerTimeline::stages).orElse(List.of());
	}

	/** When the server itself reached {@code application_ready}, if known. */
	public OptionalLong serverReadyNs() {
		return this.timeline.map((reported) -> OptionalLong.of(reported.readyEpochNs())).orElse(OptionalLong.empty());
	}

	/** The slow beans of its {@code beans_instantiated} stage, in start order, empty when it reported none. */
	public List<StepTiming> beans() {
		return this.timeline.map(ServerTimeline::steps).orElse(List.of());
	}

	/**
	 * Process CPU time over wall time across the stages with JVM counters: near 0 the server
	 * was mostly waiting, near the core count it was busy on every core. Empty when it reported
	 * no counters.
	 */
	public OptionalDouble cpuPerWall() {
		return this.timeline.flatMap((reported) -> reported.jvmTotal()
			.filter((jvm) -> jvm.cpuNs() >= 0 && reported.countedWallNs() > 0)
			.map((jvm) -> OptionalDouble.of((double) jvm.cpuNs() / reported.countedWallNs())))
			.orElse(OptionalDouble.empty());
	}

	/** The part of its {@code beans_instantiated} no phase, slow bean or step explains, if it reported the stage. */
	public OptionalLong unattributedNs() {
		return this.timeline.map(ServerTimeline::unattributedNs).orElse(OptionalLong.empty());
	}

	public boolean ready() {
		return StartupOutcome.READY.equals(this.outcome);
	}

	/** Spawn to first healthy probe (or to the abort). */
	public long spawnToEndNs() {
		return this.endNs - this.spawnNs;
	}

	/**
	 * How long after the server was ready the supervisor noticed: its first healthy probe minus
	 * the server's own {@code application_ready}. Known only for a ready server that reported,
	 * never for a one-shot job (done when it exits, whenever it was ready). Never negative: what is left of a clock difference after the supervisor placed the
	 * server's timeline on its own clock (within the offset's uncertainty) is no lag.
	 */
	public OptionalLong probeLagNs() {
		return (ready() && !this.oneShot && serverReadyNs().isPresent())
				? OptionalLong.of(Math.max(0, this.endNs - serverReadyNs().getAsLong())) : OptionalLong.empty();
	}

	/** The server's longest stage, if it reported any. */
	public Optional<Stage> slowestStage() {
		return stages().stream().max(Comparator.comparingLong(Stage::durationNs));
	}

	/**
	 * Whether it was still starting when another server crashed the startup, and was stopped
	 * for that: its outcome is the startup's, {@code crashed}, but it is not at fault. (One
	 * still waiting for its dependencies was never started: {@link #spawned()}.)
	 */
	public boolean stopped() {
		return StartupOutcome.CRASHED.equals(this.outcome) && this.exitCode.isEmpty() && spawned();
	}

	/**
	 * How a server of a fleet with {@code depends-on} waited before it was spawned: the
	 * {@code waiting_for_dependencies} stage of its {@code gym.startup.server} span.
	 *
	 * @param startNs when it began waiting: when the supervisor spawned the servers that wait for
	 * nothing
	 * @param spawned whether it was spawned; a startup that ended while it waited never spawned
	 * it, and its {@code spawnNs} is then the end
	 * @param dependsOn what it waited for, in the order declared; empty when its supervisor did
	 * not say
	 * @param releasedBy the server whose condition was met last and released it (a replica by its
	 * own name), or {@code null} when not spawned or not known
	 * @param blockedBy the server it was still waiting for when the startup ended, or
	 * {@code null} when it was spawned
	 */
	public record Waiting(long startNs, boolean spawned, List<DependsOn> dependsOn, @Nullable String releasedBy,
			@Nullable String blockedBy) {

		public Waiting {
			dependsOn = List.copyOf(dependsOn);
		}

		/** This wait with what it waited for, and what released or blocked it. */
		public Waiting with(List<DependsOn> dependsOn, @Nullable String releasedBy, @Nullable String blockedBy) {
			return new Waiting(this.startNs, this.spawned, dependsOn, releasedBy, blockedBy);
		}

		/** The entry of {@link #dependsOn} that stands for {@code server}, if any. */
		public Optional<DependsOn> on(String server) {
			return this.dependsOn.stream().filter((dependency) -> dependency.servers().contains(server)).findFirst();
		}

	}

	/**
	 * One entry of a server's {@code depends-on}.
	 *
	 * @param name the server it names, as declared (a group of replicas by its name)
	 * @param condition {@code ready}, {@code started} or {@code completed}
	 * @param servers the servers it stands for: each must meet the condition
	 */
	public record DependsOn(String name, String condition, List<String> servers) {

		public DependsOn {
			Objects.requireNonNull(name, "name");
			Objects.requireNonNull(condition, "condition");
			servers = List.copyOf(servers);
		}

		/** {@code config (ready)}, as reports say it. */
		@Override
		public String toString() {
			return this.name + " (" + this.condition + ")";
		}

	}

}
