package io.github.startuptelemetry.timeline;

import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * One contiguous slice of startup, in wall-clock epoch nanoseconds.
 *
 * @param name what ended the stage (stages are named after the moment that ends them)
 * @param startNs when the stage began
 * @param endNs when the stage ended, never before {@code startNs}
 * @param jvm how the JVM's counters changed over the stage, or {@code null} for a stage before
 * the JVM existed (and from a server that does not report them)
 */
public record Stage(String name, long startNs, long endNs, @Nullable JvmCounters jvm) {

	public Stage {
		Objects.requireNonNull(name, "name");
		if (endNs < startNs) {
			throw new IllegalArgumentException("Stage '" + name + "' ends before it starts");
		}
	}

	/** This stage with both ends moved by {@code deltaNs}. */
	public Stage shifted(long deltaNs) {
		return new Stage(this.name, this.startNs + deltaNs, this.endNs + deltaNs, this.jvm);
	}

	/** A stage without JVM counters. */
	public Stage(String name, long startNs, long endNs) {
		this(name, startNs, endNs, null);
	}

	/** How the JVM's counters changed over the stage, if known. */
	public Optional<JvmCounters> counters() {
		return Optional.ofNullable(this.jvm);
	}

	public long durationNs() {
		return this.endNs - this.startNs;
	}

	public double durationMs() {
		return durationNs() / 1_000_000.0;
	}

}
