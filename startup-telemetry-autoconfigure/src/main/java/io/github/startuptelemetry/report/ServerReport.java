package io.github.startuptelemetry.report;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StartupOutcome;

/**
 * One server's row of a startup report: what the supervisor saw (spawn, first healthy probe or
 * abort, an early exit) and, when the server could tell, its own stages and slow beans. Epoch
 * nanoseconds throughout.
 *
 * @param name the server's name
 * @param type the server's type, or {@code null}
 * @param spawnNs when the supervisor spawned it
 * @param endNs when it first answered a health probe, or when the startup was aborted
 * @param outcome how its startup ended ({@code ready}, {@code timeout}, {@code crashed}, ...)
 * @param stages the server's own contiguous stages, empty when it could not report them
 * @param serverReadyNs when the server itself reached {@code application_ready}, if known
 * @param beans the slow beans of its {@code beans_instantiated} stage, in start order, empty
 * when it reported none
 * @param exitCode the code it exited with before it was ready, if it did: what crashed the
 * startup, where the other servers of a crashed startup were merely stopped
 */
public record ServerReport(String name, String type, long spawnNs, long endNs, String outcome, List<Stage> stages,
		OptionalLong serverReadyNs, List<BeanTiming> beans, OptionalInt exitCode) {

	public ServerReport {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(outcome, "outcome");
		stages = List.copyOf(stages);
		Objects.requireNonNull(serverReadyNs, "serverReadyNs");
		beans = List.copyOf(beans);
		Objects.requireNonNull(exitCode, "exitCode");
	}

	/** A row as the supervisor alone saw it, without the server's own stages. */
	public static ServerReport of(String name, String type, long spawnNs, long endNs, String outcome) {
		return new ServerReport(name, type, spawnNs, endNs, outcome, List.of(), OptionalLong.empty(), List.of(),
				OptionalInt.empty());
	}

	/** This row with the server's own stages, ready time and slow beans added. */
	public ServerReport withTimeline(List<Stage> stages, long serverReadyNs, List<BeanTiming> beans) {
		return new ServerReport(this.name, this.type, this.spawnNs, this.endNs, this.outcome, stages,
				OptionalLong.of(serverReadyNs), beans, this.exitCode);
	}

	/** This row with the code the server exited with before it was ready. */
	public ServerReport withExitCode(int exitCode) {
		return new ServerReport(this.name, this.type, this.spawnNs, this.endNs, this.outcome, this.stages,
				this.serverReadyNs, this.beans, OptionalInt.of(exitCode));
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
	 * the server's own {@code application_ready}. Known only for a ready server that reported.
	 */
	public OptionalLong probeLagNs() {
		return (ready() && this.serverReadyNs.isPresent())
				? OptionalLong.of(this.endNs - this.serverReadyNs.getAsLong()) : OptionalLong.empty();
	}

	/** The server's longest stage, if it reported any. */
	public Optional<Stage> slowestStage() {
		return this.stages.stream().max(Comparator.comparingLong(Stage::durationNs));
	}

	/**
	 * Whether it was still starting when another server crashed the startup, and was stopped
	 * for that: its outcome is the startup's, {@code crashed}, but it is not at fault.
	 */
	public boolean stopped() {
		return StartupOutcome.CRASHED.equals(this.outcome) && this.exitCode.isEmpty();
	}

}
