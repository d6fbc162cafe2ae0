package io.github.startuptelemetry.contract;

/**
 * Field names (and the few fixed values) of our JSON documents: the timeline a server serves at
 * {@code /actuator/startuptimeline}, the ready callback it posts to its supervisor, and the
 * supervisor's {@code startup-report.json}. A name used by several documents means the same in each.
 */
public final class JsonFields {

	/** In the timeline. */
	public static final String READY = "ready";

	/** In the timeline, the report file, the ready callback. */
	public static final String SERVER = "server";

	/** In the timeline, the report file. */
	public static final String TYPE = "type";

	/** In the timeline. */
	public static final String WORKER = "worker";

	/** In the timeline, the ready callback. */
	public static final String PID = "pid";

	/** In the timeline, the report file. */
	public static final String TRACE_ID = "traceId";

	/** In the timeline. */
	public static final String SPAN_ID = "spanId";

	/** In the timeline, the report file. */
	public static final String START_EPOCH_NS = "startEpochNs";

	/** In the timeline. */
	public static final String READY_EPOCH_NS = "readyEpochNs";

	/** In the timeline, the report file. */
	public static final String END_EPOCH_NS = "endEpochNs";

	/** In the timeline. */
	public static final String TOTAL_MS = "totalMs";

	/** In the timeline, the report file. */
	public static final String DURATION_MS = "durationMs";

	/** In the timeline, the report file. */
	public static final String STAGES = "stages";

	/** In the timeline. */
	public static final String IGNORED_ENV = "ignoredEnv";

	/** In the timeline. */
	public static final String BEAN_SPANS = "beanSpans";

	/** In the timeline, the report file. */
	public static final String NAME = "name";

	/** In the timeline. */
	public static final String STEP = "step";

	/** In the timeline. */
	public static final String BEAN = "bean";

	/** In the timeline. */
	public static final String SELF_MS = "selfMs";

	/** In the timeline, the report file: a step's thread CPU time (its children included). */
	public static final String THREAD_CPU_MS = "threadCpuMs";

	/** In the timeline, the report file. */
	public static final String CHILDREN = "children";

	/** In the timeline, the report file. */
	public static final String JVM = "jvm";

	/** In the timeline. */
	public static final String UNATTRIBUTED_MS = "unattributedMs";

	/** In the timeline, the report file. */
	public static final String VERSION = "version";

	/** In the timeline, the report file. */
	public static final String FLAGS = "flags";

	/** In the timeline. */
	public static final String CPU_MS = "cpuMs";

	/** In the timeline. */
	public static final String GC_MS = "gcMs";

	/** In the timeline. */
	public static final String GC_COUNT = "gcCount";

	/** In the timeline. */
	public static final String JIT_MS = "jitMs";

	/** In the timeline. */
	public static final String CLASSES_LOADED = "classesLoaded";

	/** In the report file. */
	public static final String SCHEMA_VERSION_FIELD = "schemaVersion";

	/** In the report file. */
	public static final String KIND = "kind";

	/** In the report file. */
	public static final String KIND_FLEET = "fleet";

	/** In the report file. */
	public static final String KIND_SERVER = "server";

	/** In the report file: a test run's contexts (startup-telemetry-test, docs/startup-test-report.schema.json). */
	public static final String KIND_TESTS = "tests";

	/** In the report file. */
	public static final String OUTCOME = "outcome";

	/** In the report file. */
	public static final String ERROR = "error";

	/** In the report file. */
	public static final String RUN_ID = "runId";

	/** In the report file, the ready callback. */
	public static final String HOST = "host";

	/** In the report file. */
	public static final String SUPERVISOR = "supervisor";

	/** In the report file. */
	public static final String SERVERS = "servers";

	/** In the report file. */
	public static final String EXIT_CODE = "exitCode";

	/** In the report file. */
	public static final String SPAWN_EPOCH_NS = "spawnEpochNs";

	/** In the report file. */
	public static final String SPAWN_TO_READY_MS = "spawnToReadyMs";

	/** In the report file. */
	public static final String PROBE_LAG_MS = "probeLagMs";

	/** In the report file. */
	public static final String CPU_PER_WALL = "cpuPerWall";

	/** In the report file. */
	public static final String CDS_OFF = "cdsOff";

	/** In the report file. */
	public static final String CDS_ARCHIVE = "cdsArchive";

	/** In the report file. */
	public static final String AOT_CACHE = "aotCache";

	/** In the report file. */
	public static final String TIERED_STOP_AT_LEVEL = "tieredStopAtLevel";

