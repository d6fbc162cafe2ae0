package io.github.startuptelemetry.supervisor;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.contract.StartupEnv;
import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.export.internal.StartupExport;
import io.github.startuptelemetry.lifecycle.internal.ProcessResourceAttributes;
import io.github.startuptelemetry.lifecycle.internal.ServerEnvBuilder;
import io.github.startuptelemetry.internal.BoundedText;
import io.github.startuptelemetry.internal.Guarded;
import io.github.startuptelemetry.timeline.internal.StageTimeline;
import io.github.startuptelemetry.timeline.internal.TraceParent;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.tracing.internal.SdkFlush;
import io.github.startuptelemetry.tracing.internal.StartupSpans;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.report.StartupReportBuilder;
import io.github.startuptelemetry.timeline.Stage;

/**
 * {@link SupervisorStartup} through the application's own {@link OpenTelemetry}, else the
 * starter's own SDK when there is somewhere to export to ({@link StartupExport}). One lock guards
 * all state, so that however {@code serverReady}, {@code finish} and {@code abort} race, each
 * server gets one outcome and each span ends exactly once.
 */
final class OpenTelemetrySupervisorStartup implements SupervisorStartup {

	private static final Log logger = LogFactory.getLog(SupervisorStartup.class);

	private static final Runnable NOTHING_LEFT = () -> {
	};

	/** What the span of a server never spawned says, before what ended the startup. */
	static final String NOT_SPAWNED = "not spawned: still waiting for its dependencies when the startup ended";

	/** The longest reason a server's span gives for not being ready ({@link #serverNotReady}). */
	static final int REASON_MAX_CHARS = 2048;

	/** The longest headline of the startup's failure a server's span repeats, without a reason of its own. */
	static final int HEADLINE_MAX_CHARS = 512;

	/** The most servers a message names (the report and each server's span say the rest). */
	static final int NAMED_SERVERS = 10;

	/**
	 * Server spans ended between two flushes that wait ({@link #paced}): with their wait stages at
	 * most the batch span processor's default batch, so that its default queue (2,048) never
	 * overflows, however many servers end at once, whoever owns the SDK.
	 */
	static final int PACE = 256;

	/** The longest a startup waits for its paced flushes in all: past it, a collector that does not keep up gets what fits. */
	static final long PACE_BUDGET_NS = TimeUnit.SECONDS.toNanos(10);

	/** Where spans go, once known ({@link #openTelemetry()}); under this startup's lock. */
	private OpenTelemetry openTelemetry;

	/** Where {@link #openTelemetry} comes from when it was not given, or {@code null}. */
	private final StartupExport export;

	private final StageTimeline timeline;

	private final ChildTelemetryEnvironment childEnvironment;

	private final Map<String, String> processEnv;

	private final List<Consumer<ServerReport>> serverListeners;

	private final boolean startupSpans;

	private final Attributes attributes = Attributes.of(StartupSpans.PROCESS_PID, ProcessHandle.current().pid());

	private final Map<String, ServerRecord> servers = new LinkedHashMap<>();

	private State state = State.NEW;

	private Span root = Span.getInvalid();

	/** Under this startup's lock, like every use of it. */
	private Tracer tracer;

	private StartupReport report;

	/** Where the spans go, for the paced flushes off this startup's lock; set once the tracer is. */
	private volatile OpenTelemetry pacedBy;

	/** Server spans ended so far, by any thread. */
	private final AtomicInteger ended = new AtomicInteger();

	/** What is left of {@link #PACE_BUDGET_NS}; taken by the thread that flushes. */
	private final AtomicLong paceBudgetNs = new AtomicLong(PACE_BUDGET_NS);

	/**
	 * @param openTelemetry the application's OpenTelemetry
	 * @param timeline the supervisor's own stages (its claimed process timeline, if it could)
	 * @param childEnvironment settings to pass on to every server, or {@code null}
	 * @param processEnv the supervisor's own environment, which a server inherits as it is
	 * @param serverListeners told of each server once its startup ended (metrics), each guarded
	 * @param startupSpans whether the {@code startup} span group is selected; when it is not, the
	 * startup spans are never exported, so, like Gym's supervisor, this hands its servers no
	 * traceparent to parent theirs on
	 */
	OpenTelemetrySupervisorStartup(OpenTelemetry openTelemetry, StageTimeline timeline,
			ChildTelemetryEnvironment childEnvironment, Map<String, String> processEnv,
			List<Consumer<ServerReport>> serverListeners, boolean startupSpans) {
		this(openTelemetry, null, timeline, childEnvironment, processEnv, serverListeners, startupSpans);
	}

