package io.github.startuptelemetry.fleet;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.ReadinessCallback;
import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.fleet.ReadinessCallbackServer;
import io.github.startuptelemetry.internal.BoundedText;
import io.github.startuptelemetry.internal.DaemonThreads;
import io.github.startuptelemetry.internal.Decimals;
import io.github.startuptelemetry.timeline.internal.ClockOffset;
import io.github.startuptelemetry.timeline.internal.ReadyCallback;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.report.gate.ReportComparison;
import io.github.startuptelemetry.supervisor.SupervisorStartup;
import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * One startup of the fleet: spawn the servers (each with {@code depends-on} once its
 * dependencies are met), learn when each is ready (its callback or its probe, whichever comes
 * first), and end the startup, finished or aborted, with a report and no process left behind.
 */
final class FleetRun {

	private static final Log logger = FleetLog.get();

	private static final long PROGRESS_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

	private static final int LOG_TAIL_LINES = 15;

	/** A server's last lines on its own span, when it was not ready: a few, each bounded. */
	private static final int REASON_TAIL_LINES = 5;

	/** The longest line of a server's log a message or span repeats: a line is logged whole only once, by the server. */
	private static final int LOG_LINE_MAX_CHARS = 512;

	/** The most servers the failure names (each server's span and the report have them all). */
	private static final int NAMED_SERVERS = 10;

	/** The most servers of each kind the progress line names. */
	private static final int PROGRESS_NAMES = 5;

	/** What a one-shot job's span says it is. */
	private static final Map<String, Object> ONE_SHOT = Map.of(SpanAttributes.ONE_SHOT, true);

	private final SupervisorProperties properties;

	private final SupervisorStartup startup;

	private final IntSupplier ports;

	private final FleetProcesses processes;

	private final FleetReport report;

	/**
	 * Guards the run's state, so that the first failure is the one reported. The spawner threads,
	 * the probe thread, the callback endpoint, process exits and {@link #stop()} all take it; under
	 * it a server is only claimed ready, in microseconds ({@link SupervisorStartup#claimReady}).
	 */
	private final Object lock = new Object();

	private final CountDownLatch concluded = new CountDownLatch(1);

