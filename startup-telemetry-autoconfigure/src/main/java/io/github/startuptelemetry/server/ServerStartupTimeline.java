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
 * contract (its prelude), then the ones it times itself from the JVM's start. A worker process
 * (a server's second JVM, spawned by the first) begins at the main process's hand-off instead of
 * at its own spawn. The prelude is placed on this clock once the supervisor's clock is known,
 * read off the startup's thread, and only by those who read the stages. Other packages see it
 * only through {@code ProcessTimeline}.
 */
class ServerStartupTimeline extends StageTimeline {

	/**
	 * The longest a reader of the stages waits for the supervisor's clock: its connect and read
	 * timeouts, and some. Only readers wait (the report, after ready), never the startup.
	 */
	private static final long CLOCK_WAIT_MS = 2L * SupervisorCallback.TIMEOUT_MS + 500;

	private final AtomicBoolean claimed = new AtomicBoolean();

	private final boolean worker;

	private final @Nullable TraceParent traceParent;

	private final List<String> ignoredEnv;

	private final @Nullable SupervisorCallback callback;

	/** The env stamps whose stages are placed once the clock is known; {@code null} for none. */
	private final @Nullable SpawnHandOff env;

	private final Object preludeLock = new Object();

	/** The stages before the JVM, once placed; read without a lock once set. */
	private volatile SpawnHandOff.@Nullable Prelude prelude;

	private volatile @Nullable ClockOffset clock;

	private volatile List<StepTiming> steps = List.of();

	private volatile int port;

	ServerStartupTimeline(long startNs, boolean worker, @Nullable TraceParent traceParent, List<String> ignoredEnv) {
		this(startNs, worker, traceParent, ignoredEnv, null, null);
	}

	/**
	 * @param jvmStartNs where this process's own stages begin, and its prelude ends
	 * @param env the env stamps of the prelude, or {@code null} for none
	 * @param callback the supervisor to read the clock of (first) and tell once ready, or {@code null}
	 */
	private ServerStartupTimeline(long jvmStartNs, boolean worker, @Nullable TraceParent traceParent,
			List<String> ignoredEnv, @Nullable SupervisorCallback callback, @Nullable SpawnHandOff env) {
		super(jvmStartNs);
		this.worker = worker;
		this.traceParent = traceParent;
		this.ignoredEnv = List.copyOf(ignoredEnv);
		this.callback = callback;
		this.env = env;
		if (env == null) {
			this.prelude = new SpawnHandOff.Prelude(List.of(), List.of());
		}
		else if (callback == null) {
			// no clock to wait for: placed now, as it is
			placePrelude(null);
		}
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
		if (callback != null) {
			// its own thread reads the supervisor's clock first: this one goes on at once
			callback.prepare();
		}
		long jvmStartNs = JvmCounterReader.jvmStartMillis() * 1_000_000L;
		ServerStartupTimeline timeline = new ServerStartupTimeline(jvmStartNs, worker, env.traceParent().orElse(null),
				ignored, callback, env);
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
		return ignoredEnv(prelude());
	}

	private List<String> ignoredEnv(SpawnHandOff.Prelude prelude) {
		if (prelude.ignored().isEmpty()) {
			return this.ignoredEnv;
		}
		List<String> all = new ArrayList<>(this.ignoredEnv);
		all.addAll(prelude.ignored());
		return List.copyOf(all);
	}

	/** The prelude's stages, then this process's own. */
	@Override
	public List<Stage> stages() {
		List<Stage> before = prelude().stages();
		List<Stage> own = super.stages();
		if (before.isEmpty()) {
			return own;
		}
		List<Stage> all = new ArrayList<>(before.size() + own.size());
		all.addAll(before);
		all.addAll(own);
		return List.copyOf(all);
	}

	/** Where the prelude begins, else the JVM's start. */
	@Override
	public long startNs() {
		List<Stage> before = prelude().stages();
		return before.isEmpty() ? super.startNs() : before.get(0).startNs();
	}

	/**
	 * The prelude, placed on this clock: at once without a supervisor to ask, else once its clock
	 * was read (or {@value #CLOCK_WAIT_MS} ms went by), by whoever asks first.
	 */
	private SpawnHandOff.Prelude prelude() {
		SpawnHandOff.Prelude placed = this.prelude;
		if (placed != null) {
			return placed;
		}
		ClockOffset clock = (this.callback != null) ? this.callback.clock(CLOCK_WAIT_MS) : null;
		return placePrelude(clock);
	}

	private SpawnHandOff.Prelude placePrelude(@Nullable ClockOffset clock) {
		synchronized (this.preludeLock) {
			if (this.prelude == null) {
				SpawnHandOff.Prelude placed = this.env.prelude(super.startNs(), this.worker, clock);
				this.clock = clock;
				this.prelude = placed;
				if (!placed.ignored().isEmpty() || !this.ignoredEnv.isEmpty()) {
					Log logger = LogFactory.getLog(ServerStartupTimeline.class);
					if (logger.isDebugEnabled()) {
						logger.debug("Env values ignored (present but unusable): "
								+ String.join("; ", ignoredEnv(placed)));
					}
				}
			}
			return this.prelude;
		}
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
		prelude();
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
