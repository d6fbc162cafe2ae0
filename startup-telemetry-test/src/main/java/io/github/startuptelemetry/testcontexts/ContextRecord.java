package io.github.startuptelemetry.testcontexts;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationContext;
import org.springframework.test.context.MergedContextConfiguration;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.testcontexts.internal.TestContextReport;
import io.github.startuptelemetry.testcontexts.internal.Why;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

/**
 * One application context of this JVM's run, as it was created and used: its key, its times, the
 * test classes that used it, what closed it. Filled from the test framework's threads; read at the
 * end of the run.
 */
final class ContextRecord implements Consumer<ServerTimeline> {

	/** The stages of a JVM's first application that belong to the JVM, not to the context: before Boot's start. */
	private static final List<String> BEFORE_THE_CONTEXT = StageNames.RUN_ORDER.subList(0,
			StageNames.RUN_ORDER.indexOf(StageNames.ENVIRONMENT_PREPARED));

	private final int number;

	private final MergedContextConfiguration config;

	private final String creator;

	private final long createdNs;

	private final String applicationContext;

	/** Not the context itself: a closed, evicted context must not be kept alive by its record. */
	private final WeakReference<ApplicationContext> context;

	private final Set<String> testClasses = new LinkedHashSet<>();

	private long refreshedNs;

	private long startedNs;

	private long readyNs;

	private long failedNs;

	private @Nullable ServerTimeline timeline;

	private @Nullable String error;

	private @Nullable String closedBy;

	private boolean closed;

	private int pauses;

	ContextRecord(int number, MergedContextConfiguration config, ApplicationContext context, long createdNs) {
		this.number = number;
		this.config = config;
		this.creator = TypeNames.simple(config.getTestClass());
		this.createdNs = createdNs;
		this.applicationContext = context.getClass().getSimpleName();
		this.context = new WeakReference<>(context);
		this.testClasses.add(this.creator);
	}

	int number() {
		return this.number;
	}

	MergedContextConfiguration config() {
		return this.config;
	}

	String creator() {
		return this.creator;
	}

	boolean is(ApplicationContext context) {
		return this.context.get() == context;
	}

	/** The startup as the server's recorder timed it (a Boot context with telemetry on). */
	@Override
	public synchronized void accept(ServerTimeline timeline) {
		this.timeline = timeline;
	}

	synchronized void refreshed(long atNs) {
		if (this.refreshedNs == 0) {
			this.refreshedNs = atNs;
		}
	}

	synchronized void started(long atNs) {
		if (this.startedNs == 0) {
			this.startedNs = atNs;
		}
	}

	synchronized void ready(long atNs) {
		if (this.readyNs == 0) {
			this.readyNs = atNs;
		}
	}

	synchronized void failed(String error, long atNs) {
		if (this.error == null) {
			this.error = error;
			this.failedNs = atNs;
		}
	}

	synchronized void paused() {
		this.pauses++;
	}

	/** Closed, by {@code cause} when it is one a developer can act on ({@code null}: the JVM's end). */
	synchronized void closed(@Nullable String cause) {
		if (!this.closed) {
			this.closed = true;
			this.closedBy = cause;
		}
	}

	synchronized boolean isClosed() {
		return this.closed;
	}

	synchronized @Nullable String closedBy() {
		return this.closedBy;
	}

	synchronized boolean failed() {
		return this.error != null;
	}

	synchronized void usedBy(String testClass) {
		this.testClasses.add(testClass);
	}

	synchronized int testClassCount() {
		return this.testClasses.size();
	}

	/** When its startup began: Boot's start, else its creation. */
	synchronized long startNs() {
		return (this.timeline != null) ? contextStages(this.timeline).get(0).startNs() : this.createdNs;
	}

	/** This context as the report says it. */
	synchronized TestContextReport report(ContextFacts facts, String name, Why why, long pid) {
		ServerTimeline timeline = (this.timeline != null) ? fromRecorder(this.timeline, name, pid) : ownTimeline(name, pid);
		return new TestContextReport(name, this.number, pid, facts.boot(), this.applicationContext,
				this.config.getContextLoader().getClass().getSimpleName(),
				(this.error != null) ? StartupOutcome.ERROR : StartupOutcome.READY, this.error,
				new ArrayList<>(this.testClasses), why, this.closedBy, this.pauses, facts.aspects(),
				timeline);
	}

	/** The recorder's timeline from Boot's start: a JVM's first context without the JVM's start before it. */
	private static ServerTimeline fromRecorder(ServerTimeline timeline, String name, long pid) {
		List<Stage> stages = contextStages(timeline);
		return new ServerTimeline(name, null, false, pid, null, null, stages.get(0).startNs(), timeline.readyEpochNs(),
				stages, List.of(), timeline.steps(), null);
	}

	private static List<Stage> contextStages(ServerTimeline timeline) {
		List<Stage> stages = timeline.stages().stream().filter((stage) -> !BEFORE_THE_CONTEXT.contains(stage.name())).toList();
		return stages.isEmpty() ? List.of(new Stage(StageNames.APPLICATION_READY, timeline.startEpochNs(),
				timeline.readyEpochNs())) : stages;
	}

	/**
	 * Its stages as its own listener saw them, without the recorder (a context without Boot, or
	 * with telemetry off): its creation to its refresh, then Boot's started and ready if any, or to
	 * the failure.
	 */
	private ServerTimeline ownTimeline(String name, long pid) {
		List<Stage> stages = new ArrayList<>();
		long at = this.createdNs;
		at = stage(stages, StageNames.CONTEXT_REFRESHED, at, this.refreshedNs);
		at = stage(stages, StageNames.APPLICATION_STARTED, at, this.startedNs);
		at = stage(stages, StageNames.APPLICATION_READY, at, this.readyNs);
		if (this.failedNs > at) {
			stages.add(new Stage((this.refreshedNs == 0) ? StageNames.CONTEXT_REFRESHED : StageNames.APPLICATION_READY,
					at, this.failedNs));
			at = this.failedNs;
		}
		return new ServerTimeline(name, null, false, pid, null, null, this.createdNs, at, stages, List.of(), List.of(),
				null);
	}

	private static long stage(List<Stage> stages, String name, long from, long to) {
		if (to <= 0) {
			return from;
		}
		long end = Math.max(from, to);
		stages.add(new Stage(name, from, end));
		return end;
	}

}