	/** In the report file. */
	public static final String BEANS = "beans";

	/**
	 * In the report file: the regression gate's verdict, when there was a baseline; in its
	 * {@code jvmCache}, the paired comparison of {@code compare}'s rounds.
	 */
	public static final String COMPARISON = "comparison";

	/** In the report file's comparison. */
	public static final String BASELINE_RUNS = "baselineRuns";

	/** In the report file's comparison. */
	public static final String REGRESSED = "regressed";

	/** In the report file's comparison. */
	public static final String SUMMARY = "summary";

	/** In the report file's comparison. */
	public static final String MAX_REGRESSION = "maxRegression";

	/** In the report file's comparison. */
	public static final String RELATIVE = "relative";

	/** In the report file's comparison. */
	public static final String FLOOR_MS = "floorMs";

	/** In the report file's comparison. */
	public static final String SPREAD_MULTIPLIER = "spreadMultiplier";

	/** In the report file's comparison. */
	public static final String SPEED_CORRECTION = "speedCorrection";

	/** In the report file's comparison. */
	public static final String SPEED = "speed";

	/** In the report file's comparison: the speed factor. */
	public static final String FACTOR = "factor";

	/** In the report file's comparison. */
	public static final String CONTENTION = "contention";

	/** In the report file's comparison. */
	public static final String USUAL_CONTENTION = "usualContention";

	/** In the report file's comparison. */
	public static final String LOW = "low";

	/** In the report file's comparison. */
	public static final String MEDIAN = "median";

	/** In the report file's comparison. */
	public static final String HIGH = "high";

	/** In the report file's comparison. */
	public static final String UNITS = "units";

	/** In the report file's comparison. */
	public static final String CPU_FACTOR = "cpuFactor";

	/** In the report file's comparison. */
	public static final String CPU_UNITS = "cpuUnits";

	/** In the report file's comparison: how much longer 1 in 20 of the working units waited. */
	public static final String STALL_MS = "stallMs";

	/** In the report file's comparison: the units that moved beyond their allowance. */
	public static final String CHANGES = "changes";

	/**
	 * In the report file's comparison: the unit judged; in its {@code jvmCache} comparison,
	 * a metric's unit ({@code ms} or {@code %}).
	 */
	public static final String UNIT = "unit";

	/** In the report file's comparison. */
	public static final String VERDICT = "verdict";

	/** In the report file's comparison. */
	public static final String CAUSE = "cause";

	/** In the report file's comparison. */
	public static final String CULPRIT = "culprit";

	/** In the report file's comparison. */
	public static final String EXPLAINED_BY = "explainedBy";

	/** In the report file's comparison. */
	public static final String WALL = "wall";

	/** In the report file's comparison. */
	public static final String CPU = "cpu";

	/** In the report file's comparison. */
	public static final String WAITING = "waiting";

	/** In the report file's comparison. */
	public static final String BEFORE_MS = "beforeMs";

	/** In the report file's comparison. */
	public static final String AFTER_MS = "afterMs";

	/** In the report file's comparison. */
	public static final String EXPECTED_MS = "expectedMs";

	/** In the report file's comparison. */
	public static final String ALLOWED_MS = "allowedMs";

	/** In the report file's comparison. */
	public static final String SPREAD_MS = "spreadMs";

	/** In the report file's comparison: a change as the console prints it. */
	public static final String TEXT = "text";

	/** In the report file. */
	public static final String CRITICAL_PATH = "criticalPath";

	/** In the report file. */
	public static final String SLOWEST_STAGE = "slowestStage";

	/** In the report file: a server: whether it is a one-shot job. */
	public static final String ONE_SHOT = "oneShot";

	/** In the report file: a server: the declared server it is a replica of, or null. */
	public static final String REPLICA_OF = "replicaOf";

	/** In the report file: a server: how it waited for its depends-on, or null. */
	public static final String DEPENDENCIES = "dependencies";

	/** In the report file: a server's dependencies: each entry of its depends-on. */
	public static final String DEPENDS_ON = "dependsOn";

	/** In the report file: ready, started or completed. */
	public static final String CONDITION = "condition";

	/** In the report file: when a server began waiting for its dependencies. */
	public static final String WAIT_START_EPOCH_NS = "waitStartEpochNs";

	/** In the report file: how long a server waited for its dependencies (or for one of them). */
	public static final String WAITED_MS = "waitedMs";

	/** In the report file: whether a server that waited was spawned. */
	public static final String SPAWNED = "spawned";

	/** In the report file: the server whose condition was met last. */
	public static final String RELEASED_BY = "releasedBy";