	/**
	 * @param export where the spans go (the application's OpenTelemetry, or the starter's own SDK
	 * built at the first span, when there is somewhere to send it; else nowhere)
	 * @param timeline as above
	 * @param childEnvironment as above
	 * @param processEnv as above
	 * @param serverListeners as above
	 * @param startupSpans as above
	 */
	OpenTelemetrySupervisorStartup(StartupExport export, StageTimeline timeline,
			ChildTelemetryEnvironment childEnvironment, Map<String, String> processEnv,
			List<Consumer<ServerReport>> serverListeners, boolean startupSpans) {
		this(null, export, timeline, childEnvironment, processEnv, serverListeners, startupSpans);
	}

	private OpenTelemetrySupervisorStartup(OpenTelemetry openTelemetry, StartupExport export, StageTimeline timeline,
			ChildTelemetryEnvironment childEnvironment, Map<String, String> processEnv,
			List<Consumer<ServerReport>> serverListeners, boolean startupSpans) {
		this.openTelemetry = openTelemetry;
		this.export = export;
		this.timeline = timeline;
		this.childEnvironment = childEnvironment;
		this.processEnv = Map.copyOf(processEnv);
		this.serverListeners = List.copyOf(serverListeners);
		this.startupSpans = startupSpans;
	}

	@Override
	public synchronized void beginTrace() {
		guarded("begin the startup trace", this::begin);
	}

	@Override
	public synchronized void mark(String stage) {
		guarded("mark a supervisor stage", () -> {
			if (this.state != State.DONE && stage != null && !stage.isBlank()) {
				this.timeline.mark(stage);
			}
		});
	}

	@Override
	public synchronized Map<String, String> serverEnv(String name, String type, int rank, int worldSize) {
		Map<String, String> env = new LinkedHashMap<>();
		guarded("prepare a server's environment", () -> {
			if (name != null && !name.isBlank()) {
				fillServerEnv(env, name, type, rank, worldSize);
			}
		});
		return env;
	}

	@Override
	public synchronized void serverWaiting(String name, String type) {
		guarded("open a waiting server's startup span", () -> {
			if (name != null && !name.isBlank() && !this.servers.containsKey(name) && this.state != State.DONE) {
				open(name, type, WallClock.nowNs(), true);
			}
		});
	}

	@Override
	public synchronized void serverAttributes(String name, Map<String, Object> attributes) {
		guarded("add a server's launcher attributes", () -> {
			ServerRecord record = (name != null) ? this.servers.get(name) : null;
			if (record != null && record.open()) {
				if (attributes.get(SpanAttributes.SLURM_PENDING_MS) instanceof Long pendingMs) {
					record.queuedNs = OptionalLong.of(TimeUnit.MILLISECONDS.toNanos(pendingMs));
				}
				attributes.forEach((key, value) -> {
					if (value instanceof Long number) {
						record.span.setAttribute(key, number);
					}
					else if (value instanceof Double number) {
						record.span.setAttribute(key, number);
					}
					else if (value instanceof Boolean bool) {
						record.span.setAttribute(key, bool);
					}
					else if (value instanceof List<?> list) {
						record.span.setAttribute(AttributeKey.stringArrayKey(key),
								list.stream().map(String::valueOf).toList());
					}
					else if (value != null) {
						record.span.setAttribute(key, value.toString());
					}
				});
			}
		});
	}

	@Override
	public synchronized void serverNotReady(String name, String reason) {
		guarded("note why a server is not ready", () -> {
			ServerRecord record = (name != null) ? this.servers.get(name) : null;
			if (record != null && record.open() && reason != null) {
				record.reason = BoundedText.cap(reason, REASON_MAX_CHARS);
			}
		});
	}

