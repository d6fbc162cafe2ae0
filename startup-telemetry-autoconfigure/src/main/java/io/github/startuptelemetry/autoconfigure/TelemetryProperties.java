package io.github.startuptelemetry.autoconfigure;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Process-wide startup-telemetry settings ({@code telemetry.*}). Invalid values are ignored
 * rather than failing the application: telemetry may never fail a server.
 */
@ConfigurationProperties(prefix = TelemetryProperties.PREFIX, ignoreInvalidFields = true)
public class TelemetryProperties {

	/** The prefix of every property here. */
	public static final String PREFIX = "telemetry";

	/** {@link #getRunId()}. */
	public static final String RUN_ID = PREFIX + ".run-id";

	/** The starter's one switch ({@link #isEnabled()}), as a property name. */
	public static final String ENABLED = PREFIX + ".enabled";

	/** {@link #getResourceAttributes()}. */
	public static final String RESOURCE_ATTRIBUTES = PREFIX + ".resource-attributes";

	/** {@link #getRank()}. */
	public static final String RANK = PREFIX + ".rank";

	/** {@link #getWorldSize()}. */
	public static final String WORLD_SIZE = PREFIX + ".world-size";

	/** {@link #getLocalRank()}. */
	public static final String LOCAL_RANK = PREFIX + ".local-rank";

	/** {@link #getWorkerGroup()}. */
	public static final String WORKER_GROUP = PREFIX + ".worker-group";

	/** NeMo Gym's span groups this process exports (startup spans need {@code startup}). */
	public static final String SPAN_GROUPS = PREFIX + ".span-groups";

	/** {@link #getStartup()}. */
	public static final String STARTUP = PREFIX + ".startup";

	/** The collector the starter's own SDK exports to ({@link Otlp#getEndpoint()}). */
	public static final String EXPORT_OTLP_ENDPOINT = PREFIX + ".export.otlp.endpoint";

	/** {@link Otlp#getHeaders()}. */
	public static final String EXPORT_OTLP_HEADERS = PREFIX + ".export.otlp.headers";

	/** {@link Otlp#getProtocol()}. */
	public static final String EXPORT_OTLP_PROTOCOL = PREFIX + ".export.otlp.protocol";

	/** {@link Zipkin#getEndpoint()}. */
	public static final String EXPORT_ZIPKIN_ENDPOINT = PREFIX + ".export.zipkin.endpoint";

	/** {@link #getShutdownTimeout()}. */
	public static final String SHUTDOWN_TIMEOUT = PREFIX + ".shutdown-timeout";

	/** The server's name on spans, metrics and (under a group) {@code service.name}. */
	public static final String SERVER_NAME = STARTUP + ".server-name";

	/** {@link Startup#isCounters()}. */
	public static final String STARTUP_COUNTERS = STARTUP + ".counters";

	/** {@link Startup#isPreload()}. */
	public static final String STARTUP_PRELOAD = STARTUP + ".preload";

	/** The supervisor's settings ({@code SupervisorProperties}). */
	public static final String SUPERVISOR = PREFIX + ".supervisor";

	/** A fleet declared as a list, one element per server. */
	public static final String SUPERVISOR_SERVERS = SUPERVISOR + ".servers";

	/** A fleet declared by name, one field at a time. */
	public static final String SUPERVISOR_FLEET = SUPERVISOR + ".fleet";

	/**
	 * The settings that mean the same in every server of a fleet, with the type each binds to
	 * ({@link URI}: an http(s) endpoint): a supervisor passes on those it was given, so that a
	 * server configured with nothing behaves like its supervisor.
	 */
	public static final Map<String, Class<?>> FLEET_WIDE = fleetWide();

	/**
	 * The one switch. When false nothing is recorded or exported and the starter loads no
	 * OpenTelemetry SDK class of its own. Env: TELEMETRY_ENABLED.
	 */
	private boolean enabled = true;

	/**
	 * Identifier of this run, exported as resource attribute nemo.run.id (and, deprecated, for
	 * one release, nv.dl.run_id); shared by a whole fleet. Defaults to NEMO_GYM_OTEL_RUN_ID,
	 * else SLURM_JOB_ID, else 12 random hex characters.
	 */
	private String runId;

	/**
	 * Longest time the telemetry flush may hold up shutdown: the SDK and meter registries are
	 * closed on daemon threads and abandoned at this deadline, even against a collector that
	 * never answers.
	 */
	private Duration shutdownTimeout = Duration.ofSeconds(5);

	/**
	 * This process's rank within its group (nv.dl.rank). Defaults to the RANK env var, else 0 (as
	 * NeMo Gym exports it); a negative value leaves the attribute out.
	 */
	private Integer rank;