	/** In the report file: the server one never spawned was still waiting for. */
	public static final String BLOCKED_BY = "blockedBy";

	/** In the report file: the chain of servers that set all ready. */
	public static final String CRITICAL_CHAIN = "criticalChain";

	/** In the report file: the critical chain's servers, first spawned first. */
	public static final String LINKS = "links";

	/** In the report file: a chain link: when it met its condition, from the supervisor's start. */
	public static final String MET_AFTER_MS = "metAfterMs";

	/** In the report file: a chain link: the entry of its depends-on that released it. */
	public static final String WAITED_FOR = "waitedFor";

	/** In the report file: a chain link: how long its slowest stage took. */
	public static final String SLOWEST_STAGE_MS = "slowestStageMs";

	/** In the report file: each depends-on edge's wait and what could have overlapped. */
	public static final String DEPENDENCY_WAITS = "dependencyWaits";

	/** In the report file: an edge: the server that waited. */
	public static final String DEPENDANT = "dependant";

	/** In the report file: an edge: the server it waited for. */
	public static final String DEPENDENCY = "dependency";

	/** In the report file: an edge: the dependant's startup before its first contact with the dependency. */
	public static final String COULD_OVERLAP_MS = "couldOverlapMs";

	/** In the report file: an edge: the last of the dependant's stages that ended before that contact. */
	public static final String UP_TO_STAGE = "upToStage";

	/** In the report file: an edge: the stage the dependant first contacted the dependency in. */
	public static final String CONTACT_STAGE = "contactStage";

	/** In the report file: an edge: when it did. */
	public static final String CONTACT_EPOCH_NS = "contactEpochNs";

	/** In the report file: what the supervisor's JVM startup caches did (the document's and each server's). */
	public static final String JVM_CACHE = "jvmCache";

	/** In the report file's {@code jvmCache}: {@code train}, {@code use} or {@code compare}. */
	public static final String MODE = "mode";

	/** In the report file's {@code jvmCache}: the cache directory. */
	public static final String DIRECTORY = "directory";

	/** In the report file's {@code jvmCache}: the training starts the supervisor ran. */
	public static final String TRAININGS = "trainings";

	/** In the report file's {@code jvmCache}: whether a server's cache was used. */
	public static final String USED = "used";

	/** In the report file's {@code jvmCache}: {@code used}, or why not ({@code stale}, {@code missing}, ...). */
	public static final String REASON = "reason";

	/** In the report file's {@code jvmCache}: the sentence that says more. */
	public static final String DETAIL = "detail";

	/** In the report file's {@code jvmCache}: {@code aot} or {@code appcds}. */
	public static final String CACHE_KIND = "cacheKind";

	/** In the report file's {@code jvmCache}: the JVM's runtime version and vendor. */
	public static final String JAVA = "java";

	/** In the report file's {@code jvmCache}: classes loaded from a CDS archive or AOT cache. */
	public static final String SHARED_CLASSES = "sharedClasses";

	/** In the report file's {@code jvmCache}: all classes loaded. */
	public static final String LOADED_CLASSES = "loadedClasses";

	/** In the report file's {@code jvmCache}: sharedClasses over loadedClasses, 0 to 1. */
	public static final String CLASS_SHARE = "classShare";

	/** In the report file's {@code jvmCache} trainings: the jar or class path trained. */
	public static final String TARGET = "target";

	/** In the report file's {@code jvmCache} trainings: whether the cache was written. */
	public static final String TRAINED = "trained";

	/** In the report file's {@code jvmCache} trainings: the cache entry's bytes on disk. */
	public static final String SIZE_BYTES = "sizeBytes";

	/** In the report file's {@code jvmCache} trainings: the cache entry's directory. */
	public static final String ENTRY = "entry";

	/** In the report file's {@code jvmCache} comparison: the rounds asked for. */
	public static final String ROUNDS = "rounds";

	/** In the report file's {@code jvmCache} comparison: the rounds that completed. */
	public static final String COMPLETED_ROUNDS = "completedRounds";

	/** In the report file's {@code jvmCache} comparison: the server's stage whose median moved most. */
	public static final String MOVED_MOST = "movedMost";

	/** In the report file's {@code jvmCache} comparison: a server's measures. */
	public static final String METRICS = "metrics";

	/** In the report file's {@code jvmCache} comparison: {@code server}, {@code cpu}, {@code class-share}, {@code stage}. */
	public static final String METRIC_KIND = "metric";

