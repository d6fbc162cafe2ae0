package io.github.startuptelemetry.contract;

/**
 * Attribute keys on startup spans (and, where they say so, metric tags), with the type each
 * value has on the wire. NeMo Gym's own keys use {@code nemo.gym.}; ours would use
 * {@code startup.}.
 */
public final class SpanAttributes {

	/** String: the server's name. */
	public static final String SERVER_NAME = "nemo.gym.server.name";

	/** String: the server's type; omitted when unknown, as Gym does. */
	public static final String SERVER_TYPE = "nemo.gym.server.type";

	/** Boolean: whether the process is a worker of a multi-process server. */
	public static final String SERVER_WORKER = "nemo.gym.server.worker";

	/** String: the stage a stage span covers. */
	public static final String STAGE = "nemo.gym.startup.stage";

	/** String, one of {@link StartupOutcome}: how a startup, or one server's part of it, ended. */
	public static final String OUTCOME = "nemo.gym.startup.outcome";

	/** Int: the process's id. */
	public static final String PROCESS_PID = "process.pid";

	/**
	 * String, on the {@link SpanNames#EXCEPTION_EVENT} event of a failed {@code gym.startup}: the
	 * failure's class (OpenTelemetry's semantic conventions, as {@code Span.recordException} writes them).
	 */
	public static final String EXCEPTION_TYPE = "exception.type";

	/** String, on that event: the failure's message, at most 8,192 characters. */
	public static final String EXCEPTION_MESSAGE = "exception.message";

	/** String, on that event: the failure's stack trace, at most 8,192 characters. */
	public static final String EXCEPTION_STACKTRACE = "exception.stacktrace";

	/** String: on a slow bean or application step under beans_instantiated, its ApplicationStartup step. */
	public static final String STEP = "nemo.gym.startup.step";

	/** String: the slow bean's name. */
	public static final String BEAN_NAME = "nemo.gym.startup.bean.name";

	/** String: the slow bean's class. */
	public static final String BEAN_TYPE = "nemo.gym.startup.bean.type";

	/** Double: a step's own time, less that of the slow steps nested in it, in milliseconds. */
	public static final String SELF_MS = "nemo.gym.startup.self_ms";

	/** String array: env values that were present but unusable (clock skew, reversed order), one line each. */
	public static final String IGNORED_ENV = "nemo.gym.startup.ignored_env";

	/**
	 * String, one of {@link ReadinessCallback#SOURCE_CALLBACK}, {@link ReadinessCallback#SOURCE_PROBE}
	 * or, for a one-shot job, {@link ReadinessCallback#SOURCE_EXIT}: on {@code gym.startup.server},
	 * what told the supervisor that the server was ready.
	 */
	public static final String READINESS_SOURCE = "startup.readiness.source";

	/**
	 * Double: on {@code gym.startup.server}, the server's clock minus the supervisor's, in
	 * milliseconds, as the server measured it (Cristian's method); omitted when not measured.
	 */
	public static final String CLOCK_OFFSET_MS = "startup.clock.offset_ms";

	/** Double: on {@code gym.startup.server}, how far {@link #CLOCK_OFFSET_MS} may be off (half the round trip). */
	public static final String CLOCK_UNCERTAINTY_MS = "startup.clock.uncertainty_ms";

	/**
	 * Double: on a stage span, the process CPU time (all threads, user and system) spent during
	 * the stage, in milliseconds. May exceed the stage's wall time on several cores.
	 */
	public static final String JVM_CPU_MS = "startup.jvm.cpu_ms";

	/** Long: on a stage span, the time the garbage collectors report for the stage, in milliseconds. */
	public static final String JVM_GC_MS = "startup.jvm.gc_ms";

	/** Long: on a stage span, the garbage collections during the stage. */
	public static final String JVM_GC_COUNT = "startup.jvm.gc_count";

	/** Long: on a stage span, the JIT compiler's time during the stage, in milliseconds. */
	public static final String JVM_JIT_MS = "startup.jvm.jit_ms";

	/** Long: on a stage span, the classes loaded during the stage. */
	public static final String JVM_CLASSES_LOADED = "startup.jvm.classes_loaded";

	/**
	 * Double: on the beans_instantiated stage span, the part of it no phase, slow bean or
	 * application step span covers, in milliseconds.
	 */
	public static final String UNATTRIBUTED_MS = "startup.unattributed_ms";

	/**
	 * On {@code gym.startup.server} of a server started as a job step: the allocation's job id
	 * (string), lens's name, as on the resource ({@link SlurmAttributes#JOB_ID}).
	 */
	public static final String SLURM_JOB_ID = SlurmAttributes.JOB_ID;

	/** On {@code gym.startup.server} of a server started as a job step: its step id (string). */
	public static final String SLURM_STEP_ID = "slurm.step.id";

	/**
	 * On {@code gym.startup.server}: how long the Slurm step waited to be created (pending,
	 * held back by the scheduler) after {@code srun} was spawned, in milliseconds (long).
	 */
	public static final String SLURM_PENDING_MS = "startup.slurm.pending_ms";

	/**
	 * String array: on {@code gym.startup.server} of a server with {@code depends-on}, what it
	 * waited for, one {@code <server>:<condition>} each ({@code config:ready},
	 * {@code migrate:completed}; a group of replicas by its name, for all of them).
	 */
	public static final String DEPENDENCY_CONDITIONS = "startup.dependency.conditions";

	/**
	 * Double: on {@code gym.startup.server} of a server with {@code depends-on}, how long it
	 * waited before it was spawned (its {@code waiting_for_dependencies} stage), in
	 * milliseconds; to the end of the startup for one never spawned.
	 */
	public static final String DEPENDENCY_WAIT_MS = "startup.dependency.wait_ms";

	/**
	 * String: on {@code gym.startup.server} of a server with {@code depends-on}, the server whose
	 * condition was met last and so released its spawn (a replica by its own name).
	 */
	public static final String DEPENDENCY_RELEASED_BY = "startup.dependency.released_by";

	/**
	 * String: on {@code gym.startup.server} of a server never spawned because the startup ended
	 * while it waited, the dependency it was still waiting for (the one that failed, or one that
	 * was itself still waiting or starting).
	 */
	public static final String DEPENDENCY_BLOCKED_BY = "startup.dependency.blocked_by";

	/**
	 * Boolean: on {@code gym.startup.server}, true for a one-shot job ({@code one-shot}): no
	 * readiness, done (outcome {@code ready}, {@link #READINESS_SOURCE} {@code exit}) when it
	 * exited 0.
	 */
	public static final String ONE_SHOT = "startup.server.one_shot";

	/** String: on {@code startup.tests.context}, the context's name in the test report (its configuration in short). */
	public static final String TEST_CONTEXT = "startup.test.context";

	/** String: on {@code startup.tests.context}, why it was created rather than taken from the cache. */
	public static final String TEST_CONTEXT_WHY = "startup.test.context.why";

	/** String array: on {@code startup.tests.context}, the test classes that used it, the first its creator. */
	public static final String TEST_CLASSES = "startup.test.classes";

	private SpanAttributes() {
	}

}