	/**
	 * Size of this process's group (nv.dl.world_size). Defaults to the WORLD_SIZE env var, else 1
	 * (as NeMo Gym exports it); a negative value leaves the attribute out.
	 */
	private Integer worldSize;

	/**
	 * This process's rank on its host (nv.dl.local_rank). Defaults to the LOCAL_RANK env var, else
	 * left out (as NeMo Gym leaves it out).
	 */
	private Integer localRank;

	/** Name of the group this process belongs to (rl.worker_group), e.g. the server type. */
	private String workerGroup;

	/**
	 * Extra resource attributes for every span and metric of this process; they win over the
	 * rank attributes, management.opentelemetry.resource-attributes wins over them.
	 */
	private Map<String, String> resourceAttributes = new LinkedHashMap<>();

	/**
	 * NeMo Gym span groups and presets to export, comma separated (default, per_rollout, all,
	 * job, server, startup, ...). Startup spans are exported only when the startup group is
	 * selected (it is in default and all); startup metrics always are. Defaults to
	 * NEMO_GYM_OTEL_SPAN_GROUPS, else NEMO_LENS_SPAN_GROUPS, else default.
	 */
	private String spanGroups = "default";

	private final Startup startup = new Startup();

	private final Export export = new Export();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getRunId() {
		return this.runId;
	}

	public void setRunId(String runId) {
		this.runId = runId;
	}

	public Duration getShutdownTimeout() {
		return this.shutdownTimeout;
	}

	public void setShutdownTimeout(Duration shutdownTimeout) {
		this.shutdownTimeout = shutdownTimeout;
	}

	public Integer getRank() {
		return this.rank;
	}

	public void setRank(Integer rank) {
		this.rank = rank;
	}

	public Integer getWorldSize() {
		return this.worldSize;
	}

	public void setWorldSize(Integer worldSize) {
		this.worldSize = worldSize;
	}

	public Integer getLocalRank() {
		return this.localRank;
	}

	public void setLocalRank(Integer localRank) {
		this.localRank = localRank;
	}

	public String getWorkerGroup() {
		return this.workerGroup;
	}

	public void setWorkerGroup(String workerGroup) {
		this.workerGroup = workerGroup;
	}

	public Map<String, String> getResourceAttributes() {
		return this.resourceAttributes;
	}

	public void setResourceAttributes(Map<String, String> resourceAttributes) {
		this.resourceAttributes = resourceAttributes;
	}

	public String getSpanGroups() {
		return this.spanGroups;
	}

	public void setSpanGroups(String spanGroups) {
		this.spanGroups = spanGroups;
	}

	public Startup getStartup() {
		return this.startup;
	}

	public Export getExport() {
		return this.export;
	}

	private static Map<String, Class<?>> fleetWide() {
		Map<String, Class<?>> properties = new LinkedHashMap<>();
		properties.put(RUN_ID, String.class);
		properties.put(SPAN_GROUPS, String.class);
		properties.put(SHUTDOWN_TIMEOUT, Duration.class);
		properties.put(PREFIX + ".startup.log-summary", Boolean.class);
		properties.put(STARTUP_COUNTERS, Boolean.class);
		properties.put(STARTUP_PRELOAD, Boolean.class);
		properties.put(PREFIX + ".startup.bean-spans.enabled", Boolean.class);
		properties.put(PREFIX + ".startup.bean-spans.threshold", Duration.class);
		properties.put(EXPORT_ZIPKIN_ENDPOINT, URI.class);
		return Collections.unmodifiableMap(properties);
	}

	/** The server's own startup timeline. */
	public static class Startup {

		/**
		 * Server name on spans, metrics and the log line. Defaults to spring.application.name, else
		 * unknown_service (Boot's default service name).
		 */
		private String serverName;

		/** Server type on spans and metrics (e.g. "model", "resources"). */
		private String serverType;

		/**
		 * Whether this process is a worker of a multi-process server: its first stage is then
		 * worker_start (from NEMO_GYM_STARTUP_SERVE_NS) and its root span
		 * gym.server.startup.worker.
		 */
		private boolean worker;

		/** Whether to log one INFO line with the total and each stage at ready. */
		private boolean logSummary = true;

		/**
		 * Whether each stage carries the JVM's counters over it (process CPU, GC, JIT, classes
		 * loaded; startup.jvm.* on the stage spans). Set to false in the process environment
		 * (TELEMETRY_STARTUP_COUNTERS or the system property) to skip reading them altogether
		 * (the JVM's own counter file and /proc, and the thread bean the bean steps' CPU comes
		 * from): they are first read at the application's start, before application.yml is
		 * known, which then only drops the counters from the stages.
		 */
		private boolean counters = true;

