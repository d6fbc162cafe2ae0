package io.github.startuptelemetry.supervisor;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.startuptelemetry.report.ConsoleReport;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.report.StartupReportBuilder;
import io.github.startuptelemetry.support.DaemonThreads;
import io.github.startuptelemetry.timeline.StageNames;
import io.github.startuptelemetry.timeline.StartupOutcome;

/**
 * One startup of the fleet: spawn every server at once, probe each until it is ready, and end
 * the startup, finished or aborted (timeout, a crash, the supervisor stopped), with a report.
 * When the startup fails, and whenever the run is stopped, every process it started is stopped
 * too.
 * <p>
 * The thread that calls {@link #launch()} waits for the verdict. A few spawner threads start
 * the servers; one scheduler thread (beside the HTTP client's selector) probes all of them and
 * fetches their timelines, so a hundred servers cost no hundred threads; process exits and
 * {@link #stop()} arrive on threads of their own. One lock guards the verdict, so the first
 * failure is the one reported.
 */
final class FleetRun {

	private static final Log logger = LogFactory.getLog(FleetRun.class);

	private static final long PROGRESS_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

	private static final int LOG_TAIL_LINES = 15;

	/** Spawning is mostly the kernel's work: a few at a time keep the cores busy while each waits for its exec. */
	private static final int SPAWNERS = 4;

	/**
	 * {@code telemetry.startup.warm-up.path}: each server is told which path will be probed, so
	 * that it warms it up before it reports ready (unless the supervisor's own env says otherwise).
	 */
	static final String WARM_UP_PATH_ENV = "TELEMETRY_STARTUP_WARMUP_PATH";

	private final SupervisorProperties properties;

	private final SupervisorStartup startup;

	private final IntSupplier ports;


	private final HtmlReportFile htmlReport;

	private final Object lock = new Object();

	private final CountDownLatch concluded = new CountDownLatch(1);

	private final List<Server> servers = new ArrayList<>();

	private State state = State.NEW;

	private boolean stopRequested;

	private boolean processesStopped;

	private FleetStartupException failure;

	private volatile ExecutorService spawners;

	private volatile ScheduledExecutorService scheduler;

	private volatile Path runDir;

	/**
	 * @param properties the fleet
	 * @param startup the startup's telemetry
	 * @param ports free ports for {@code {port}}
	 */
	FleetRun(SupervisorProperties properties, SupervisorStartup startup, IntSupplier ports) {
		this.properties = properties;
		this.startup = startup;
		this.ports = ports;
		this.htmlReport = new HtmlReportFile(properties.getReport().getHtml());
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
				fail(new FleetStartupException(StartupOutcome.ERROR, "Fleet launch failed: " + ex, this.runDir));
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
		if (this.spawners != null) {
			this.spawners.shutdownNow();
		}
		if (this.scheduler != null) {
			this.scheduler.shutdownNow();
		}
	}

	private boolean stopRequested() {
		synchronized (this.lock) {
			this.stopRequested = true;
			this.lock.notifyAll();
			return this.state == State.STARTING;
		}
	}