	@Override
	public void serverReady(String name) {
		serverReady(name, null, Double.NaN, Double.NaN);
	}

	@Override
	public void serverReady(String name, String source, double clockOffsetMs, double clockUncertaintyMs) {
		serverReady(name, source, clockOffsetMs, clockUncertaintyMs, WallClock.nowNs());
	}

	@Override
	public void serverReady(String name, String source, double clockOffsetMs, double clockUncertaintyMs,
			long readyEpochNs) {
		claimReady(name, source, clockOffsetMs, clockUncertaintyMs, readyEpochNs).run();
	}

	@Override
	public Runnable claimReady(String name, String source, double clockOffsetMs, double clockUncertaintyMs,
			long readyEpochNs) {
		// no lambda here: linking one on the first call costs a fresh JVM about a millisecond, under the caller's lock
		try {
			ServerRecord claimed = claim(name, source, clockOffsetMs, clockUncertaintyMs, readyEpochNs);
			return (claimed != null) ? claimed : NOTHING_LEFT;
		}
		catch (RuntimeException | LinkageError ex) {
			logger.debug("Could not record a ready server", ex);
			return NOTHING_LEFT;
		}
	}

	/** Fix the server's outcome and end, now, if it is still open; its span ends later ({@link #endClaimed}). */
	private synchronized ServerRecord claim(String name, String source, double clockOffsetMs, double clockUncertaintyMs,
			long readyEpochNs) {
		ServerRecord record = (name != null) ? this.servers.get(name) : null;
		if (record == null || !record.open() || record.waiting()) {
			return null;
		}
		// when it was received, never later than now and never before its spawn
		record.claim(Math.max(Math.min(readyEpochNs, WallClock.nowNs()), record.spawnNs),
				StartupReportBuilder.serverOutcome(true, null), source, clockOffsetMs, clockUncertaintyMs);
		return record;
	}

	@Override
	public synchronized void finish() {
		guarded("finish the startup", () -> {
			if (this.state == State.DONE) {
				return;
			}
			List<String> pending = this.servers.values().stream().filter(ServerRecord::open).map((r) -> r.name).toList();
			if (!pending.isEmpty()) {
				abortNow(StartupOutcome.ERROR, new IllegalStateException(
						"Startup finished before [" + BoundedText.first(pending, NAMED_SERVERS) + "] ready"));
				return;
			}
			begin();
			endAllClaimed();
			long lastReady = this.servers.values().stream().mapToLong((r) -> r.endNs).max().orElse(Long.MIN_VALUE);
			if (lastReady > this.timeline.endNs()) {
				this.timeline.mark(StageNames.WAIT_FOR_SERVERS, lastReady);
			}
			close(StartupOutcome.READY, null, this.timeline.endNs());
		});
	}

	@Override
	public synchronized void abort(String outcome, Throwable error) {
		guarded("abort the startup", () -> abortNow(StartupOutcome.failure(outcome), error));
	}

	@Override
	public synchronized Optional<StartupReport> report() {
		return Optional.ofNullable(this.report);
	}

	private void begin() {
		if (this.state == State.NEW) {
			this.state = State.TRACING;
			guarded("open the startup span", () -> this.root = StartupSpans.start(tracer(),
					SpanNames.SUPERVISOR_ROOT, this.timeline.startNs(), Context.root(), this.attributes));
		}
	}

	private void fillServerEnv(Map<String, String> env, String name, String type, int rank, int worldSize) {
		ServerRecord record = this.servers.get(name);
		if (record == null && this.state != State.DONE) {
			record = open(name, type, WallClock.nowNs(), false);
		}
		else if (record != null && record.waiting() && record.open()) {
			record.spawned(WallClock.nowNs());
			endWait(record);
		}
		ServerEnvBuilder server = ServerEnvBuilder.of(this.processEnv);
		if (this.childEnvironment != null) {
			guarded("add the propagated telemetry settings",
					() -> server.settings(this.childEnvironment.forServer(name, type, rank, worldSize)));
		}
		server.settings(ProcessResourceAttributes.serverEnv(name, type, rank, worldSize));
		if (record != null) {
			server.set(StartupEnv.SPAWN_NS, Long.toString(record.spawnNs));
			SpanContext span = record.span.getSpanContext();
			if (this.startupSpans && span.isValid()) {
				// always sampled: a server's startup spans are exported whatever its sampler says
				String traceParent = new TraceParent(span.getTraceId(), span.getSpanId(), 1).header();
				server.set(StartupEnv.TRACEPARENT, traceParent);
				server.set(StartupEnv.OTEL_TRACEPARENT, traceParent);
			}
		}
		env.putAll(server.toMap());
	}