	/** In the report file's {@code jvmCache} comparison: the median without the caches. */
	public static final String WITHOUT = "without";

	/** In the report file's {@code jvmCache} comparison: the median with the caches. */
	public static final String WITH = "with";

	/** In the report file's {@code jvmCache} comparison: the median of the per-round differences, with − without. */
	public static final String MEDIAN_DELTA = "medianDelta";

	/** In the report file's {@code jvmCache} comparison: the smallest per-round difference. */
	public static final String MIN_DELTA = "minDelta";

	/** In the report file's {@code jvmCache} comparison: the largest per-round difference. */
	public static final String MAX_DELTA = "maxDelta";

	/** In the report file's {@code jvmCache} comparison: medianDelta over the median without. */
	public static final String RELATIVE_DELTA = "relativeDelta";

	/** In the report file's {@code jvmCache} comparison: each round's [without, with]. */
	public static final String PAIRS = "pairs";

	/** In the test report: the application contexts the run created, one entry per creation. */
	public static final String CONTEXTS = "contexts";

	/** In the test report: how many contexts the run created. */
	public static final String CONTEXTS_CREATED = "contextsCreated";

	/** In the test report: a context's startup (or all of them), its start to ready, in milliseconds. */
	public static final String STARTUP_MS = "startupMs";

	/** In the test report: the test JVMs (Surefire forks, Gradle workers) whose contexts it holds. */
	public static final String JVMS = "jvms";

	/** In the test report: a test JVM's time from its start to its first context's. */
	public static final String BEFORE_FIRST_CONTEXT_MS = "beforeFirstContextMs";

	/** In the test report: the test classes that used a context, the one that created it first. */
	public static final String TEST_CLASSES = "testClasses";

	/** In the test report: a context's number in its JVM, 1 for the first created. */
	public static final String NUMBER = "number";

	/** In the test report: whether Spring Boot started a context ({@code @SpringBootTest}, a slice). */
	public static final String BOOT = "boot";

	/** In the test report: the application context's class. */
	public static final String APPLICATION_CONTEXT = "applicationContext";

	/** In the test report: the context loader's class. */
	public static final String CONTEXT_LOADER = "contextLoader";

	/** In the test report: why a context was created rather than taken from the cache. */
	public static final String WHY = "why";

	/** In the test report's {@code why}: the earlier context whose configuration is the nearest. */
	public static final String NEAREST = "nearest";

	/** In the test report's {@code why}: what differs from the nearest, aspect by aspect. */
	public static final String DIFFERENCES = "differences";

	/** In the test report: a part of a context's configuration (profiles, properties, bean overrides, ...). */
	public static final String ASPECT = "aspect";

	/** In the test report's differences: what the new context has and the nearest had not. */
	public static final String ADDED = "added";

	/** In the test report's differences: what the nearest had and the new context has not. */
	public static final String REMOVED = "removed";

	/** In the test report's {@code why}: what a developer can change to reuse the nearest. */
	public static final String HINT = "hint";

	/** In the test report's {@code why}: the earlier context of the same configuration, closed since. */
	public static final String SAME_AS = "sameAs";

	/** In the test report's {@code why}: the JVM that created the same configuration first (a fork duplicate). */
	public static final String OTHER_JVM = "otherJvm";

	/** In the test report: what closed a context before the run ended, or {@code null}. */
	public static final String CLOSED_BY = "closedBy";

	/** In the test report: how often a context was paused for another ({@code spring.test.context.cache.pause}). */
	public static final String PAUSES = "pauses";

	/** In the test report: a context's configuration, aspect by aspect. */
	public static final String CONFIGURATION = "configuration";

	/** In the test report: whether a context was the first its JVM created. */
	public static final String FIRST_IN_JVM = "firstInJvm";

	/** In the test report: the causes of new contexts, the costliest first. */
	public static final String CAUSES = "causes";

	/** In the test report: the slowest beans across contexts. */
	public static final String SLOWEST_BEANS = "slowestBeans";

	/** In the test report's causes and slowest beans: a context's name. */
	public static final String CONTEXT = "context";

	/** In the ready callback. */
	public static final String PORT = "port";

	/** In the ready callback. */
	public static final String CLOCK_EPOCH_NS = "clockEpochNs";

	/** In the ready callback. */
	public static final String CLOCK_OFFSET_NS = "clockOffsetNs";

	/** In the ready callback. */
	public static final String CLOCK_UNCERTAINTY_NS = "clockUncertaintyNs";

	/** In the ready callback. */
	public static final String TIMELINE = "timeline";

	private JsonFields() {
	}

}
