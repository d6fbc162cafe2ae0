package io.github.startuptelemetry.fleet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.fleet.SupervisorProperties.JvmCacheMode;
import io.github.startuptelemetry.jvmcache.internal.JvmCaches;
import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.report.JvmCacheComparison;
import io.github.startuptelemetry.report.JvmCacheReport;
import io.github.startuptelemetry.report.JvmCacheRounds;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.supervisor.ChildTelemetryEnvironment;
import io.github.startuptelemetry.supervisor.SupervisorStartup;
import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * The fleet's side of the JVM startup caches ({@code telemetry.supervisor.jvm-cache}), around a
 * {@link FleetRun}: each server's cache looked up and trained before the startup, in
 * {@code compare} mode the fleet's rounds without and with them, then the startup with each
 * server's cache. The caches themselves are {@link JvmCaches}'.
 */
final class FleetJvmCache {

	/** The run's own log: training and comparing are part of its story. */
	private static final Log logger = LogFactory.getLog(FleetRun.class);

	/** How the local launcher describes a server: its process id. */
	private static final Pattern PID = Pattern.compile("pid (\\d+)");

	private final SupervisorProperties properties;

	private final Launchers launchers;

	private final IntSupplier ports;

	private final @Nullable String runId;

	private final @Nullable ChildTelemetryEnvironment childEnvironment;

	private final JvmCaches caches;

	/** Each server's mode (a replica's is its server's), in plan order. */
	private final Map<String, JvmCacheMode> modes;

	private volatile @Nullable JvmCacheComparison comparison;

	private volatile @Nullable FleetRun round;

	private volatile boolean stopped;

	private FleetJvmCache(SupervisorProperties properties, Map<String, JvmCacheMode> modes, Launchers launchers,
			IntSupplier ports, @Nullable String runId, @Nullable ChildTelemetryEnvironment childEnvironment) {
		this.properties = properties;
		this.modes = modes;
		this.launchers = launchers;
		this.ports = ports;
		this.runId = runId;
		this.childEnvironment = childEnvironment;
		SupervisorProperties.JvmCache settings = properties.getJvmCache();
		this.caches = new JvmCaches(new JvmCaches.Settings(settings.getMode().name().toLowerCase(Locale.ROOT),
				directory(settings), settings.getMaxSize().toBytes(), settings.getTrainingTimeout()));
	}

	/**
	 * The fleet's JVM caches, or {@code null} when neither the fleet nor any server turns them on.
	 * @param properties the fleet
	 * @param launchers what starts the servers of the compare rounds
	 * @param ports free ports, shared with the startup: a port is never handed out twice
	 * @param runId the run's id, or {@code null}
	 * @param childEnvironment the settings every server inherits (the rounds' servers too), or {@code null}
	 */
	static @Nullable FleetJvmCache of(SupervisorProperties properties, Launchers launchers, IntSupplier ports,
			@Nullable String runId, @Nullable ChildTelemetryEnvironment childEnvironment) {
		JvmCacheMode fleet = properties.getJvmCache().getMode();
		Map<String, JvmCacheMode> modes = new LinkedHashMap<>();
		for (SupervisorProperties.Server server : properties.fleetServers()) {
			JvmCacheMode own = server.getJvmCache().getMode();
			FleetPlan.replicaNames(server).forEach((name) -> modes.put(name, (own != null) ? own : fleet));
		}
		return modes.values().stream().anyMatch((mode) -> mode != JvmCacheMode.OFF)
				? new FleetJvmCache(properties, modes, launchers, ports, runId, childEnvironment) : null;
	}

	/** {@code jvm-cache.directory}, or {@code $XDG_CACHE_HOME} (else {@code ~/.cache}) {@code /startup-telemetry/jvm-cache}. */
	static Path directory(SupervisorProperties.JvmCache settings) {
		if (settings.getDirectory() != null) {
			return settings.getDirectory();
		}
		String xdg = System.getenv("XDG_CACHE_HOME");
		Path base = (xdg != null && !xdg.isBlank()) ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
		return base.resolve("startup-telemetry").resolve("jvm-cache");
	}

	/** Each server's command as launched at the startup, or in a round: with its cache, or without. */
	FleetProcesses.LaunchCommands commands(boolean withCache) {
		return (plan, log) -> this.caches.apply(plan.name(), plan.command(), log, withCache);
	}

	/**
	 * Before the startup: look every server's cache up, train what the modes allow, and in
	 * {@code compare} mode run the rounds. Each phase that ran is a supervisor stage of its
	 * own, so that the servers' spawn→ready never includes it.
	 */
	void beforeStartup(SupervisorStartup startup) {
		try {
			prepare(startup);
		}
		catch (RuntimeException ex) {
			// the caches never fail a startup: the fleet starts as it would without them
			logger.warn("JVM caches: " + ex + "; servers without a cache start as their commands say", ex);
		}
	}

	private void prepare(SupervisorStartup startup) {
		List<JvmCaches.Server> servers = new ArrayList<>();
		for (ServerPlan plan : FleetPlan.plan(this.properties, this.ports)) {
			JvmCacheMode mode = this.modes.getOrDefault(plan.name(), JvmCacheMode.OFF);
			servers.add(new JvmCaches.Server(plan.name(), plan.command(), plan.workingDir(), plan.env(),
					mode != JvmCacheMode.OFF, mode == JvmCacheMode.TRAIN || mode == JvmCacheMode.COMPARE));
		}
		if (!this.caches.prepare(servers).isEmpty()) {
			startup.mark(StageNames.JVM_CACHE_TRAINING);
		}
		if (!this.stopped && this.modes.containsValue(JvmCacheMode.COMPARE)) {
			this.comparison = compare();
			startup.mark(StageNames.JVM_CACHE_COMPARE);
		}
	}