	/** A server's record and its open {@code gym.startup.server} span, from {@code startNs}: its spawn, or when it began waiting. */
	private ServerRecord open(String name, String type, long startNs, boolean waiting) {
		begin();
		ServerRecord record = new ServerRecord(name, type, startNs, waiting);
		this.servers.put(name, record);
		// its name and type set on the builder: no Attributes built and copied per server
		guarded("open a server's startup span", () -> {
			SpanBuilder span = StartupSpans.builder(tracer(), SpanNames.SUPERVISOR_SERVER, startNs,
					Context.root().with(this.root), Attributes.empty())
				.setAttribute(StartupSpans.SERVER_NAME, name);
			if (type != null) {
				span.setAttribute(StartupSpans.SERVER_TYPE, type);
			}
			record.span = span.startSpan();
		});
		return record;
	}

	/**
	 * The {@code waiting_for_dependencies} stage of a server that waited, under its span: to its
	 * spawn, or to the end of a startup that ended first.
	 */
	private void endWait(ServerRecord record) {
		long endNs = record.spawnNs;
		guarded("end a server's wait for its dependencies", () -> {
			Attributes attributes = (record.type != null)
					? Attributes.of(StartupSpans.SERVER_NAME, record.name, StartupSpans.SERVER_TYPE, record.type)
					: Attributes.of(StartupSpans.SERVER_NAME, record.name);
			StartupSpans.stageSpan(tracer(), new Stage(StageNames.WAITING_FOR_DEPENDENCIES, record.waitStartNs, endNs),
					Context.root().with(record.span), SpanNames.SUPERVISOR_SERVER, attributes, null);
			record.span.setAttribute(StartupSpans.DEPENDENCY_WAIT_MS, (endNs - record.waitStartNs) / 1e6);
		});
	}

	private void abortNow(String outcome, Throwable error) {
		if (this.state == State.DONE) {
			return;
		}
		begin();
		endAllClaimed();
		this.timeline.mark(StageNames.UNFINISHED, WallClock.nowNs());
		long end = this.timeline.endNs();
		for (ServerRecord record : this.servers.values()) {
			if (record.open() && record.waiting()) {
				// never spawned: its wait lasted to the end
				record.spawnNs = end;
				endWait(record);
			}
			if (record.open()) {
				end(record, end, StartupReportBuilder.serverOutcome(false, outcome), error);
			}
		}
		close(outcome, error, end);
	}

	private void end(ServerRecord record, long endNs, String outcome, Throwable error) {
		record.claim(endNs, outcome, null, Double.NaN, Double.NaN);
		endClaimed(record, error);
	}

	private void endClaimed(ServerRecord record) {
		endClaimed(record, null);
	}

	/**
	 * End a claimed server's span and tell the listeners, unless that was done: once, by the
	 * thread that claimed it or by whoever closes the startup first, whichever comes first.
	 */
	private void endClaimed(ServerRecord record, Throwable error) {
		synchronized (record) {
			if (record.ended) {
				return;
			}
			record.ended = true;
			guarded("end a server's startup span", () -> {
				if (record.source != null) {
					record.span.setAttribute(StartupSpans.READINESS_SOURCE, record.source);
				}
				if (!Double.isNaN(record.clockOffsetMs) && !Double.isNaN(record.clockUncertaintyMs)) {
					record.span.setAttribute(StartupSpans.CLOCK_OFFSET_MS, record.clockOffsetMs);
					record.span.setAttribute(StartupSpans.CLOCK_UNCERTAINTY_MS, record.clockUncertaintyMs);
				}
				endServerSpan(record, error);
			});
			ServerReport row = record.report();
			for (Consumer<ServerReport> listener : this.serverListeners) {
				guarded("record a server's startup", () -> listener.accept(row));
			}
		}
		paced();
	}

