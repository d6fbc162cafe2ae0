package io.github.startuptelemetry.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.timeline.internal.ClockOffset;
import io.github.startuptelemetry.timeline.internal.JvmCounterReader;
import io.github.startuptelemetry.timeline.internal.StageTimeline;
import io.github.startuptelemetry.timeline.internal.SpawnHandOff;
import io.github.startuptelemetry.timeline.internal.TraceParent;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * A server process's own startup stages: those before the JVM existed, taken from the env
 * contract, then the ones it times itself. A worker process (a server's second JVM, spawned by
 * the first) begins at the main process's hand-off instead of at its own spawn. Other packages
 * see it only through {@code ProcessTimeline}.
 */
class ServerStartupTimeline extends StageTimeline {

	private final AtomicBoolean claimed = new AtomicBoolean();

	private final boolean worker;

	private final @Nullable TraceParent traceParent;

	private final List<String> ignoredEnv;

	private final @Nullable SupervisorCallback callback;

	private final @Nullable ClockOffset clock;

	private volatile List<StepTiming> steps = List.of();

	private volatile int port;

	ServerStartupTimeline(long startNs, boolean worker, @Nullable TraceParent traceParent, List<String> ignoredEnv) {
		this(startNs, worker, traceParent, ignoredEnv, null, null);
	}

	private ServerStartupTimeline(long startNs, boolean worker, @Nullable TraceParent traceParent,
			List<String> ignoredEnv, @Nullable SupervisorCallback callback, @Nullable ClockOffset clock) {
		super(startNs);
		this.worker = worker;
		this.traceParent = traceParent;
		this.ignoredEnv = List.copyOf(ignoredEnv);
		this.callback = callback;
		this.clock = clock;
	}

	/**
	 * The timeline of the first application in this JVM: the env prelude, then
	 * {@code main_start} from the JVM start to {@code startingNs}, when the JVM's counters stood
	 * at {@code startingCounters}.
	 */
	static ServerStartupTimeline fromJvmStart(SpawnHandOff env, boolean worker, long startingNs,
			@Nullable JvmCounters startingCounters) {
		return fromJvmStart(env, worker, startingNs, startingCounters, null);
	}

	/**
	 * {@link #fromJvmStart(SpawnHandOff, boolean, long, JvmCounters)} for a server its supervisor
	 * asked to call back: the supervisor's clock is read first (the offset places the env
	 * stamps), and the server tells it once it is ready ({@link #callback()}).
	 * @param env the env contract
	 * @param worker whether this is a worker process (a worker never calls back)
	 * @param startingNs {@code ApplicationStartingEvent}
	 * @param startingCounters the JVM's counters then, or {@code null} when they are off
	 * ({@code telemetry.startup.counters}): no stage carries any
	 * @param processEnv the process environment, for the callback, or {@code null} for none
	 */
	static ServerStartupTimeline fromJvmStart(SpawnHandOff env, boolean worker, long startingNs,
			@Nullable JvmCounters startingCounters, @Nullable Map<String, String> processEnv) {
		List<String> ignored = new ArrayList<>();
		// asked only when the env names a callback at all: a server without a supervisor never loads its class
		SupervisorCallback callback = (processEnv != null && !worker
				&& (processEnv.containsKey(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL)
						|| processEnv.containsKey(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_TOKEN)))
								? SupervisorCallback.fromEnv(processEnv, ignored) : null;
		ClockOffset clock = (callback != null) ? callback.measureClock() : null;
		if (callback != null) {
			callback.prepare();
		}
		long jvmStartNs = JvmCounterReader.jvmStartMillis() * 1_000_000L;
		SpawnHandOff.Prelude prelude = env.prelude(jvmStartNs, worker, clock);
		ignored.addAll(prelude.ignored());
		if (!ignored.isEmpty()) {
			Log logger = LogFactory.getLog(ServerStartupTimeline.class);
			if (logger.isDebugEnabled()) {
				logger.debug("Env values ignored (present but unusable): " + String.join("; ", ignored));
			}
		}
		long start = prelude.stages().isEmpty() ? jvmStartNs : prelude.stages().get(0).startNs();
		ServerStartupTimeline timeline = new ServerStartupTimeline(start, worker, env.traceParent().orElse(null),
				ignored, callback, clock);
		for (Stage stage : prelude.stages()) {
			timeline.add(stage.name(), stage.startNs(), stage.endNs());
		}
		if (startingCounters != null) {
			// main_start runs from the JVM's start, where every counter was 0
			timeline.countJvm(JvmCounterReader.source(), JvmCounters.ZERO);
		}
		timeline.mark(StageNames.MAIN_START, startingNs, startingCounters);
		return timeline;
	}

	/**
	 * Take this process's stages for one report: the server report at ready, or a supervisor's
	 * {@code gym.startup} (through {@code ProcessTimeline.claim()}) before it. Only the first
	 * claim succeeds, so the process is reported once, as one or the other.
	 */
	boolean claim() {
		return this.claimed.compareAndSet(false, true);
	}

	boolean worker() {
		return this.worker;
	}

	/** The supervisor's span this startup hangs from, or {@code null}. */
	@Nullable TraceParent traceParent() {
		return this.traceParent;
	}

	/** Env values that were present but unusable, one line each. */
	List<String> ignoredEnv() {
		return this.ignoredEnv;
	}

	/** The slow beans and application steps of {@code beans_instantiated}, roots in start order. */
	List<StepTiming> steps() {
		return this.steps;
	}

	void steps(List<StepTiming> steps) {
		this.steps = List.copyOf(steps);
	}

	/** The supervisor to tell once ready, or {@code null}. */
	@Nullable SupervisorCallback callback() {
		return this.callback;
	}

	/** This clock minus the supervisor's, or {@code null} when not measured. */
	@Nullable ClockOffset clock() {
		return this.clock;
	}

	/** The port the web server bound, or 0 without one. */
	int port() {
		return this.port;
	}

	void port(int port) {
		this.port = port;
	}

}