	private void spawnAll() throws IOException, InterruptedException {
		this.runDir = (this.properties.getRunDir() != null)
				? Files.createDirectories(this.properties.getRunDir())
				: Files.createTempDirectory("startup-telemetry-run-");
		List<ServerPlan> plan = FleetPlan.plan(this.properties, this.ports);
		logger.info("Starting " + plan.size() + " server(s); their logs go to " + this.runDir);
		this.startup.beginTrace();
		this.scheduler = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("fleet-probe"));
		// the client's completions run on the probe thread too: every callback is short, no hand-off
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(this.properties.getProbe().getTimeout())
			.executor(this.scheduler)
			.build();
		this.spawners = Executors.newFixedThreadPool(Math.max(1, Math.min(SPAWNERS, plan.size())),
				DaemonThreads.named("fleet-spawn"));
		HealthProbe probe = new HealthProbe(http, this.scheduler, this.properties.getProbe());
		TimelineClient timelines = new TimelineClient(http, this.scheduler, this.properties.getProbe());
		CountDownLatch spawned = new CountDownLatch(plan.size());
		synchronized (this.lock) {
			plan.forEach((server) -> this.servers.add(new Server(server)));
		}
		for (Server server : List.copyOf(this.servers)) {
			this.spawners.execute(() -> supervise(server, spawned, probe, timelines));
		}
		spawned.await();
		this.startup.mark(StageNames.SPAWN_SERVERS);
	}

	/** Spawn one server, then probe it until it is ready and fetch its timeline for the report. */
	private void supervise(Server server, CountDownLatch spawned, HealthProbe probe, TimelineClient timelines) {
		ServerPlan plan = server.plan;
		try {
			try {
				Map<String, String> env = this.startup.serverEnv(plan.name(), plan.type(), plan.rank(),
						plan.worldSize());
				if (System.getenv(WARM_UP_PATH_ENV) == null) {
					env.put(WARM_UP_PATH_ENV, plan.warmUpPath());
				}
				env.putAll(plan.env());
				server.process = ServerProcess.start(plan, env, this.runDir.resolve(logFileName(plan.name())));
				logger.info("Spawned " + plan.name() + " (pid " + server.process.pid() + ", port " + plan.port()
						+ "), log " + server.process.log());
			}
			finally {
				spawned.countDown();
			}
			server.process.process().onExit().thenRun(() -> exited(server));
		}
		catch (IOException | RuntimeException ex) {
			fail(new FleetStartupException(StartupOutcome.ERROR,
					"Server '" + plan.name() + "' could not be spawned: " + ex.getMessage(), this.runDir));
			server.settled.countDown();
			return;
		}
		probe.awaitHealthy(plan.healthUri(), () -> probing(server))
			.thenCompose((healthy) -> (healthy && ready(server)) ? timelines.fetch(plan.timelineUri())
					: CompletableFuture.completedFuture(Optional.<TimelineClient.Timeline>empty()))
			.whenComplete((timeline, error) -> {
				if (error != null) {
					fail(new FleetStartupException(StartupOutcome.ERROR,
							"Server '" + plan.name() + "' could not be probed: " + error, this.runDir));
				}
				else {
					server.timeline = timeline.orElse(null);
				}
				server.settled.countDown();
			});
	}

	private boolean probing(Server server) {
		synchronized (this.lock) {
			return this.state == State.STARTING && this.failure == null && !this.stopRequested
					&& server.exitCode == null;
		}
	}

	private boolean ready(Server server) {
		synchronized (this.lock) {
			if (!probing(server)) {
				return false;
			}
			this.startup.serverReady(server.plan.name());
			server.ready = true;
			this.lock.notifyAll();
			return true;
		}
	}

	private void exited(Server server) {
		synchronized (this.lock) {
			server.exitCode = server.process.process().exitValue();
			String name = server.plan.name();
			if (this.state == State.STARTING && !server.ready) {
				fail(new FleetStartupException(StartupOutcome.CRASHED,
						"Server '" + name + "' exited with code " + server.exitCode + " before it was ready; last lines of "
								+ server.process.log() + ":\n" + server.process.logTail(LOG_TAIL_LINES),
						this.runDir));
			}
			else if (!this.processesStopped) {
				logger.warn("Server '" + name + "' exited with code " + server.exitCode + "; log "
						+ server.process.log());
			}
		}
	}

	/** Record the startup's failure, unless it already failed or was stopped. */
	private void fail(FleetStartupException failure) {
		synchronized (this.lock) {
			if (this.failure == null && !this.stopRequested && this.state == State.STARTING) {
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
							+ this.properties.getReadyTimeout().toMillis() + " ms: " + describe(pending()), this.runDir);
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
						"The supervisor was stopped before all servers were ready: " + describe(pending()), this.runDir);
			}
			error = this.failure;
			this.state = (error == null) ? State.READY : State.FAILED;
			this.lock.notifyAll();
		}
		if (error == null) {
			this.startup.finish();
		}
		else {
			this.startup.abort(error.outcome(), error);
		}
		awaitTimelines();
		printReport();
		if (error == null) {
			return true;
		}
		stopProcesses();
		if (StartupOutcome.INTERRUPTED.equals(error.outcome())) {
			return false;
		}
		throw error;
	}

	/** Give the ready servers' timeline fetches a moment to finish, for the report. */
	private void awaitTimelines() {
		long deadline = System.nanoTime() + 2 * this.properties.getProbe().getTimeout().toNanos()
				+ this.properties.getProbe().getMaxInterval().toNanos();
		try {
			for (Server server : serversNow()) {
				server.settled.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** The console table in the log and the HTML waterfall in its file, from one report. */
	private void printReport() {
		Optional<StartupReport> report = this.startup.report().map(this::withServerDetails);
		if (report.isPresent()) {
			String html = this.htmlReport.write(report.get()).map((file) -> "\nHTML waterfall: " + file).orElse("");
			logger.info("Startup report (server logs in " + this.runDir + "):\n" + ConsoleReport.render(report.get())
					+ html);
		}
		else {
			List<Server> servers = serversNow();
			logger.info(servers.stream().filter((server) -> server.ready).count() + "/" + servers.size()
					+ " server(s) ready (telemetry off: no report); server logs in " + this.runDir);
		}
	}

	/** The startup's report with what only the run knows: each server's own timeline, an early exit. */
	private StartupReport withServerDetails(StartupReport startup) {
		StartupReportBuilder report = StartupReportBuilder.from(startup);
		synchronized (this.lock) {
			for (Server server : this.servers) {
				TimelineClient.Timeline timeline = server.timeline;
				if (timeline != null) {
					report.timeline(server.plan.name(), timeline.stages(), timeline.readyEpochNs(), timeline.beans());
				}
				if (server.exitCode != null) {
					report.exited(server.plan.name(), server.exitCode);
				}
			}
		}
		return report.build();
	}

	private void stopProcesses() {
		List<ServerProcess> started = new ArrayList<>();
		synchronized (this.lock) {
			if (this.processesStopped) {
				return;
			}
			this.processesStopped = true;
			this.servers.stream().filter((server) -> server.process != null).forEach((s) -> started.add(s.process));
		}
		if (!started.isEmpty()) {
			logger.info("Stopping " + started.size() + " server(s)");
			List<ProcessHandle> killed = ServerProcess.stopAll(started, this.properties.getStopTimeout());
			if (!killed.isEmpty()) {
				logger.warn(killed.size() + " process(es) still running " + this.properties.getStopTimeout().toMillis()
						+ " ms after SIGTERM (telemetry.supervisor.stop-timeout) were killed: pids "
						+ killed.stream().map(ProcessHandle::pid).toList());
			}
		}
	}

	private List<Server> serversNow() {
		synchronized (this.lock) {
			return List.copyOf(this.servers);
		}
	}

	private boolean allReady() {
		return this.servers.stream().allMatch((server) -> server.ready);
	}

	private List<Server> pending() {
		return this.servers.stream().filter((server) -> !server.ready).toList();
	}

	private String progress(long elapsedNs) {
		long ready = this.servers.stream().filter((server) -> server.ready).count();
		return String.format(Locale.ROOT, "%d/%d ready, waiting for %s (%.1f s)", ready, this.servers.size(),
				String.join(", ", pending().stream().map((server) -> server.plan.name()).toList()),
				elapsedNs / 1e9);
	}

	private static String describe(List<Server> servers) {
		return String.join(", ", servers.stream()
			.map((server) -> server.plan.name() + ((server.process != null) ? " (log " + server.process.log() + ")" : ""))
			.toList());
	}

	/** Names are safe as file names: {@link SupervisorProperties} accepts no other. */
	private static String logFileName(String name) {
		return name + ".log";
	}

	private enum State {

		NEW, STARTING, READY, FAILED

	}

	/** One server of this run; its fields are guarded by the run's lock unless volatile. */
	private static final class Server {

		final ServerPlan plan;

		final CountDownLatch settled = new CountDownLatch(1);

		volatile ServerProcess process;

		volatile TimelineClient.Timeline timeline;

		boolean ready;

		Integer exitCode;

		Server(ServerPlan plan) {
			this.plan = plan;
		}

	}

}
