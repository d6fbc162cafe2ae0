package io.github.startuptelemetry.fleet;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;

/**
 * The fleet a supervisor spawns, probes and reports on ({@code telemetry.supervisor.*}),
 * validated when bound so that a bad fleet fails the supervisor at start naming the property the
 * user set. The placeholders its templates take and how {@code servers} and {@code fleet} bind
 * are in docs/fleets.md.
 */
@ConfigurationProperties(TelemetryProperties.SUPERVISOR)
public class SupervisorProperties implements Validator {

	/**
	 * The servers to spawn, all in parallel (a server with depends-on once its dependencies
	 * meet their conditions), each through the launch shell.
	 */
	private List<Server> servers = new ArrayList<>();

	/**
	 * More servers to spawn, keyed by name (the key is the server's name): unlike
	 * {@code servers}, each field of each entry can be set or overridden from any property
	 * source, e.g. {@code --telemetry.supervisor.fleet.model.replicas=1}.
	 */
	private Map<String, Server> fleet = new LinkedHashMap<>();

	/** Its rules, handed in by the auto-configuration that declares it. */
	private @Nullable Validator validator;

	/**
	 * How long the servers may take, together, from the first spawn until all are ready; after
	 * that the startup is aborted with outcome timeout.
	 */
	private Duration readyTimeout = Duration.ofMinutes(10);

	/**
	 * How long a server (and whatever it started) may take to exit after SIGTERM before it is
	 * killed, when the supervisor stops it.
	 */
	private Duration stopTimeout = Duration.ofSeconds(10);

	/**
	 * The launcher that starts each server, by name: "local" (a process of this host) or
	 * "slurm" (a job step of the allocation the supervisor runs in), or the name of a
	 * ServerLauncher bean of your own.
	 */
	private String launcher = "local";

	/** Directory for this run's server logs, one file per server; a new temporary directory when unset. */
	private Path runDir;

	/**
	 * Whether to stop the servers and exit with code 0 once all are ready and the report is
	 * printed, rather than keep running until stopped.
	 */
	private boolean exitWhenReady;

	private final Probe probe = new Probe();

	private final Callback callback = new Callback();

	private final Report report = new Report();

	private final JvmCache jvmCache = new JvmCache();

	public List<Server> getServers() {
		return this.servers;
	}

	public void setServers(List<Server> servers) {
		this.servers = servers;
	}

	public Map<String, Server> getFleet() {
		return this.fleet;
	}

	public void setFleet(Map<String, Server> fleet) {
		this.fleet = fleet;
	}

	/**
	 * Every server to spawn: {@code servers[]}, then {@code fleet}'s, each named by its key, in
	 * the order Boot bound them (a higher-priority property source's first).
	 */
	List<Server> fleetServers() {
		List<Server> all = new ArrayList<>(this.servers);
		this.fleet.forEach((name, server) -> {
			server.setName(name);
			all.add(server);
		});
		return all;
	}

	public Duration getReadyTimeout() {
		return this.readyTimeout;
	}

	public void setReadyTimeout(Duration readyTimeout) {
		this.readyTimeout = readyTimeout;
	}

	public Duration getStopTimeout() {
		return this.stopTimeout;
	}

	public void setStopTimeout(Duration stopTimeout) {
		this.stopTimeout = stopTimeout;
	}

	public Path getRunDir() {
		return this.runDir;
	}

	public void setRunDir(Path runDir) {
		this.runDir = runDir;
	}

	public String getLauncher() {
		return this.launcher;
	}

	public void setLauncher(String launcher) {
		this.launcher = launcher;
	}

	public boolean isExitWhenReady() {
		return this.exitWhenReady;
	}

	public void setExitWhenReady(boolean exitWhenReady) {
		this.exitWhenReady = exitWhenReady;
	}

	public Probe getProbe() {
		return this.probe;
	}

	public Report getReport() {
		return this.report;
	}

	public Callback getCallback() {
		return this.callback;
	}

	public JvmCache getJvmCache() {
		return this.jvmCache;
	}

	@Override
	public boolean supports(Class<?> type) {
		return SupervisorProperties.class.isAssignableFrom(type);
	}

