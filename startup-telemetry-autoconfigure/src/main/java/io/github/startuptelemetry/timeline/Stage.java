package io.github.startuptelemetry.timeline;

import java.util.Objects;

/**
 * One contiguous slice of startup, in wall-clock epoch nanoseconds.
 *
 * @param name what ended the stage (stages are named after the moment that ends them)
 * @param startNs when the stage began
 * @param endNs when the stage ended, never before {@code startNs}
 */
public record Stage(String name, long startNs, long endNs) {

	public Stage {
		Objects.requireNonNull(name, "name");
		if (endNs < startNs) {
			throw new IllegalArgumentException("Stage '" + name + "' ends before it starts");
		}
	}

	/** This stage with both ends moved by {@code deltaNs}. */
	public Stage shifted(long deltaNs) {
		return new Stage(this.name, this.startNs + deltaNs, this.endNs + deltaNs);
	}

	public long durationNs() {
		return this.endNs - this.startNs;
	}

	public double durationMs() {
		return durationNs() / 1_000_000.0;
	}

}
