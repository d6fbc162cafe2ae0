package io.github.startuptelemetry.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;

import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.timeline.internal.ThreadCpuClock;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * Finds the slow steps of {@code beans_instantiated} in Spring's own {@link ApplicationStartup}
 * steps (NeMo RL's {@code traced_worker_init}, the Spring way): bean creations and application
 * steps longer than the threshold, Spring's phases and first contacts with a fleet dependency,
 * nested as they ran, each with its own time and its thread's CPU. It wraps the application's
 * {@link ApplicationStartup}, which keeps receiving every step; fast steps are dropped as they end.
 */
class BeanSpanRecorder {

	/** The step Spring's bean factory starts for every bean it creates. */
	static final String BEAN_STEP = "spring.beans.instantiate";

	/** A {@code SmartInitializingSingleton}'s {@code afterSingletonsInstantiated}: kept when slow, as a bean is. */
	static final String SMART_INITIALIZE_STEP = "spring.beans.smart-initialize";

	/** Bean-definition post-processing: configuration classes, component scan, conditions. */
	static final String POST_PROCESS_STEP = "spring.context.beans.post-process";

	/**
	 * Spring's phases of {@code beans_instantiated}, kept whatever they took so that the stage's
	 * time is accounted for: bean-definition post-processing, configuration-class parsing and
	 * condition evaluation within it, and the web server's creation.
	 */
	static final List<String> PHASE_STEPS = List.of(POST_PROCESS_STEP, "spring.context.config-classes.parse",
			"spring.boot.webserver.create");

	/**
	 * Our own phase: singleton creation, from the first bean created after bean-definition
	 * post-processing to the last (or the last {@code afterSingletonsInstantiated}), on any
	 * thread. Spring has no step for it; its children are the slow beans and steps within it.
	 */
	static final String SINGLETONS_STEP = SpanNames.SINGLETONS_STEP;

	private final long thresholdNs;

	private final LongSupplier clock;

	/** The current thread's CPU time, or {@code null} for none (the JVM counters off). */
	private final @Nullable LongSupplier threadCpu;

	private final ThreadLocal<Node> current = new ThreadLocal<>();

	private final List<Node> roots = new ArrayList<>();

	private volatile boolean open;

	private boolean postProcessed;

	private long singletonsStartNs = Long.MAX_VALUE;

	private long singletonsEndNs = Long.MIN_VALUE;

	/**
	 * @param threshold a step taking longer than this is kept
	 * @param counters whether to read each step's thread CPU time (the JVM counters' switch)
	 */
	BeanSpanRecorder(Duration threshold, boolean counters) {
		this(threshold, WallClock.source(), counters ? ThreadCpuClock.source() : null);
	}

	/**
	 * @param threshold a step taking longer than this is kept
	 * @param clock wall-clock epoch nanoseconds
	 * @param threadCpu the current thread's CPU time in nanoseconds, or {@code null} for none
	 */
	BeanSpanRecorder(Duration threshold, LongSupplier clock, @Nullable LongSupplier threadCpu) {
		this.thresholdNs = threshold.toNanos();
		this.clock = clock;
		this.threadCpu = threadCpu;
	}

	/**
	 * An {@link ApplicationStartup} that records into this recorder and passes every step on
	 * to {@code delegate}. A {@link BufferingApplicationStartup} is wrapped in one (whose
	 * buffer stays the delegate's), because Boot offers {@code /actuator/startup} only when
	 * the context's startup is one.
	 */
	ApplicationStartup wrap(ApplicationStartup delegate) {
		if (delegate instanceof BufferingApplicationStartup buffering) {
			return new RecordingBufferingStartup(this, buffering);
		}
		return (name) -> record(name, delegate.start(name));
	}

	/** Start following steps: from now on, slow ones are kept. */
	void open() {
		this.open = true;
	}

	/**
	 * Stop following steps and return the kept ones, roots first in start order.
	 *
	 * @param beanType the class name of a bean, or {@code null}
	 */
	synchronized List<StepTiming> close(Function<String, String> beanType) {
		this.open = false;
		List<StepTiming> roots = spans(this.roots, beanType);
		if (this.singletonsStartNs > this.singletonsEndNs) {
			return roots;
		}
		return withSingletonsPhase(roots, this.singletonsStartNs, this.singletonsEndNs);
	}

	/**
	 * The roots with those inside singleton creation moved under its phase. A bean created on
	 * a background bootstrap thread is a root of its own thread, so it lands here too: under
	 * singleton creation, not under whichever bean the main thread was creating meanwhile.
	 */
	static List<StepTiming> withSingletonsPhase(List<StepTiming> roots, long startNs, long endNs) {
		List<StepTiming> inside = new ArrayList<>();
		List<StepTiming> result = new ArrayList<>();
		for (StepTiming root : roots) {
			if (root.startNs() >= startNs && root.endNs() <= endNs) {
				inside.add(root);
			}
			else {
				result.add(root);
			}
		}
		long self = (endNs - startNs) - StepTiming.coveredNs(inside, startNs, endNs);
		result.add(new StepTiming(SINGLETONS_STEP, null, null, startNs, endNs, self, inside, JvmCounters.UNAVAILABLE));
		result.sort(StepTiming.BY_START);
		return result;
	}

	/** Follow {@code step}; its name is passed as well, since Spring's no-op steps have none. */
	private StartupStep record(String name, StartupStep step) {
		if (!this.open || (name.startsWith("spring.") && !name.equals(BEAN_STEP) && !name.equals(SMART_INITIALIZE_STEP)
				&& !PHASE_STEPS.contains(name))) {
			return step;
		}
		Node node = new Node(name, step, this.current.get(), this.clock.getAsLong(),
				(this.threadCpu != null) ? this.threadCpu.getAsLong() : JvmCounters.UNAVAILABLE);
		this.current.set(node);
		return node;
	}

	private synchronized void ended(Node node) {
		Node enclosing = node.parent;
		while (enclosing != null && enclosing.ended) {
			enclosing = enclosing.parent;
		}
		if (this.current.get() == node) {
			if (enclosing != null) {
				this.current.set(enclosing);
			}
			else {
				this.current.remove();
			}
		}
		if (!this.open) {
			return;
		}
		long duration = node.endNs - node.startNs;
		if (enclosing != null) {
			enclosing.containedNs += duration;
		}
		boolean singleton = node.name.equals(BEAN_STEP) || node.name.equals(SMART_INITIALIZE_STEP);
		if (node.name.equals(POST_PROCESS_STEP) && enclosing == null) {
			this.postProcessed = true;
		}
		else if (singleton && enclosing == null && this.postProcessed) {
			this.singletonsStartNs = Math.min(this.singletonsStartNs, node.startNs);
			this.singletonsEndNs = Math.max(this.singletonsEndNs, node.endNs);
		}
		List<Node> siblings = (enclosing != null) ? enclosing.kept : this.roots;
		// a first contact with a dependency counts however short it was: the supervisor's report places it
		if (duration > this.thresholdNs || PHASE_STEPS.contains(node.name)
				|| node.name.startsWith(SpanNames.DEPENDENCY_STEP_PREFIX)) {
			siblings.add(node);
		}
		else {
			// dropped: what it kept moves up (a kept step inside a shorter one: the wall clock stepped back)
			siblings.addAll(node.kept);
		}
	}

	private static List<StepTiming> spans(List<Node> nodes, Function<String, String> beanType) {
		// a loop, not a stream: this runs at ready, where each first-use lambda is a class to load
		List<StepTiming> spans = new ArrayList<>(nodes.size());
		for (Node node : nodes) {
			spans.add(new StepTiming(node.name, node.beanName,
					(node.beanName != null) ? typeOf(beanType, node.beanName) : null, node.startNs, node.endNs,
					Math.max(0, node.endNs - node.startNs - node.containedNs), spans(node.kept, beanType), node.cpuNs));
		}
		spans.sort(StepTiming.BY_START);
		return List.copyOf(spans);
	}

	private static String typeOf(Function<String, String> beanType, String beanName) {
		try {
			return beanType.apply(beanName);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/** A followed step: passes everything on to Spring's step and times it. */
	private final class Node implements StartupStep {

		private final String name;

		private final StartupStep step;

		private final Node parent;

		private final long startNs;

		/** The starting thread's CPU time then, or {@link JvmCounters#UNAVAILABLE}. */
		private final long startCpuNs;

		private final Thread thread = Thread.currentThread();

		private final List<Node> kept = new ArrayList<>();

		private String beanName;

		private long endNs;

		private long containedNs;

		/** Its thread's CPU time over it, once ended and kept; otherwise {@link JvmCounters#UNAVAILABLE}. */
		private long cpuNs = JvmCounters.UNAVAILABLE;

		private boolean ended;

		Node(String name, StartupStep step, Node parent, long startNs, long startCpuNs) {
			this.name = name;
			this.step = step;
			this.parent = parent;
			this.startNs = startNs;
			this.startCpuNs = startCpuNs;
		}

		@Override
		public String getName() {
			return this.name;
		}

		@Override
		public long getId() {
			return this.step.getId();
		}

		@Override
		public Long getParentId() {
			return this.step.getParentId();
		}

		@Override
		public StartupStep tag(String key, String value) {
			if ("beanName".equals(key) && BEAN_STEP.equals(this.name)) {
				this.beanName = value;
			}
			this.step.tag(key, value);
			return this;
		}

		@Override
		public StartupStep tag(String key, Supplier<String> value) {
			this.step.tag(key, value);
			return this;
		}

		@Override
		public Tags getTags() {
			return this.step.getTags();
		}

		@Override
		public void end() {
			synchronized (BeanSpanRecorder.this) {
				if (this.ended) {
					return;
				}
				this.ended = true;
				this.endNs = BeanSpanRecorder.this.clock.getAsLong();
				readCpu();
			}
			try {
				this.step.end();
			}
			finally {
				ended(this);
			}
		}

		/** Only for a step that will be kept, and on the thread it began on: a read costs a system call. */
		private void readCpu() {
			LongSupplier threadCpu = BeanSpanRecorder.this.threadCpu;
			if (threadCpu != null && this.startCpuNs >= 0 && this.thread == Thread.currentThread()
					&& (this.endNs - this.startNs > BeanSpanRecorder.this.thresholdNs || PHASE_STEPS.contains(this.name))) {
				long endCpuNs = threadCpu.getAsLong();
				if (endCpuNs >= this.startCpuNs) {
					this.cpuNs = endCpuNs - this.startCpuNs;
				}
			}
		}

	}

	/**
	 * A {@link BufferingApplicationStartup} in type only: every call goes to the application's
	 * own, so its buffer, filters and {@code /actuator/startup} work as before.
	 */
	private static final class RecordingBufferingStartup extends BufferingApplicationStartup {

		private final BeanSpanRecorder recorder;

		private final BufferingApplicationStartup delegate;

		RecordingBufferingStartup(BeanSpanRecorder recorder, BufferingApplicationStartup delegate) {
			super(0);
			this.recorder = recorder;
			this.delegate = delegate;
		}

		@Override
		public StartupStep start(String name) {
			return this.recorder.record(name, this.delegate.start(name));
		}

		@Override
		public void startRecording() {
			this.delegate.startRecording();
		}

		@Override
		public void addFilter(Predicate<StartupStep> filter) {
			this.delegate.addFilter(filter);
		}

		@Override
		public StartupTimeline getBufferedTimeline() {
			return this.delegate.getBufferedTimeline();
		}

		@Override
		public StartupTimeline drainBufferedTimeline() {
			return this.delegate.drainBufferedTimeline();
		}

	}

}
