package io.github.startuptelemetry.fleet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;

import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.lifecycle.internal.ServerEnvBuilder;
import io.github.startuptelemetry.internal.DaemonThreads;
import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.launch.ServerLauncher;
import io.github.startuptelemetry.supervisor.SupervisorStartup;

/**
 * The processes of a fleet's run: its run directory with each server's log, the spawner threads
 * that start the servers with their environment, and stopping every process the run started.
 */
final class FleetProcesses {

	/** The run's own log: these lines are part of its story. */
	private static final Log logger = FleetLog.get();

	/** Spawning is mostly the kernel's work: a few at a time keep the cores busy while each waits for its exec. */
	private static final int SPAWNERS = 4;

	/** How many servers the spawn line names; debug logs each. */
	static final int LISTED = 10;

	private final SupervisorProperties properties;

	private static final Duration KILL_WAIT = Duration.ofSeconds(5);

	private final SupervisorStartup startup;

	private final Launchers launchers;

	private final LaunchCommands commands;

	private volatile ExecutorService spawners;

	private volatile Path runDir;

	FleetProcesses(SupervisorProperties properties, SupervisorStartup startup, Launchers launchers) {
		this(properties, startup, launchers, LaunchCommands.AS_PLANNED);
	}

	/** @param commands each server's command as launched (with its JVM cache, say) */
	FleetProcesses(SupervisorProperties properties, SupervisorStartup startup, Launchers launchers,
			LaunchCommands commands) {
		this.properties = properties;
		this.startup = startup;
		this.launchers = launchers;
		this.commands = commands;
	}

	/** Where the servers' logs go: {@code telemetry.supervisor.run-dir}, or a new temporary directory. */
	Path createRunDir() throws IOException {
		this.runDir = (this.properties.getRunDir() != null) ? Files.createDirectories(this.properties.getRunDir())
				: Files.createTempDirectory("startup-telemetry-run-");
		return this.runDir;
	}

	/** The run directory, or {@code null} before it was created. */
	Path runDir() {
		return this.runDir;
	}