	@Override
	public void validate(Object target, Errors errors) {
		if (this.validator != null) {
			this.validator.validate(target, errors);
		}
	}

	/** Check it with {@code validator} when it is bound. */
	SupervisorProperties validatedBy(Validator validator) {
		this.validator = validator;
		return this;
	}

	/** One server, or a group of identical replicas. */
	public static class Server {

		/**
		 * Its name, unique in the fleet; replicas are named {name}-0, {name}-1, ... Letters,
		 * digits, '.', '_' and '-' only, starting with a letter or digit.
		 */
		private String name;

		/**
		 * Its type (e.g. "model", "resources"); ranks are counted per type. Defaults to the name.
		 * The same characters as a name.
		 */
		private String type;

		/**
		 * The program and its arguments, one list element each, executed as they are (never
		 * through a shell string), e.g. [{java}, -jar, server.jar, --server.port={port}].
		 */
		private List<String> command = new ArrayList<>();

		/**
		 * A shell command run by the launch shell before the server, in the same shell (so
		 * that, say, activating a virtual environment carries over); the server is not
		 * started when it fails. Its end is stamped as NEMO_GYM_STARTUP_SETUP_DONE_NS.
		 */
		private String setup;

		/** Working directory of the server; the supervisor's own when unset. */
		private String workingDir;

		/**
		 * Extra environment of the server, over the supervisor's own and over what the
		 * supervisor sets. Values are never logged.
		 */
		private Map<String, String> env = new LinkedHashMap<>();

		/**
		 * URL that answers 2xx once the server is ready. Point it at a readiness check that
		 * turns healthy only after startup (Boot: /actuator/health/readiness with probes on).
		 * Its path is passed to the server as TELEMETRY_STARTUP_WARMUP_PATH, so that a server
		 * with the starter requests it once before it reports ready and answers the first probe
		 * after ready at once.
		 */
		private String healthUrl = "http://127.0.0.1:{port}/actuator/health/readiness";

		/**
		 * URL of the server's startup timeline, fetched once it is ready for the report; by
		 * default the startuptimeline endpoint beside the health URL's /health.
		 */
		private String timelineUrl;

		/** The launcher that starts it, by name; the fleet's (telemetry.supervisor.launcher) when unset. */
		private String launcher;

		/** How many identical servers to spawn; each gets its own name, port and rank. */
		private int replicas = 1;

		/**
		 * The servers this one waits for before it is spawned, by name, each with its
		 * condition: ready (the default, when left empty: it became ready; a group of replicas
		 * when all of them did), started (it was spawned) or completed (a one-shot job that
		 * exited 0). A map, so that one entry can be added or changed from any property source,
		 * e.g. --telemetry.supervisor.fleet.gateway.depends-on.model=ready.
		 */
		private Map<String, DependencyCondition> dependsOn = new LinkedHashMap<>();

		/**
		 * Whether it is a one-shot job (a migration, a model download) rather than a server: it
		 * is not probed and has no readiness; it is done when it exits 0 (then its dependants
		 * with the condition completed are spawned, and exit-when-ready counts it as ready).
		 * Any other exit fails the startup as crashed.
		 */
		private boolean oneShot;

		private final ServerJvmCache jvmCache = new ServerJvmCache();

		public ServerJvmCache getJvmCache() {
			return this.jvmCache;
		}

		public String getLauncher() {
			return this.launcher;
		}

		public void setLauncher(String launcher) {
			this.launcher = launcher;
		}

		/**
		 * What {port} is: unset, a free port the supervisor picks; 0, "bind any free port" (the
		 * server says which in its ready callback, and the supervisor probes and links that
		 * one; a server without the starter is then never probed); or a fixed port, for a single
		 * server.
		 */
		private Integer port;

		public Integer getPort() {
			return this.port;
		}

		public void setPort(Integer port) {
			this.port = port;
		}

		public String getName() {
			return this.name;
		}

		public void setName(String name) {
			this.name = name;
		}

		public String getType() {
			return this.type;
		}

		public void setType(String type) {
			this.type = type;
		}

