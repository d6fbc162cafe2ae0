package io.github.startuptelemetry.timeline;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.StageNames;

/**
 * What one server startup looked like, as the server reported it at ready: what its log line,
 * its {@code startuptimeline} endpoint ({@link TimelineJson}) and its supervisor's report row
 * show. Names, times and ids only, never a secret.
 *
 * @param serverName the server's name
 * @param serverType the server's type, or {@code null}
 * @param worker whether this process is a worker of a multi-process server
 * @param pid this process's id
 * @param traceId the startup trace's id, or {@code null} when no span was exported
 * @param spanId the id of this process's root startup span, or {@code null}
 * @param startEpochNs when the first stage began
 * @param readyEpochNs when the server became ready
 * @param stages contiguous stages, first to last
 * @param ignoredEnv env values that were present but unusable
 * @param steps the slow beans and application steps of {@code beans_instantiated}
 * @param jvm the JVM it started on, or {@code null} when it did not say (an older server)
 */
public record ServerTimeline(String serverName, @Nullable String serverType, boolean worker, long pid,
		@Nullable String traceId, @Nullable String spanId, long startEpochNs, long readyEpochNs, List<Stage> stages,
		List<String> ignoredEnv, List<StepTiming> steps, @Nullable JvmInfo jvm) {

	public ServerTimeline {
		stages = List.copyOf(stages);
		ignoredEnv = List.copyOf(ignoredEnv);
		steps = List.copyOf(steps);
	}

	/** A timeline that does not say which JVM it ran on. */
	public ServerTimeline(String serverName, @Nullable String serverType, boolean worker, long pid,
			@Nullable String traceId, @Nullable String spanId, long startEpochNs, long readyEpochNs, List<Stage> stages,
			List<String> ignoredEnv, List<StepTiming> steps) {
		this(serverName, serverType, worker, pid, traceId, spanId, startEpochNs, readyEpochNs, stages, ignoredEnv,
				steps, null);
	}

	public double totalMs() {
		return (this.readyEpochNs - this.startEpochNs) / 1_000_000.0;
	}

	/** This timeline with every time moved by {@code deltaNs}: onto another process's clock. */
	public ServerTimeline shifted(long deltaNs) {
		if (deltaNs == 0) {
			return this;
		}
		return new ServerTimeline(this.serverName, this.serverType, this.worker, this.pid, this.traceId, this.spanId,
				this.startEpochNs + deltaNs, this.readyEpochNs + deltaNs,
				this.stages.stream().map((stage) -> stage.shifted(deltaNs)).toList(), this.ignoredEnv,
				this.steps.stream().map((step) -> step.shifted(deltaNs)).toList(), this.jvm);
	}

	/**
	 * The JVM counters summed over the stages that have them (all but those before the JVM
	 * existed); empty when the server reported none.
	 */
	public Optional<JvmCounters> jvmTotal() {
		return Optional.ofNullable(jvmTotalOrNull());
	}

	// plain loops here and below: the summary is logged at ready, where each first-use lambda
	// is a class to load
	private @Nullable JvmCounters jvmTotalOrNull() {
		JvmCounters total = null;
		for (Stage stage : this.stages) {
			if (stage.jvm() != null) {
				total = (total != null) ? total.plus(stage.jvm()) : stage.jvm();
			}
		}
		return total;
	}

	/**
	 * The part of {@code beans_instantiated} no reported step (phase, slow bean, application
	 * step) covers; empty without that stage.
	 */
	public OptionalLong unattributedNs() {
		boolean found = false;
		long unattributed = 0;
		for (Stage stage : this.stages) {
			if (stage.name().equals(StageNames.BEANS_INSTANTIATED)) {
				found = true;
				unattributed += stage.durationNs() - StepTiming.coveredNs(this.steps, stage.startNs(), stage.endNs());
			}
		}
		return found ? OptionalLong.of(unattributed) : OptionalLong.empty();
	}

	/** Wall time of the stages that have JVM counters, the denominator of their CPU time. */
	public long countedWallNs() {
		long wall = 0;
		for (Stage stage : this.stages) {
			if (stage.jvm() != null) {
				wall += stage.durationNs();
			}
		}
		return wall;
	}

	/**
	 * One line: the total and each stage in milliseconds, and the trace they were exported in, or
	 * that they were not (no id for a trace nobody can look up).
	 */
	public String summary() {
		StringBuilder line = new StringBuilder("Startup of '").append(this.serverName).append("'");
		if (this.serverType != null) {
			line.append(" (").append(this.serverType).append(")");
		}
		line.append(" took ").append(Math.round(totalMs())).append(" ms:");
		for (Stage stage : this.stages) {
			line.append(' ').append(stage.name()).append('=').append(Math.round(stage.durationMs())).append("ms");
		}
		JvmCounters jvm = jvmTotalOrNull();
		if (jvm != null) {
			line.append(" jvm: ").append(jvm.compact());
		}
		if (this.traceId != null) {
			line.append(" [trace ").append(this.traceId).append(']');
		}
		else {
			line.append(" [trace not exported]");
		}
		return line.toString();
	}

}