	/**
	 * Supervise every server that waits for nothing on the spawner threads, and wait until
	 * each is spawned (or could not be); the others wait for their dependencies
	 * ({@link #spawnLater}).
	 * @param servers the servers to spawn now
	 * @param waiting the servers spawned later, once their dependencies are met
	 * @param supervise spawns one server, counts the latch down once it is spawned, then watches it
	 */
	void spawnAll(List<FleetServer> servers, List<FleetServer> waiting, SpawnTask supervise)
			throws InterruptedException {
		long start = System.nanoTime();
		this.spawners = Executors.newFixedThreadPool(Math.max(1, Math.min(SPAWNERS, servers.size() + waiting.size())),
				DaemonThreads.named("fleet-spawn"));
		CountDownLatch spawned = new CountDownLatch(servers.size());
		for (FleetServer server : servers) {
			this.spawners.execute(() -> supervise.run(server, spawned));
		}
		spawned.await();
		String line = spawnedLine(servers, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
		logger.info(waiting.isEmpty() ? line : line + "; " + waiting.size() + " wait for their dependencies: "
				+ String.join(", ", waiting.stream().limit(LISTED).map(FleetServer::name).toList())
				+ ((waiting.size() > LISTED) ? " and " + (waiting.size() - LISTED) + " more" : ""));
	}

	/**
	 * Supervise a server whose dependencies were met, on a spawner thread, without waiting.
	 * @return false when the spawners are gone (the run is over): it will not be spawned
	 */
	boolean spawnLater(FleetServer server, SpawnTask supervise) {
		try {
			this.spawners.execute(() -> supervise.run(server, new CountDownLatch(1)));
			return true;
		}
		catch (RejectedExecutionException ex) {
			return false;
		}
	}

	/**
	 * One line for the whole fleet, naming the first {@value #LISTED} servers: a line per server
	 * (now at debug) cost a hundred-server fleet 0.4 ms of CPU per server, two thirds of what
	 * spawning the server cost.
	 */
	static String spawnedLine(List<FleetServer> servers, long elapsedMs) {
		List<FleetServer> started = servers.stream().filter((server) -> server.process != null).toList();
		StringBuilder line = new StringBuilder("Spawned ").append(started.size());
		if (started.size() < servers.size()) {
			line.append(" of ").append(servers.size());
		}
		line.append(" server(s) in ").append(elapsedMs).append(" ms");
		for (int i = 0; i < Math.min(LISTED, started.size()); i++) {
			FleetServer server = started.get(i);
			line.append((i == 0) ? ": " : ", ").append(server.name()).append(" (").append(describe(server)).append(')');
		}
		if (started.size() > LISTED) {
			line.append(" and ").append(started.size() - LISTED).append(" more");
		}
		return line.toString();
	}

	private static String describe(FleetServer server) {
		return server.process.describe() + ", port " + server.plan.port();
	}

	/**
	 * Start one server with its launcher and its environment, its output going to its log file.
	 * @param runEnv what every server of the run gets (the callback's URL and token: secrets)
	 */
	void start(FleetServer server, Map<String, String> runEnv) throws IOException {
		ServerPlan plan = server.plan;
		// told the path it will be probed at, to warm it up before it reports ready
		Map<String, String> env = ServerEnvBuilder.ofThisProcess()
			.set(this.startup.serverEnv(plan.name(), plan.type(), plan.rank(), plan.worldSize()))
			.setting(TelemetryEnv.TELEMETRY_STARTUP_WARMUP_PATH, plan.warmUpPath())
			.set(runEnv)
			.set(plan.env())
			.toMap();
		Path log = this.runDir.resolve(logFileName(plan.name()));
		LaunchRequest request = new LaunchRequest(plan.name(), plan.type(), plan.rank(), plan.worldSize(),
				this.commands.command(plan, log), plan.setup(), plan.workingDir(), env, log);
		server.process = this.launchers.get(plan.launcher()).launch(request);
		if (logger.isDebugEnabled()) {
			logger.debug("Spawned " + plan.name() + " (" + describe(server) + "), log " + server.process.log());
		}
	}

	/**
	 * Stop these servers, all in one grace period: each launcher asked to terminate its own at
	 * once (SIGTERM, scancel), then wait up to the stop timeout, then kill what still runs.
	 */
	void stop(List<FleetServer> servers) {
		Map<ServerLauncher, List<LaunchedServer>> byLauncher = new LinkedHashMap<>();
		for (FleetServer server : servers) {
			byLauncher.computeIfAbsent(this.launchers.get(server.plan.launcher()), (launcher) -> new ArrayList<>())
				.add(server.process);
		}
		if (byLauncher.isEmpty()) {
			return;
		}
		logger.info("Stopping " + servers.size() + " server(s)");
		byLauncher.forEach(ServerLauncher::terminate);
		long deadline = System.nanoTime() + this.properties.getStopTimeout().toNanos();
		Map<ServerLauncher, List<LaunchedServer>> left = new LinkedHashMap<>();
		byLauncher.forEach((launcher, started) -> {
			List<LaunchedServer> running = awaitStopped(started, deadline);
			if (!running.isEmpty()) {
				left.put(launcher, running);
			}
		});
		List<String> killed = new ArrayList<>();
		left.forEach((launcher, running) -> killed.addAll(launcher.kill(running)));
		long killDeadline = System.nanoTime() + KILL_WAIT.toNanos();
		left.values().forEach((running) -> awaitStopped(running, killDeadline));
		if (!killed.isEmpty()) {
			logger.warn(killed.size() + " process(es) still running " + this.properties.getStopTimeout().toMillis()
					+ " ms after SIGTERM (telemetry.supervisor.stop-timeout) were killed: " + String.join(", ", killed));
		}
	}

	/** Wait until all have stopped or the {@code deadline} ({@link System#nanoTime()}) passed; those still running. */
	private static List<LaunchedServer> awaitStopped(List<LaunchedServer> servers, long deadline) {
		List<LaunchedServer> left = new ArrayList<>();
		for (LaunchedServer server : servers) {
			try {
				server.stopped().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (TimeoutException | ExecutionException ex) {
				left.add(server);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				left.add(server);
			}
		}
		return left;
	}

	void shutdown() {
		if (this.spawners != null) {
			this.spawners.shutdownNow();
		}
	}

	/** Names are safe as file names: {@link SupervisorProperties} accepts no other. */
	private static String logFileName(String name) {
		return name + ".log";
	}

	/** The command a server is launched with: as planned, or changed (its JVM cache added). */
	@FunctionalInterface
	interface LaunchCommands {

		LaunchCommands AS_PLANNED = (plan, log) -> plan.command();

		/**
		 * @param plan the server
		 * @param log its log file
		 * @return the command to launch it with
		 */
		List<String> command(ServerPlan plan, Path log);

	}

	/** What a spawner thread does for one server. */
	@FunctionalInterface
	interface SpawnTask {

		void run(FleetServer server, CountDownLatch spawned);

	}

}