	/**
	 * A server's span ends with its outcome and, when it was not ready, ERROR status saying why in
	 * its own words: its reason ({@link #serverNotReady}), else the first line of what ended the
	 * startup, which the root alone carries whole. Bounded, so that a fleet's trace grows with the
	 * fleet, not with its square.
	 */
	private void endServerSpan(ServerRecord record, Throwable error) {
		Span span = record.span;
		span.setAttribute(StartupSpans.OUTCOME, record.outcome);
		if (!StartupOutcome.READY.equals(record.outcome)) {
			String why = (record.reason != null) ? record.reason
					: (error != null) ? BoundedText.headline(message(error), HEADLINE_MAX_CHARS) : null;
			String description = record.waiting() ? NOT_SPAWNED + ((why != null) ? ": " + why : "")
					: (why != null) ? why : record.outcome;
			span.setStatus(StatusCode.ERROR, description);
		}
		span.end(record.endNs, TimeUnit.NANOSECONDS);
	}

	/**
	 * Every {@value #PACE} server spans ended, wait for what was queued to be exported before
	 * ending more, within {@link #PACE_BUDGET_NS} in all: a failed fleet of thousands ends all its
	 * spans at once, and a batch span processor drops what its queue cannot hold. Off this
	 * startup's lock when a ready server's span ends (the run's telemetry thread), under it when
	 * the startup closes.
	 */
	private void paced() {
		OpenTelemetry openTelemetry = this.pacedBy;
		if (openTelemetry == null || this.ended.incrementAndGet() % PACE != 0) {
			return;
		}
		long budget = this.paceBudgetNs.get();
		if (budget <= 0) {
			return;
		}
		long start = System.nanoTime();
		boolean drained = SdkFlush.flushAndWait(openTelemetry, budget);
		long spent = System.nanoTime() - start;
		// a flush that did not finish in what was left spends the rest: the collector does not keep up
		this.paceBudgetNs.addAndGet(drained ? -spent : -budget);
	}

	/** Every claimed server's span ended and its listeners told, before the root ends and the report is built. */
	private void endAllClaimed() {
		this.servers.values().stream().filter((record) -> !record.open()).forEach(this::endClaimed);
	}

	private void close(String outcome, Throwable error, long endNs) {
		// state first, then the telemetry that reflects it: a failing tracer cannot leave it half-closed
		this.state = State.DONE;
		List<Stage> stages = this.timeline.stages().stream().filter((stage) -> stage.endNs() <= endNs).toList();
		SpanContext root = this.root.getSpanContext();
		StartupReportBuilder report = new StartupReportBuilder(root.isValid() ? root.getTraceId() : null,
				this.timeline.startNs(), endNs, outcome, (error != null) ? rootMessage(error) : null, stages);
		// in spawn order: a server that waited is spawned after those it waited for; never spawned, last
		this.servers.values()
			.stream()
			.sorted(Comparator.comparing(ServerRecord::waiting).thenComparingLong((record) -> record.spawnNs))
			.forEach((record) -> report.server(record.report()));
		this.report = report.build();
		guarded("export the startup spans", () -> {
			StartupSpans.stageSpans(tracer(), stages, this.root, SpanNames.SUPERVISOR_ROOT, this.attributes);
			endRoot(endNs, outcome, error);
			SdkFlush.flush(openTelemetry());
		});
	}

	/** The root ends with the outcome and, failed, what failed it: once, bounded, for the whole fleet. */
	private void endRoot(long endNs, String outcome, Throwable error) {
		this.root.setAttribute(StartupSpans.OUTCOME, outcome);
		if (!StartupOutcome.READY.equals(outcome)) {
			this.root.setStatus(StatusCode.ERROR, (error != null) ? rootMessage(error) : outcome);
			if (error != null) {
				StartupSpans.recordException(this.root, error, endNs);
			}
		}
		this.root.end(endNs, TimeUnit.NANOSECONDS);
	}