		public List<String> getCommand() {
			return this.command;
		}

		public void setCommand(List<String> command) {
			this.command = command;
		}

		public String getSetup() {
			return this.setup;
		}

		public void setSetup(String setup) {
			this.setup = setup;
		}

		public String getWorkingDir() {
			return this.workingDir;
		}

		public void setWorkingDir(String workingDir) {
			this.workingDir = workingDir;
		}

		public Map<String, String> getEnv() {
			return this.env;
		}

		public void setEnv(Map<String, String> env) {
			this.env = env;
		}

		public String getHealthUrl() {
			return this.healthUrl;
		}

		public void setHealthUrl(String healthUrl) {
			this.healthUrl = healthUrl;
		}

		public String getTimelineUrl() {
			return this.timelineUrl;
		}

		public void setTimelineUrl(String timelineUrl) {
			this.timelineUrl = timelineUrl;
		}

		public int getReplicas() {
			return this.replicas;
		}

		public void setReplicas(int replicas) {
			this.replicas = replicas;
		}

		public Map<String, DependencyCondition> getDependsOn() {
			return this.dependsOn;
		}

		public void setDependsOn(Map<String, DependencyCondition> dependsOn) {
			this.dependsOn = dependsOn;
		}

		public boolean isOneShot() {
			return this.oneShot;
		}

		public void setOneShot(boolean oneShot) {
			this.oneShot = oneShot;
		}

	}

	/** When a server's dependency counts as met ({@code depends-on}). */
	public enum DependencyCondition {

		/** It is ready (its callback or health probe); a group of replicas when all of them are. */
		READY,

		/** It was spawned (its launcher started it). */
		STARTED,

		/** It is a one-shot job and exited 0; replicas when all of them did. */
		COMPLETED

	}

	/**
	 * What the supervisor does with JVM startup caches for its Java servers: an AOT cache on JDK
	 * 24+ (JEP 483, 514, 515), a dynamic AppCDS archive on JDK 13 to 23. See docs/jvm-cache.md.
	 */
	public enum JvmCacheMode {

		/** No caches: servers start as their commands say. */
		OFF,

		/**
		 * Train, then use: each distinct Java command without a usable cache is started once to
		 * write its cache (a Spring Boot jar extracted first), before the fleet starts with them.
		 */
		TRAIN,

		/** Start each Java server with its cache when one fits; never train. */
		USE,

		/**
		 * Train what is missing, then start the fleet {@code rounds} times without and with the
		 * caches, and report the paired difference per server and stage; then start it with them.
		 */
		COMPARE

	}

	/** JVM startup caches for the fleet's Java servers ({@code telemetry.supervisor.jvm-cache.*}). */
	public static class JvmCache {

		/**
		 * What to do with JVM startup caches (AOT cache on JDK 24+, AppCDS below) for the Java
		 * servers: off, train (train what has no usable cache, then start with the caches), use
		 * (start with them when they fit, never train) or compare (rounds without and with them,
		 * compared per server and stage). Each server may override it.
		 */
		private JvmCacheMode mode = JvmCacheMode.OFF;

		/**
		 * Where the caches are kept, one subdirectory per trained command; nothing of theirs is
		 * written anywhere else. Default: $XDG_CACHE_HOME/startup-telemetry/jvm-cache, or
		 * ~/.cache/startup-telemetry/jvm-cache.
		 */
		private @Nullable Path directory;

		/**
		 * The most the cache directory may hold: after each training, the least recently used
		 * caches are deleted until it fits (the one just trained is always kept).
		 */
		private DataSize maxSize = DataSize.ofGigabytes(2);

		/** In compare mode, how many rounds, each the fleet started once without and once with the caches. */
		private int rounds = 5;

		/**
		 * How long one training step (extracting a Spring Boot jar, a training start) may take;
		 * a start still running then is stopped, and its JVM writes its cache as it exits.
		 */
		private Duration trainingTimeout = Duration.ofMinutes(5);

		public JvmCacheMode getMode() {
			return this.mode;
		}

		public void setMode(JvmCacheMode mode) {
			this.mode = mode;
		}