	/** Where ready servers' spans are ended and metrics recorded, off the threads that learn of them. */
	private final ThreadPoolExecutor telemetry = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
			new LinkedBlockingQueue<>(), DaemonThreads.named("fleet-telemetry"));

	private final List<FleetServer> servers = new ArrayList<>();

	/**
	 * The same servers by name, for the callbacks: a hundred of them need no hundred scans. Filled
	 * before any server is spawned, then only read, without the run's lock: a burst of callbacks
	 * does not queue behind it.
	 */
	private final Map<String, FleetServer> byName = new ConcurrentHashMap<>();

	private State state = State.NEW;

	/** How many of {@link #servers} are ready: the launching thread is woken once, when the last one is. */
	private int readyCount;

	private boolean stopRequested;

	private boolean processesStopped;

	private FleetStartupException failure;

	private volatile FleetProbing probing;

	/** When each server with {@code depends-on} may be spawned; used under {@link #lock}. */
	private DependencyScheduler schedule;

	/** Released servers being spawned on a spawner thread now: stopping waits for them, so none is left behind. */
	private int spawning;

	private volatile ReadinessCallbackServer callback;

	/**
	 * @param properties the fleet
	 * @param startup the startup's telemetry
	 * @param launchers what starts the servers
	 * @param ports free ports for {@code {port}}
	 * @param runId the run's id for the report, or {@code null}
	 */
	FleetRun(SupervisorProperties properties, SupervisorStartup startup, Launchers launchers, IntSupplier ports,
			@Nullable String runId) {
		this(properties, startup, launchers, ports, FleetProcesses.LaunchCommands.AS_PLANNED,
				new FleetReport(properties.getReport(), runId));
	}

	/**
	 * @param properties the fleet
	 * @param startup the startup's telemetry
	 * @param launchers what starts the servers
	 * @param ports free ports for {@code {port}}
	 * @param commands each server's command as launched (its JVM cache added, say)
	 * @param report the report to print (or, for a measurement, to keep)
	 */
	FleetRun(SupervisorProperties properties, SupervisorStartup startup, Launchers launchers, IntSupplier ports,
			FleetProcesses.LaunchCommands commands, FleetReport report) {
		this.properties = properties;
		this.startup = startup;
		this.ports = ports;
		this.processes = new FleetProcesses(properties, startup, launchers, commands);
		this.report = report;
	}

	/**
	 * Spawn the fleet, wait for it and print the report.
	 * @return true when every server became ready; false when the run was stopped first
	 * @throws FleetStartupException when the startup failed (its servers are stopped by then)
	 */
	boolean launch() {
		synchronized (this.lock) {
			if (this.state != State.NEW || this.stopRequested) {
				return false;
			}
			this.state = State.STARTING;
		}
		try {
			try {
				spawnAll();
				awaitVerdict();
			}
			catch (IOException | RuntimeException ex) {
				fail(new FleetStartupException(StartupOutcome.ERROR, "Fleet launch failed: " + ex,
						this.processes.runDir()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				stopRequested();
			}
			return conclude();
		}
		finally {
			this.concluded.countDown();
		}
	}

	/**
	 * Stop the run and every process it started. During startup this aborts it as
	 * {@code interrupted} (the launching thread reports it and stops the servers) and waits,
	 * boundedly, for that first.
	 */
	void stop() {
		boolean starting = stopRequested();
		if (starting) {
			try {
				this.concluded.await(this.properties.getStopTimeout().toSeconds() + 30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		stopProcesses();
		this.processes.shutdown();
		stopCallback();
		if (this.probing != null) {
			this.probing.shutdown();
		}
		this.telemetry.shutdown();
	}

	private boolean stopRequested() {
		synchronized (this.lock) {
			this.stopRequested = true;
			this.lock.notifyAll();
			return this.state == State.STARTING;
		}
	}

	private void spawnAll() throws IOException, InterruptedException {
		this.processes.createRunDir();
		List<ServerPlan> plan = FleetPlan.plan(this.properties, this.ports);
		logger.info("Starting " + plan.size() + " server(s); their logs go to " + this.processes.runDir());
		this.startup.beginTrace();
		// started now, while servers start: the first ready server's step then waits for no new thread
		this.telemetry.prestartCoreThread();
		this.probing = new FleetProbing(this.properties.getProbe());
		if (this.properties.getCallback().isEnabled()) {
			this.callback = ReadinessCallbackServer.start(this.properties.getCallback().getAddress(),
					this.properties.getCallback().getPort(), this::calledBack, this::clockAsked, plan.size());
		}
		DependencyScheduler schedule = new DependencyScheduler(plan);
		synchronized (this.lock) {
			for (ServerPlan server : plan) {
				FleetServer fleetServer = new FleetServer(server);
				this.servers.add(fleetServer);
				this.byName.put(server.name(), fleetServer);
			}
			this.schedule = schedule;
		}
		// the waiting starts now, the moment they would have been spawned without dependencies
		for (ServerPlan server : schedule.dependants()) {
			this.startup.serverWaiting(server.name(), server.type());
			this.startup.serverAttributes(server.name(), dependencyAttributes(server));
		}
		this.processes.spawnAll(fleetServers(schedule.independent()), fleetServers(schedule.dependants()),
				this::supervise);
		this.startup.mark(StageNames.SPAWN_SERVERS);
	}

	private List<FleetServer> fleetServers(List<ServerPlan> plans) {
		synchronized (this.lock) {
			return plans.stream().map((plan) -> this.byName.get(plan.name())).toList();
		}
	}

	/** What a waiting server's span says of what it waits for. */
	private static Map<String, Object> dependencyAttributes(ServerPlan server) {
		return Map.of(SpanAttributes.DEPENDENCY_CONDITIONS, server.dependsOn().stream().map(Dependency::toString).toList());
	}

	/**
	 * Spawn one server, then probe it until it is ready and fetch its timeline for the report. A
	 * released server (its dependencies met) is spawned only while the run still starts, and
	 * stopping the run waits for its spawn to end.
	 */
	private void supervise(FleetServer server, CountDownLatch spawned) {
		boolean released = !server.plan.dependsOn().isEmpty();
		if (released && !spawnStillWanted(server)) {
			spawned.countDown();
			return;
		}
		try {
			try {
				if (released) {
					this.startup.serverAttributes(server.name(),
							Map.of(SpanAttributes.DEPENDENCY_RELEASED_BY, server.releasedBy));
				}
				this.processes.start(server, (this.callback != null) ? this.callback.serverEnv() : Map.of());
			}
			finally {
				spawned.countDown();
				if (released) {
					spawnEnded();
				}
			}
			server.process.onExit().thenAccept((exit) -> exited(server, exit));
		}
		catch (IOException | RuntimeException ex) {
			fail(new FleetStartupException(StartupOutcome.ERROR,
					"Server '" + server.name() + "' could not be spawned: " + ex.getMessage(), this.processes.runDir()));
			server.settled.countDown();
			return;
		}
		if (released) {
			logger.info("Spawned " + server.name() + " (" + server.process.describe() + ", port " + server.plan.port()
					+ ") once " + server.releasedBy + " was " + releasedWord(server) + "; log " + server.process.log());
		}
		if (server.plan.oneShot()) {
			this.startup.serverAttributes(server.name(), ONE_SHOT);
		}
		if (this.schedule.any()) {
			spawnReleased(() -> this.schedule.started(server.name()));
		}
		if (server.plan.oneShot()) {
			// a job is not probed: its exit 0 is its ready, and its settling
			return;
		}
		// what its launcher knows of it (a Slurm step's job, step and wait), once it has started; a
		// local process has nothing to add, and the startup's lock is not taken for nothing
		server.process.host().thenRun(() -> {
			Map<String, Object> attributes = server.process.attributes();
			if (attributes != null && !attributes.isEmpty()) {
				this.startup.serverAttributes(server.name(), attributes);
			}
		});
		if (server.plan.port() == 0) {
			// it binds a port of its own choosing: only its callback can say which, and that it is ready
			return;
		}
		server.process.host()
			.thenCompose((host) -> this.probing.watch(server.plan.probedOn(host),
					() -> probing(server) && !server.ready, () -> server.callingBack, () -> probedHealthy(server)))
			.whenComplete((timeline, error) -> {
				if (error != null) {
					fail(new FleetStartupException(StartupOutcome.ERROR,
							"Server '" + server.name() + "' could not be probed: " + error, this.processes.runDir()));
				}
				else if (timeline.isPresent()) {
					server.timeline = timeline.get();
				}
				server.settled.countDown();
			});
	}

	/**
	 * The probe found {@code server} healthy: it is ready now or, when it will call back, once
	 * its callback is {@code callback.fallback-delay} overdue (the callback makes it ready
	 * itself when it comes first). Completes with whether the probe made it ready.
	 */
	private CompletableFuture<Boolean> probedHealthy(FleetServer server) {
		if (!server.callingBack) {
			return CompletableFuture.completedFuture(probedReady(server));
		}
		return this.probing
			.completeAfter(server.calledBack.copy(), false, this.properties.getCallback().getFallbackDelay())
			.thenApply((calledBack) -> !calledBack && probedReady(server));
	}

	/** A probe found {@code server} healthy, now: it is ready, if it still counts. */
	private boolean probedReady(FleetServer server) {
		return ready(server, ReadinessCallback.SOURCE_PROBE, WallClock.nowNs(), null, null);
	}

	/** A server of this run asked the callback for the clock: it will call back. */
	private void clockAsked(String name) {
		FleetServer server = named(name);
		if (server != null) {
			server.callingBack = true;
			logger.debug("Server '" + name + "' asked for the clock; its callback is awaited, its probe backs off");
		}
	}

	/**
	 * An authenticated, well-formed ready callback: the server is ready, if the run still waits
	 * for it; its timeline (moved onto this clock when the clocks differ) goes in the report.
	 */
	private ReadinessCallbackServer.Verdict calledBack(ReadyCallback callback, InetAddress from, long receivedNs) {
		FleetServer server = named(callback.server());
		if (server == null) {
			return ReadinessCallbackServer.Verdict.UNKNOWN;
		}
		if (server.plan.oneShot()) {
			// a job (a Boot app run once, say) may call back at its ready: what it did is kept, its exit decides
			server.timeline = timelineOf(callback);
			return ReadinessCallbackServer.Verdict.ACCEPTED;
		}
		boolean counted = ready(server, ReadinessCallback.SOURCE_CALLBACK, receivedNs, callback, from);
		if (!counted) {
			return ReadinessCallbackServer.Verdict.SETTLED;
		}
		server.calledBack.complete(true);
		if (server.plan.port() == 0) {
			logger.info("Server '" + server.name() + "' bound " + server.address + " (it said so in its ready callback)");
			server.settled.countDown();
		}
		return ReadinessCallbackServer.Verdict.ACCEPTED;
	}

	/** What a callback said of the server's startup, on this clock. */
	private static ServerTimeline timelineOf(ReadyCallback callback) {
		ClockOffset clock = callback.clock();
		return (clock != null) ? callback.timeline().shifted(clock.toSupervisorClock(0)) : callback.timeline();
	}

	/**
	 * The servers an event released ({@code depends-on} met), each told what released it and
	 * counted as being spawned; under the lock, and only while the run still starts: once it
	 * failed or was stopped, no server is spawned.
	 */
	private List<FleetServer> release(List<DependencyScheduler.Release> released) {
		if (released.isEmpty()) {
			return List.of();
		}
		List<FleetServer> spawn = new ArrayList<>(released.size());
		for (DependencyScheduler.Release release : released) {
			FleetServer server = this.byName.get(release.server().name());
			server.releasedBy = release.byServer();
			this.spawning++;
			spawn.add(server);
		}
		return spawn;
	}

	/** Ask the schedule what an event released, if the run still starts, and spawn those. */
	private void spawnReleased(Supplier<List<DependencyScheduler.Release>> event) {
		List<FleetServer> released;
		synchronized (this.lock) {
			released = starting() ? release(event.get()) : List.of();
		}
		spawn(released);
	}

	private void spawn(List<FleetServer> released) {
		for (FleetServer server : released) {
			if (!this.processes.spawnLater(server, this::supervise)) {
				spawnEnded();
			}
		}
	}

	/** Whether a released server should still be spawned; if not, it no longer counts as being spawned. */
	private boolean spawnStillWanted(FleetServer server) {
		synchronized (this.lock) {
			if (starting() && !this.processesStopped) {
				return true;
			}
			this.spawning--;
			this.lock.notifyAll();
			return false;
		}
	}

	private void spawnEnded() {
		synchronized (this.lock) {
			this.spawning--;
			this.lock.notifyAll();
		}
	}

	/** Whether the run still starts: no failure, no stop. Under the lock. */
	private boolean starting() {
		return this.state == State.STARTING && this.failure == null && !this.stopRequested;
	}

	/** {@code ready}, {@code started} or {@code completed}: how the dependency that released a server met its condition. */
	private static String releasedWord(FleetServer server) {
		return server.plan.dependsOn()
			.stream()
			.filter((dependency) -> dependency.servers().contains(server.releasedBy))
			.findFirst()
			.map(Dependency::conditionName)
			.orElse(StartupOutcome.READY);
	}

	private static String hostOf(InetAddress address) {
		String host = address.getHostAddress();
		return host.contains(":") ? "[" + host + "]" : host;
	}

	private boolean probing(FleetServer server) {
		synchronized (this.lock) {
			return starting() && server.exitCode == null;
		}
	}

	/**
	 * {@code server} is ready since {@code readyNs} (epoch ns), if it still counts; what its
	 * {@code callback} said (from {@code from}; both {@code null} for a probe) is taken in under
	 * the same lock, before anyone waiting hears it is ready. Under the lock only the claim:
	 * the startup's record of it (its outcome and end), the run's state, the wake-up once the last is ready; its span's
	 * end and its metric follow outside, on the run's telemetry thread
	 * ({@link SupervisorStartup#claimReady}: the startup ends them itself before it closes, if
	 * that thread has not yet). Logs, at
	 * debug, the instant the run applied it and the instant its telemetry was told: the
	 * readiness benchmark reads both.
	 */
	private boolean ready(FleetServer server, String source, long readyNs, @Nullable ReadyCallback callback,
			@Nullable InetAddress from) {
		ClockOffset clock = (callback != null) ? callback.clock() : null;
		// what the callback said, moved onto this clock outside the lock: pure, and the lock is everyone's
		ServerTimeline timeline = (callback == null) ? null : timelineOf(callback);
		URI address = (callback != null && callback.port() > 0 && from != null)
				? URI.create("http://" + hostOf(from) + ":" + callback.port()) : null;
		long appliedNs;
		Runnable telemetry;
		List<FleetServer> released;
		synchronized (this.lock) {
			if (!probing(server) || server.ready) {
				return false;
			}
			double offsetMs = (clock != null) ? clock.offsetMs() : Double.NaN;
			double uncertaintyMs = (clock != null) ? clock.uncertaintyMs() : Double.NaN;
			telemetry = this.startup.claimReady(server.name(), source, offsetMs, uncertaintyMs, readyNs);
			server.readySource = source;
			server.ready = true;
			if (timeline != null) {
				server.timeline = timeline;
			}
			if (address != null) {
				server.address = address;
			}
			if (++this.readyCount == this.servers.size()) {
				this.lock.notifyAll();
			}
			appliedNs = WallClock.nowNs();
			// a flat fleet's claim stays what it was: nothing waits
			released = this.schedule.any() ? release(this.schedule.ready(server.name())) : List.of();
		}
		spawn(released);
		tellTelemetry(() -> {
			telemetry.run();
			if (logger.isDebugEnabled()) {
				long toldNs = WallClock.nowNs();
				// when the run acted on it (its state; its wait woken if this was the last server), and when its span ended and metric was recorded
				logger.debug(String.format(Locale.ROOT, "Server '%s' is ready (%s); the run applied it at %d epoch ns, "
						+ "%.1f ms after its ready instant; its telemetry was told at %d epoch ns", server.name(), source,
						appliedNs, (appliedNs - readyNs) / 1e6, toldNs));
			}
		});
		return true;
	}

	/**
	 * Run a ready server's telemetry step on the run's telemetry thread, not on the thread that
	 * learnt it: that one is the probe loop's (every server's probes) or a callback handler, and
	 * the step (a span's end, a metric) takes milliseconds the first time. Here when that thread
	 * is gone; the startup ends any step not run yet itself before it closes.
	 */
	private void tellTelemetry(Runnable step) {
		try {
			this.telemetry.execute(step);
		}
		catch (RejectedExecutionException ex) {
			step.run();
		}
	}

	private void exited(FleetServer server, LaunchedServer.ServerExit exit) {
		if (server.plan.oneShot()) {
			// its span ends now: what its launcher knows of it and what it is, whatever got there first
			Map<String, Object> attributes = new HashMap<>(ONE_SHOT);
			Map<String, Object> launcher = server.process.attributes();
			if (launcher != null) {
				attributes.putAll(launcher);
			}
			this.startup.serverAttributes(server.name(), attributes);
		}
		// a one-shot job's exit 0 is its ready: claimed before its exit code counts against it
		boolean completed = server.plan.oneShot() && exit.code() == 0
				&& ready(server, ReadinessCallback.SOURCE_EXIT, WallClock.nowNs(), null, null);
		synchronized (this.lock) {
			server.exitCode = exit.code();
			server.exitReason = exit.reason();
			String name = server.name();
			if (this.state == State.STARTING && !server.ready) {
				fail(new FleetStartupException(StartupOutcome.CRASHED,
						"Server '" + name + "' " + exit.reason() + " before it was "
								+ (server.plan.oneShot() ? "done (a one-shot job must exit 0)" : "ready")
								+ "; last lines of " + server.process.log() + ":\n"
								+ lastLines(server, LOG_TAIL_LINES),
						this.processes.runDir()));
			}
			else if (!this.processesStopped && !completed && !(server.plan.oneShot() && exit.code() == 0)) {
				logger.warn("Server '" + name + "' " + exit.reason() + "; log "
						+ server.process.log());
			}
		}
		if (server.plan.oneShot()) {
			server.settled.countDown();
		}
	}

	/** Record the startup's failure, unless it already failed or was stopped. */
	private void fail(FleetStartupException failure) {
		synchronized (this.lock) {
			if (starting()) {
				this.failure = failure;
				this.lock.notifyAll();
			}
		}
	}

	private void awaitVerdict() throws InterruptedException {
		long start = System.nanoTime();
		long deadline = start + this.properties.getReadyTimeout().toNanos();
		long nextProgress = start + PROGRESS_INTERVAL_NS;
		synchronized (this.lock) {
			while (this.failure == null && !this.stopRequested && !allReady()) {
				long now = System.nanoTime();
				if (now - deadline >= 0) {
					this.failure = new FleetStartupException(StartupOutcome.TIMEOUT, "Not ready after "
							+ this.properties.getReadyTimeout().toMillis() + " ms: " + describe(pending()),
							this.processes.runDir());
					break;
				}
				if (now - nextProgress >= 0) {
					logger.info(progress(now - start));
					nextProgress = now + PROGRESS_INTERVAL_NS;
				}
				TimeUnit.NANOSECONDS.timedWait(this.lock, Math.max(1, Math.min(deadline, nextProgress) - now));
			}
		}
	}

	private boolean conclude() {
		FleetStartupException error;
		synchronized (this.lock) {
			if (this.failure == null && this.stopRequested) {
				this.failure = new FleetStartupException(StartupOutcome.INTERRUPTED,
						"The supervisor was stopped before all servers were ready: " + describe(pending()),
						this.processes.runDir());
			}
			error = this.failure;
			this.state = (error == null) ? State.READY : State.FAILED;
			this.lock.notifyAll();
		}
		stopCallback();
		blocked().forEach((server) -> this.startup.serverAttributes(server.name(),
				Map.of(SpanAttributes.DEPENDENCY_BLOCKED_BY, server.blockedBy)));
		if (error != null) {
			notReady(error);
		}
		if (error == null) {
			this.startup.finish();
		}
		else {
			this.startup.abort(error.outcome(), error);
		}
		// every server's span has ended by now (the startup's close ends any left): the thread may go
		this.telemetry.shutdown();
		awaitTimelines();
		this.report.print(this.startup.report(), serversNow(), this.processes.runDir());
		if (error == null) {
			return true;
		}
		stopProcesses();
		if (StartupOutcome.INTERRUPTED.equals(error.outcome())) {
			return false;
		}
		throw error;
	}

	/**
	 * Each spawned server that is not ready says why on its own span, in its own words: how it
	 * exited, or that it was still starting, and its last lines, bounded; the failure itself is
	 * said once, on the root. A server never spawned has its dependency's instead.
	 */
	private void notReady(FleetStartupException error) {
		for (FleetServer server : serversNow()) {
			if (server.process != null && !server.ready) {
				this.startup.serverNotReady(server.name(), notReadyReason(server, error.outcome()));
			}
		}
	}

	private String notReadyReason(FleetServer server, String outcome) {
		String why;
		if (server.exitCode != null) {
			why = server.exitReason + " before it was ready";
		}
		else if (StartupOutcome.TIMEOUT.equals(outcome)) {
			why = "not ready after " + this.properties.getReadyTimeout().toMillis() + " ms";
		}
		else if (StartupOutcome.INTERRUPTED.equals(outcome)) {
			why = "not ready when the supervisor was stopped";
		}
		else {
			why = "still starting when the startup failed (" + outcome + ")";
		}
		String tail = lastLines(server, REASON_TAIL_LINES);
		return why + (tail.isEmpty() ? "; nothing in its log, " + server.process.log()
				: "; last lines of " + server.process.log() + ":\n" + tail);
	}

	/** The last lines of a server's output, each bounded: a server may log a line of any length. */
	private static String lastLines(FleetServer server, int lines) {
		return BoundedText.lastLines(server.process.logTail(lines), lines, LOG_LINE_MAX_CHARS);
	}

	/**
	 * The servers never spawned, each told which dependency it was still waiting for: the
	 * startup ended first. Once the verdict is in.
	 */
	private List<FleetServer> blocked() {
		synchronized (this.lock) {
			List<FleetServer> blocked = new ArrayList<>();
			for (FleetServer server : this.servers) {
				DependencyScheduler.Blocked by = (this.schedule != null) ? this.schedule.blockedBy(server.name()) : null;
				if (by != null && server.process == null) {
					server.blockedBy = by.server();
					blocked.add(server);
				}
			}
			return blocked;
		}
	}

	/** Whether the startup printed last regressed against the baseline (never without one). */
	boolean regressed() {
		return this.report.comparison().map(ReportComparison::regressed).orElse(false);
	}

	/**
	 * Give the ready servers' timeline fetches a moment to finish, for the report. A one-shot job
	 * has none (its timeline comes with its callback, before it exits): one still running when
	 * the startup failed is not waited for, but reported and stopped at once.
	 */
	private void awaitTimelines() {
		long deadline = System.nanoTime() + 2 * this.properties.getProbe().getTimeout().toNanos()
				+ this.properties.getProbe().getMaxInterval().toNanos();
		try {
			for (FleetServer server : serversNow()) {
				if (server.process != null && !server.plan.oneShot()) {
					server.settled.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void stopCallback() {
		ReadinessCallbackServer callback = this.callback;
		if (callback != null) {
			callback.stop();
		}
	}

	private void stopProcesses() {
		List<FleetServer> started = new ArrayList<>();
		synchronized (this.lock) {
			if (this.processesStopped) {
				return;
			}
			// no released server starts from now on; one being spawned is waited for, and stopped with the rest
			this.processesStopped = true;
			long deadline = System.nanoTime() + this.properties.getStopTimeout().toNanos();
			try {
				while (this.spawning > 0 && deadline - System.nanoTime() > 0) {
					TimeUnit.NANOSECONDS.timedWait(this.lock, deadline - System.nanoTime());
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.servers.stream().filter((server) -> server.process != null).forEach(started::add);
		}
		this.processes.stop(started);
	}

	private @Nullable FleetServer named(String name) {
		return this.byName.get(name);
	}

	private List<FleetServer> serversNow() {
		synchronized (this.lock) {
			return List.copyOf(this.servers);
		}
	}

	private boolean allReady() {
		return this.readyCount == this.servers.size();
	}

	private List<FleetServer> pending() {
		return this.servers.stream().filter((server) -> !server.ready).toList();
	}

	/**
	 * Counts and the first few names, in one pass: a line a second whatever the fleet's size.
	 * Concatenated, with {@link Decimals}: no {@code Formatter} for a line a second while servers start.
	 */
	private String progress(long elapsedNs) {
		List<String> starting = new ArrayList<>();
		List<String> unspawned = new ArrayList<>();
		int startingCount = 0;
		int unspawnedCount = 0;
		for (FleetServer server : this.servers) {
			if (server.ready) {
				continue;
			}
			boolean waiting = server.process == null && this.schedule.isWaiting(server.name());
			if (waiting && unspawnedCount++ < PROGRESS_NAMES) {
				unspawned.add(server.name());
			}
			else if (!waiting && startingCount++ < PROGRESS_NAMES) {
				starting.add(server.name());
			}
		}
		return this.readyCount + "/" + this.servers.size() + " ready"
				+ ((startingCount == 0) ? "" : ", waiting for " + named(starting, startingCount))
				+ ((unspawnedCount == 0) ? "" : "; not spawned yet: " + named(unspawned, unspawnedCount)) + " ("
				+ Decimals.fixed(elapsedNs / 1e9, 1) + " s)";
	}

	/** {@code names} (the first of {@code count}), and how many more. */
	private static String named(List<String> names, int count) {
		return String.join(", ", names) + ((count > names.size()) ? " and " + (count - names.size()) + " more" : "");
	}

	/**
	 * The first {@value #NAMED_SERVERS} servers with their logs (or what they wait for), and how
	 * many more: a failure's message stays a few lines whatever the fleet's size. Under the lock.
	 */
	private String describe(List<FleetServer> servers) {
		List<String> described = new ArrayList<>();
		for (FleetServer server : servers.subList(0, Math.min(servers.size(), NAMED_SERVERS))) {
			DependencyScheduler.Blocked blocked = (server.process == null && this.schedule != null)
					? this.schedule.blockedBy(server.name()) : null;
			String waiting = (server.process != null) ? server.process.waitingOn() : null;
			described.add(server.name() + ((server.process != null)
					? " (" + ((waiting != null) ? waiting + "; " : "") + "log " + server.process.log() + ")"
					: (blocked != null) ? " (not spawned: waiting for " + blocked.server() + ")" : ""));
		}
		return (servers.size() <= NAMED_SERVERS) ? String.join(", ", described)
				: servers.size() + " servers: " + String.join(", ", described) + " and " + (servers.size() - NAMED_SERVERS)
						+ " more (each one's span and the report name them all)";
	}

	private enum State {

		NEW, STARTING, READY, FAILED

	}

}
