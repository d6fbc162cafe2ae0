package io.github.startuptelemetry.timeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One slow step of {@code beans_instantiated}: a bean's creation or a step the application
 * started itself with {@code ApplicationStartup.start(name)}, in wall-clock epoch nanoseconds,
 * nested as the steps ran.
 *
 * @param step the {@code ApplicationStartup} step name ({@code spring.beans.instantiate} for a
 * bean)
 * @param beanName the bean's name, or {@code null} for an application step
 * @param beanType the bean's class name, or {@code null} when unknown or not a bean
 * @param startNs when the step began
 * @param endNs when the step ended, never before {@code startNs}
 * @param selfNs the step's own time: its duration less that of the steps it contained
 * @param children the slow steps that ran inside this one, in start order
 * @param threadCpuNs the CPU time of the thread that ran the step, children included, or
 * {@link JvmCounters#UNAVAILABLE} when not known: how much of the step was work rather than waiting
 */
public record StepTiming(String step, @Nullable String beanName, @Nullable String beanType, long startNs, long endNs,
		long selfNs, List<StepTiming> children, long threadCpuNs) {

	/** Earliest start first; one comparator for every sort, so one class loaded for it. */
	public static final Comparator<StepTiming> BY_START = Comparator.comparingLong(StepTiming::startNs);

	public StepTiming {
		Objects.requireNonNull(step, "step");
		if (endNs < startNs) {
			throw new IllegalArgumentException("Step '" + step + "' ends before it starts");
		}
		children = List.copyOf(children);
		threadCpuNs = (threadCpuNs < 0) ? JvmCounters.UNAVAILABLE : threadCpuNs;
	}

	/** A step whose thread's CPU time is not known. */
	public StepTiming(String step, @Nullable String beanName, @Nullable String beanType, long startNs, long endNs,
			long selfNs, List<StepTiming> children) {
		this(step, beanName, beanType, startNs, endNs, selfNs, children, JvmCounters.UNAVAILABLE);
	}

	/**
	 * How much of {@code [fromNs, toNs)} the steps cover, overlaps counted once (steps on
	 * different threads may overlap).
	 */
	public static long coveredNs(List<StepTiming> steps, long fromNs, long toNs) {
		List<StepTiming> sorted = new ArrayList<>(steps);
		sorted.sort(BY_START);
		long covered = 0;
		long cursor = fromNs;
		for (StepTiming step : sorted) {
			long start = Math.max(step.startNs, cursor);
			long end = Math.min(step.endNs, toNs);
			if (end > start) {
				covered += end - start;
				cursor = end;
			}
		}
		return covered;
	}

	/** The bean's name, or the step's for an application step. */
	public String label() {
		return (this.beanName != null) ? this.beanName : this.step;
	}

	/** This step and its children with both ends moved by {@code deltaNs}. */
	public StepTiming shifted(long deltaNs) {
		return new StepTiming(this.step, this.beanName, this.beanType, this.startNs + deltaNs, this.endNs + deltaNs,
				this.selfNs, this.children.stream().map((child) -> child.shifted(deltaNs)).toList(), this.threadCpuNs);
	}

	public long durationNs() {
		return this.endNs - this.startNs;
	}

	public double durationMs() {
		return durationNs() / 1_000_000.0;
	}

	public double selfMs() {
		return this.selfNs / 1_000_000.0;
	}

	/** {@link #threadCpuNs()} in milliseconds, or {@link JvmCounters#UNAVAILABLE}. */
	public double threadCpuMs() {
		return (this.threadCpuNs < 0) ? JvmCounters.UNAVAILABLE : this.threadCpuNs / 1_000_000.0;
	}

}