		public @Nullable Path getDirectory() {
			return this.directory;
		}

		public void setDirectory(@Nullable Path directory) {
			this.directory = directory;
		}

		public DataSize getMaxSize() {
			return this.maxSize;
		}

		public void setMaxSize(DataSize maxSize) {
			this.maxSize = maxSize;
		}

		public int getRounds() {
			return this.rounds;
		}

		public void setRounds(int rounds) {
			this.rounds = rounds;
		}

		public Duration getTrainingTimeout() {
			return this.trainingTimeout;
		}

		public void setTrainingTimeout(Duration trainingTimeout) {
			this.trainingTimeout = trainingTimeout;
		}

	}

	/** One server's own JVM cache setting. */
	public static class ServerJvmCache {

		/**
		 * This server's JVM cache mode, over the fleet's telemetry.supervisor.jvm-cache.mode:
		 * e.g. off to keep it out. The fleet's when unset.
		 */
		private @Nullable JvmCacheMode mode;

		public @Nullable JvmCacheMode getMode() {
			return this.mode;
		}

		public void setMode(@Nullable JvmCacheMode mode) {
			this.mode = mode;
		}

	}

	/**
	 * How readiness is probed: a shared budget of listen checks, so that a ready server is noticed
	 * within tens of ms.
	 */
	public static class Probe {

		/** Delay from a spawn to the first probe, and between probes while a server answers but is not ready yet. */
		private Duration initialInterval = Duration.ofMillis(10);

		/**
		 * Longest delay between two probes while nothing listens, from the first refusal (then a
		 * probe is a bare TCP connect, some 40 µs of the supervisor's CPU). With fewer than 100
		 * servers still starting it is shorter, so that the last servers are noticed within
		 * milliseconds; with more than max-per-second allows at this interval, longer: each
		 * server gets its share of the fleet's budget in turn.
		 */
		private Duration maxInterval = Duration.ofMillis(250);

		/**
		 * Probes a second the whole fleet may make, of any kind (a refused connect, a health
		 * request), however many servers it has: past that each probe waits its turn, so that a
		 * thousand servers cost the supervisor no more than a hundred (each is then probed every
		 * 2.5 s until it listens; a server that calls back says itself when it is ready).
		 */
		// a literal, for the property's documented default; a refused connect costs some 40 µs, so about 2% of a core
		private int maxPerSecond = 400;

		/**
		 * How long one probe (and one timeline fetch) may take. A probe that times out still
		 * shows that the server listens: the next one comes after the initial interval.
		 */
		private Duration timeout = Duration.ofSeconds(1);

		public Duration getInitialInterval() {
			return this.initialInterval;
		}

		public void setInitialInterval(Duration initialInterval) {
			this.initialInterval = initialInterval;
		}

		public Duration getMaxInterval() {
			return this.maxInterval;
		}

		public void setMaxInterval(Duration maxInterval) {
			this.maxInterval = maxInterval;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public int getMaxPerSecond() {
			return this.maxPerSecond;
		}

		public void setMaxPerSecond(int maxPerSecond) {
			this.maxPerSecond = maxPerSecond;
		}

	}

	/**
	 * The readiness callback: a small HTTP endpoint of the supervisor's own (the JDK's server)
	 * that a server with the starter asks for the supervisor's clock early in its startup and
	 * tells once it is ready, so that readiness is noticed when it happens rather than at the
	 * next probe. Every request must carry the run's secret token, which only the spawned
	 * servers get (in their environment). A server that has asked for the clock has the starter
	 * and can reach the endpoint, so from then on its probe backs off to
	 * {@code probe.max-interval} and, once the probe finds it healthy, waits up to
	 * {@link #getFallbackDelay() fallback-delay} for the callback before it counts. Servers
	 * that never ask (no starter: Python, stubs) are probed as usual; whichever makes a server
	 * ready first wins.
	 */
	public static class Callback {

		/** Whether to run the callback endpoint and hand its URL and token to the servers. */
		private boolean enabled = true;