		/**
		 * Whether the starter's own classes are loaded on a background thread as the startup
		 * begins, so that the startup's thread finds them loaded (as Spring Boot's background
		 * pre-initializer does for its own; like it, only with more than one processor, and not
		 * with the system property spring.backgroundpreinitializer.ignore=true). Decided at the
		 * application's start, from the process environment (TELEMETRY_STARTUP_PRELOAD or the
		 * system property); false in application.yml stops it where it is by then.
		 */
		private boolean preload = true;

		private final BeanSpans beanSpans = new BeanSpans();

		private final Report report = new Report();

		public String getServerName() {
			return this.serverName;
		}

		public void setServerName(String serverName) {
			this.serverName = serverName;
		}

		public String getServerType() {
			return this.serverType;
		}

		public void setServerType(String serverType) {
			this.serverType = serverType;
		}

		public boolean isWorker() {
			return this.worker;
		}

		public void setWorker(boolean worker) {
			this.worker = worker;
		}

		public boolean isLogSummary() {
			return this.logSummary;
		}

		public void setLogSummary(boolean logSummary) {
			this.logSummary = logSummary;
		}

		public boolean isCounters() {
			return this.counters;
		}

		public void setCounters(boolean counters) {
			this.counters = counters;
		}

		public boolean isPreload() {
			return this.preload;
		}

		public void setPreload(boolean preload) {
			this.preload = preload;
		}

		public BeanSpans getBeanSpans() {
			return this.beanSpans;
		}

		public Report getReport() {
			return this.report;
		}

	}

	/** A server's own startup report, for a server started without a supervisor. */
	public static class Report {

		/**
		 * Where to write this server's startup as the supervisor's JSON document (kind
		 * "server"), at ready; none by default. Relative to the working directory.
		 */
		private Path json;

		public Path getJson() {
			return this.json;
		}

		public void setJson(Path json) {
			this.json = json;
		}

	}

	/** Slow beans (and the user's own ApplicationStartup steps) as spans under beans_instantiated. */
	public static class BeanSpans {

		/** Whether slow bean creations become child spans of beans_instantiated. */
		private boolean enabled = true;

		/** A bean creation or application startup step taking longer than this becomes a span. */
		private Duration threshold = Duration.ofMillis(20);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getThreshold() {
			return this.threshold;
		}

		public void setThreshold(Duration threshold) {
			this.threshold = threshold;
		}

	}

	/**
	 * Where the startup telemetry goes. Unset, it goes where the standard OTEL_EXPORTER_OTLP_*
	 * variables say (a supervisor hands them to its servers), else where Boot's
	 * management.opentelemetry.tracing.export.otlp.* and management.otlp.metrics.export.* say;
	 * with none of them anywhere, nothing is exported and no connection is made.
	 */
	public static class Export {

		private final Otlp otlp = new Otlp();

		private final Zipkin zipkin = new Zipkin();

		public Otlp getOtlp() {
			return this.otlp;
		}

		public Zipkin getZipkin() {
			return this.zipkin;
		}

	}

	/** The OTLP collector the startup spans and metrics go to; wins over OTEL_EXPORTER_OTLP_*. */
	public static class Otlp {

		/**
		 * The collector's base URL (as OTEL_EXPORTER_OTLP_ENDPOINT: each signal appends its path,
		 * /v1/traces and /v1/metrics), e.g. http://collector:4318.
		 */
		private String endpoint;

		/** Headers sent with every export (usually credentials: never logged). */
		private Map<String, String> headers = new LinkedHashMap<>();

		/** http/protobuf (the default) or grpc (which needs a gRPC sender on the class path). */
		private String protocol;

		public String getEndpoint() {
			return this.endpoint;
		}

		public void setEndpoint(String endpoint) {
			this.endpoint = endpoint;
		}

		public Map<String, String> getHeaders() {
			return this.headers;
		}

		public void setHeaders(Map<String, String> headers) {
			this.headers = headers;
		}

		public String getProtocol() {
			return this.protocol;
		}

		public void setProtocol(String protocol) {
			this.protocol = protocol;
		}

	}

	/** Optional Zipkin span exporter, for looking at startups locally. */
	public static class Zipkin {

		/** Zipkin's span endpoint, e.g. http://127.0.0.1:9411/api/v2/spans. Unset: no Zipkin export. */
		private String endpoint;

		public String getEndpoint() {
			return this.endpoint;
		}

		public void setEndpoint(String endpoint) {
			this.endpoint = endpoint;
		}

	}

}
