package io.github.startuptelemetry.server;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.timeline.StageTimeline;
import io.github.startuptelemetry.timeline.StartupEnvironment;
import io.github.startuptelemetry.timeline.StepTiming;
import io.github.startuptelemetry.timeline.TraceParent;

/**
 * A server process's own startup stages: those before the JVM existed, taken from the env
 * contract, then the ones it times itself. A worker process (a server's second JVM, spawned by
 * the first) begins at the main process's hand-off instead of at its own spawn.
 */
public class ServerStartupTimeline extends StageTimeline {

	/** The name under which the live timeline is registered in the application context. */
	public static final String BEAN_NAME = "startupTelemetryProcessTimeline";

	private final AtomicBoolean claimed = new AtomicBoolean();

	private final boolean worker;

	private final TraceParent traceParent;

	private final List<String> ignoredEnv;

	private volatile List<StepTiming> steps = List.of();

	ServerStartupTimeline(long startNs, boolean worker, TraceParent traceParent, List<String> ignoredEnv) {
		super(startNs);
		this.worker = worker;
		this.traceParent = traceParent;
		this.ignoredEnv = List.copyOf(ignoredEnv);
	}

	/**
	 * The timeline of the first application in this JVM: the env prelude, then
	 * {@code main_start} from the JVM start to {@code startingNs}.
	 */
	static ServerStartupTimeline fromJvmStart(StartupEnvironment env, boolean worker, long startingNs) {
		long jvmStartNs = ManagementFactory.getRuntimeMXBean().getStartTime() * 1_000_000L;
		StartupEnvironment.Prelude prelude = env.prelude(jvmStartNs, worker);
		long start = prelude.stages().isEmpty() ? jvmStartNs : prelude.stages().get(0).startNs();
		ServerStartupTimeline timeline = new ServerStartupTimeline(start, worker, env.traceParent().orElse(null),
				prelude.ignored());
		prelude.stages().forEach((stage) -> timeline.add(stage.name(), stage.startNs(), stage.endNs()));
		timeline.mark(StageNames.MAIN_START, startingNs);
		return timeline;
	}

	/**
	 * Take this process's stages over for another report (a supervisor's {@code gym.startup}),
	 * so that the process is not also reported as a server. Only the first claim succeeds, and
	 * the server report at ready claims the timeline itself: after it, a claim fails.
	 */
	public boolean claim() {
		return this.claimed.compareAndSet(false, true);
	}

	public boolean claimed() {
		return this.claimed.get();
	}

	public boolean worker() {
		return this.worker;
	}

	/** The supervisor's span this startup hangs from, or {@code null}. */
	public TraceParent traceParent() {
		return this.traceParent;
	}

	/** Env values that were present but unusable, one line each. */
	public List<String> ignoredEnv() {
		return this.ignoredEnv;
	}

	/** The slow beans and application steps of {@code beans_instantiated}, roots in start order. */
	public List<StepTiming> steps() {
		return this.steps;
	}

	void steps(List<StepTiming> steps) {
		this.steps = List.copyOf(steps);
	}

}