		/**
		 * The address the endpoint listens on: loopback by default, so that only this host's
		 * servers can reach it. For servers on other hosts, an address they can reach (the
		 * token still guards it).
		 */
		private String address = "127.0.0.1";

		/** The port the endpoint listens on; 0 for any free one. */
		private int port;

		/**
		 * How long a healthy probe of a server that asked for the clock waits for that server's
		 * callback before the probe makes it ready instead: the bound on how late readiness is
		 * noticed when a server's callback is lost.
		 */
		private Duration fallbackDelay = Duration.ofSeconds(1);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getAddress() {
			return this.address;
		}

		public void setAddress(String address) {
			this.address = address;
		}

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public Duration getFallbackDelay() {
			return this.fallbackDelay;
		}

		public void setFallbackDelay(Duration fallbackDelay) {
			this.fallbackDelay = fallbackDelay;
		}

	}

	/** The report printed at finish and at abort. */
	public static class Report {

		/**
		 * Where to write the self-contained HTML waterfall of each startup (finished or
		 * aborted), relative to the working directory; overwritten by the next startup.
		 */
		private Path html = Path.of("startup-report.html");

		/**
		 * Where to write the JSON document of each startup (schemaVersion 1,
		 * docs/startup-report.schema.json), beside the HTML: what the HTML shows, for machines
		 * and for comparing startups.
		 */
		private Path json = Path.of("startup-report.json");

		/**
		 * Earlier JSON reports to compare each startup with: one, or several to compare with
		 * their median and spread (recommended: 3 to 5 runs from the same kind of machine, see
		 * the docs' regression gate). None by default: no comparison.
		 */
		private List<Path> baseline = new ArrayList<>();

		/**
		 * How much slower than the baseline any unit may get before the startup counts as
		 * regressed (a server's spawn→ready, a stage, one of Spring's phases, an application
		 * step or a slow bean, in its CPU time or in its waiting; with exit-when-ready the
		 * supervisor then exits with code 3): a percentage of what the unit should take, with
		 * an absolute floor for units too small to judge, e.g. 25%,200ms.
		 */
		private String maxRegression = "25%,200ms";

		/**
		 * A threshold of its own per stage name, in the form of max-regression; the phases,
		 * steps and slow beans of beans_instantiated take that stage's.
		 */
		private Map<String, String> stageMaxRegression = new LinkedHashMap<>();

		/**
		 * How many of its spreads over the baseline runs a unit may move (with 2 or more
		 * baseline runs): a unit that is noisy in the baseline needs a larger change than
		 * max-regression alone. 0 judges by max-regression alone.
		 */
		private double spreadMultiplier = 3;

		/**
		 * Whether the machine's load is taken out before units are judged: the contention each
		 * run met, read from its own JVM counters (wall time per CPU second of its beans),
		 * stretches a unit's work and not its waiting. Turn off only on a dedicated, quiet
		 * runner, to judge wall times as measured.
		 */
		private boolean speedCorrection = true;

		public Path getHtml() {
			return this.html;
		}

		public void setHtml(Path html) {
			this.html = html;
		}

		public Path getJson() {
			return this.json;
		}

		public void setJson(Path json) {
			this.json = json;
		}

		public List<Path> getBaseline() {
			return this.baseline;
		}

		public void setBaseline(List<Path> baseline) {
			this.baseline = baseline;
		}

		public String getMaxRegression() {
			return this.maxRegression;
		}

		public void setMaxRegression(String maxRegression) {
			this.maxRegression = maxRegression;
		}

		public Map<String, String> getStageMaxRegression() {
			return this.stageMaxRegression;
		}

		public void setStageMaxRegression(Map<String, String> stageMaxRegression) {
			this.stageMaxRegression = stageMaxRegression;
		}

		public double getSpreadMultiplier() {
			return this.spreadMultiplier;
		}

		public void setSpreadMultiplier(double spreadMultiplier) {
			this.spreadMultiplier = spreadMultiplier;
		}

		public boolean isSpeedCorrection() {
			return this.speedCorrection;
		}

		public void setSpeedCorrection(boolean speedCorrection) {
			this.speedCorrection = speedCorrection;
		}

	}

}