	/** What failed the startup, for the root and the report: bounded, whatever the caller's message. */
	private static String rootMessage(Throwable error) {
		return BoundedText.cap(message(error), StartupSpans.EXCEPTION_MAX_CHARS);
	}

	private static String message(Throwable error) {
		return (error.getMessage() != null) ? error.getMessage() : error.getClass().getSimpleName();
	}

	/** Looked up once, not for every server's span (a lookup in the SDK's registry each time). */
	private Tracer tracer() {
		if (this.tracer == null) {
			this.tracer = openTelemetry().getTracer(SpanNames.SCOPE);
			this.pacedBy = openTelemetry();
		}
		return this.tracer;
	}

	/**
	 * Where the spans go: given, or the export's (which may build the starter's SDK, once, here);
	 * a no-op without anywhere to send them, so that nothing is recorded for nobody.
	 */
	private OpenTelemetry openTelemetry() {
		if (this.openTelemetry == null) {
			OpenTelemetry tracing = (this.export != null) ? this.export.tracing() : null;
			this.openTelemetry = (tracing != null) ? tracing : OpenTelemetry.noop();
		}
		return this.openTelemetry;
	}

	private static void guarded(String what, Runnable step) {
		Guarded.run(logger, what, step);
	}

	private enum State {

		NEW, TRACING, DONE

	}

	/**
	 * One server: open from its spawn (or from when it began waiting for its dependencies)
	 * until it is claimed ready or the startup is aborted; run, it ends its claimed span (once).
	 */
	private final class ServerRecord implements Runnable {

		final String name;

		final String type;

		/** When it was spawned; for one that waited and was never spawned, the end. */
		long spawnNs;

		/** When it began waiting for its dependencies, or {@link Long#MIN_VALUE} for one spawned at once. */
		final long waitStartNs;

		/** Whether it waited for its dependencies before it was spawned. */
		final boolean waited;

		/** Whether it was spawned ({@link #serverEnv}). */
		boolean spawned;

		Span span = Span.getInvalid();

		/** When it ended; set with {@link #outcome}, under the startup's lock. */
		long endNs;

		/** Its outcome once claimed (ready, or the abort's); {@code null} while it is open. */
		String outcome;

		/** How the supervisor learnt it was ready ({@code callback}, {@code probe}), or {@code null}. */
		String source;

		double clockOffsetMs = Double.NaN;

		double clockUncertaintyMs = Double.NaN;

		/** Why it is not ready, in its own words ({@link #serverNotReady}), or {@code null}. */
		String reason;

		/** Whether its span was ended and the listeners told: guarded by this record's own monitor. */
		boolean ended;

		/** How long its platform held it back (its launcher's pending time), if known. */
		OptionalLong queuedNs = OptionalLong.empty();

		ServerRecord(String name, String type, long startNs, boolean waiting) {
			this.name = name;
			this.type = type;
			this.waited = waiting;
			this.spawned = !waiting;
			this.spawnNs = startNs;
			this.waitStartNs = waiting ? startNs : Long.MIN_VALUE;
		}

		boolean open() {
			return this.outcome == null;
		}

		/** Whether it is (or was, to the end) waiting for its dependencies, unspawned. */
		boolean waiting() {
			return this.waited && !this.spawned;
		}

		void spawned(long spawnNs) {
			this.spawnNs = spawnNs;
			this.spawned = true;
		}

		@Override
		public void run() {
			endClaimed(this);
		}

		void claim(long endNs, String outcome, String source, double clockOffsetMs, double clockUncertaintyMs) {
			this.endNs = endNs;
			this.outcome = outcome;
			this.source = source;
			this.clockOffsetMs = clockOffsetMs;
			this.clockUncertaintyMs = clockUncertaintyMs;
		}

		ServerReport report() {
			ServerReport row = ServerReport.of(this.name, this.type, this.spawnNs, this.endNs, this.outcome);
			if (this.waited) {
				row = row.withWaiting(new ServerReport.Waiting(this.waitStartNs, this.spawned, List.of(), null, null));
			}
			return this.queuedNs.isPresent() ? row.withQueuedNs(this.queuedNs.getAsLong()) : row;
		}

	}

}
