package io.github.startuptelemetry.contract;

/**
 * Field names (and the few fixed values) of our JSON documents: the timeline a server serves at
 * {@code /actuator/startuptimeline}, the ready callback it posts to its supervisor (which carries
 * that timeline), and the report file a supervisor writes ({@code startup-report.json}, its
 * schema in {@code docs/startup-report.schema.json}). Other programs read them, so they are a
 * contract like every other name here. A name used by several documents means the same in each.
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

	/** In the report file: the regression gate's verdict, when there was a baseline. */
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

	/** In the report file's comparison. */
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