	/**
	 * Start the fleet {@code rounds} times without and with its caches, the order alternating
	 * (round 1 without first), each start stopped once all its servers are ready.
	 */
	private JvmCacheComparison compare() {
		int rounds = this.properties.getJvmCache().getRounds();
		long start = System.nanoTime();
		sharedRunDir();
		List<JvmCacheRounds.Round> done = new ArrayList<>();
		for (int number = 1; number <= rounds && !this.stopped; number++) {
			boolean withFirst = number % 2 == 0;
			StartupReport first = roundStart(number, rounds, withFirst);
			StartupReport second = this.stopped ? null : roundStart(number, rounds, !withFirst);
			if (first != null && second != null) {
				done.add(new JvmCacheRounds.Round(number, withFirst, withFirst ? second : first,
						withFirst ? first : second));
			}
		}
		JvmCacheComparison comparison = JvmCacheRounds.compare(done, rounds, List.copyOf(this.modes.keySet()));
		logger.info("JVM cache compare: " + comparison.roundsText() + " in "
				+ Durations.format(System.nanoTime() - start) + (this.stopped ? " (stopped)" : "")
				+ "; the startup now starts the fleet with its caches");
		return comparison;
	}

	/** One start of a round: the fleet with or without its caches, until all are ready, then stopped. */
	private @Nullable StartupReport roundStart(int number, int rounds, boolean withCache) {
		String what = "round " + number + " of " + rounds + ", the fleet " + (withCache ? "with" : "without")
				+ " its caches";
		logger.info("JVM cache compare, " + what);
		FleetReport report = FleetReport.quiet(this.runId, this::report);
		FleetRun run = new FleetRun(this.properties, new RoundStartup(this.childEnvironment), this.launchers,
				this.ports, commands(withCache), report);
		this.round = run;
		try {
			if (this.stopped) {
				return null;
			}
			run.launch();
		}
		catch (FleetStartupException ex) {
			logger.warn("JVM cache compare, " + what + ": the fleet did not become ready (" + ex.outcome()
					+ "); the round is left out: " + ex.getMessage());
			return null;
		}
		finally {
			run.stop();
			this.round = null;
		}
		StartupReport started = report.last().orElse(null);
		if (started != null && started.ready()) {
			logger.info("JVM cache compare, " + what + ": spawn→ready " + spawnToReady(started.servers()));
		}
		return (started != null && started.ready() && !this.stopped) ? started : null;
	}

	/**
	 * The rounds and the startup write their servers' logs to one run directory: the
	 * configured one, or one temporary directory for all of them (each start would otherwise
	 * make its own).
	 */
	private void sharedRunDir() {
		if (this.properties.getRunDir() == null) {
			try {
				this.properties.setRunDir(Files.createTempDirectory("startup-telemetry-run-"));
			}
			catch (IOException ex) {
				// each start makes its own then
			}
		}
	}

	/** What the JVM caches did for the servers of the start that ended last, for its report. */
	JvmCacheReport report(List<FleetServer> servers) {
		List<JvmCacheReport.ServerCache> rows = new ArrayList<>();
		for (FleetServer server : servers) {
			// what its command got is remembered from its last apply: a server not launched now
			// (never released, its launch failed) may have one from a compare round
			rows.add((server.process != null) ? this.caches.observe(server.name(), pid(server), local(server))
					: this.caches.notStarted(server.name()));
		}
		return this.caches.report(rows).withComparison(this.comparison);
	}

	/** After the startup: with telemetry off there was no report to carry the comparison, so it is logged. */
	void afterStartup(SupervisorStartup startup) {
		JvmCacheComparison comparison = this.comparison;
		if (comparison != null && startup.report().isEmpty()) {
			logger.info(comparison.text());
		}
	}

	/** The server's JVM: as the server said in its timeline, else as its (local) launcher does. */
	private static long pid(FleetServer server) {
		ServerTimeline timeline = server.timeline;
		if (timeline != null && timeline.pid() > 0) {
			return timeline.pid();
		}
		LaunchedServer process = server.process;
		Matcher pid = (process != null) ? PID.matcher(process.describe()) : null;
		return (pid != null && pid.matches()) ? Long.parseLong(pid.group(1)) : -1;
	}

	/** Whether it runs on this host, where its JVM's counters can be read. */
	private static boolean local(FleetServer server) {
		LaunchedServer process = server.process;
		String host = (process != null) ? process.host().getNow(null) : null;
		return "127.0.0.1".equals(host) || "localhost".equals(host) || "::1".equals(host) || "[::1]".equals(host);
	}

	/** Stop training or comparing: the supervisor is stopping. */
	void stop() {
		this.stopped = true;
		this.caches.stop();
		FleetRun current = this.round;
		if (current != null) {
			current.stop();
		}
	}

	/** The spawn→ready of a report's servers, for a log line. */
	private static String spawnToReady(List<ServerReport> servers) {
		return servers.stream()
			.map((server) -> server.name() + " " + Durations.format(server.spawnToEndNs()))
			.collect(Collectors.joining(", "));
	}

}
