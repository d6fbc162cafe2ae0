package io.github.startuptelemetry.timeline.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.Stage;

/**
 * Contiguous stages: each {@link #mark(String)} closes the stage that began at the previous mark,
 * so stages add up to the total and call sites need no begin/end pairs. Thread-safe; a mark that
 * would end before the previous one is clamped to it, so stages never overlap.
 */
public class StageTimeline {

	private final long startNs;

	private final List<Stage> stages = new ArrayList<>();

	private long cursorNs;

	private @Nullable Supplier<JvmCounters> counters;

	private @Nullable JvmCounters lastCounters;

	public StageTimeline() {
		this(WallClock.nowNs());
	}

	public StageTimeline(long startNs) {
		this.startNs = startNs;
		this.cursorNs = startNs;
	}

	/** End the current stage now and name it. A repeated name adds a second stage. */
	public void mark(String name) {
		mark(name, WallClock.nowNs());
	}

	/** End the current stage at {@code atNs} and name it. */
	public synchronized void mark(String name, long atNs) {
		mark(name, atNs, (this.counters != null) ? this.counters.get() : null);
	}

	/**
	 * End the current stage at {@code atNs}, when the JVM's counters stood at {@code countersAt}
	 * (read then, for a mark taken after the fact); ignored unless {@link #countJvm counting}.
	 */
	public synchronized void mark(String name, long atNs, @Nullable JvmCounters countersAt) {
		long end = Math.max(atNs, this.cursorNs);
		JvmCounters jvm = null;
		if (this.counters != null && countersAt != null) {
			jvm = countersAt.since(this.lastCounters);
			this.lastCounters = countersAt;
		}
		this.stages.add(new Stage(name, this.cursorNs, end, jvm));
		this.cursorNs = end;
	}

	/**
	 * Record a stage measured elsewhere and move the cursor to its end. A stage that would
	 * overlap the previous one starts where that one ended.
	 */
	public synchronized void add(String name, long startNs, long endNs) {
		long start = Math.max(startNs, this.cursorNs);
		long end = Math.max(endNs, start);
		this.stages.add(new Stage(name, start, end));
		this.cursorNs = end;
	}

	/**
	 * From now on, give each marked stage the change of {@code source}'s counters since the
	 * previous mark, the first one since {@code since}.
	 */
	public synchronized void countJvm(Supplier<JvmCounters> source, JvmCounters since) {
		this.counters = source;
		this.lastCounters = since;
	}

	public long startNs() {
		return this.startNs;
	}

	/** Where the last stage ended (the start, before any stage). */
	public synchronized long endNs() {
		return this.cursorNs;
	}

	public synchronized List<Stage> stages() {
		return List.copyOf(this.stages);
	}

	/** The name of the stage that ended last, or {@code null} before any. */
	public synchronized String lastStageName() {
		return this.stages.isEmpty() ? null : this.stages.get(this.stages.size() - 1).name();
	}

}
