package io.github.startuptelemetry.contract;

/**
 * Span names and the instrumentation scope of every startup span, as NeMo Gym names them. A
 * stage span is its root's name, a dot and the stage; a slow bean is {@code <root>.bean.<name>},
 * an application step {@code <root>.step.<name>}.
 */
public final class SpanNames {

	/** Instrumentation scope of every startup span. */
	public static final String SCOPE = "startup-telemetry";

	/**
	 * The event on a failed {@code gym.startup} that says what failed it, as OpenTelemetry's
	 * {@code Span.recordException} names it ({@link SpanAttributes#EXCEPTION_TYPE} and the others).
	 */
	public static final String EXCEPTION_EVENT = "exception";

	/** The supervisor: its start to all servers ready (or the abort). */
	public static final String SUPERVISOR_ROOT = "gym.startup";

	/** One server as its supervisor saw it: spawn to first healthy probe. */
	public static final String SUPERVISOR_SERVER = "gym.startup.server";

	/** One server process: its own timeline. */
	public static final String SERVER_ROOT = "gym.server.startup";

	/** A worker process of a multi-process server. */
	public static final String WORKER_ROOT = "gym.server.startup.worker";

	/**
	 * A test JVM's run (startup-telemetry-test): from the JVM's start to its last test, one trace
	 * per test JVM; ours, not Gym's.
	 */
	public static final String TESTS_ROOT = "startup.tests";

	/**
	 * One application context a test run created, under {@link #TESTS_ROOT}: its start to ready,
	 * with its stages and slow beans under it as a server's are under its root.
	 */
	public static final String TEST_CONTEXT = "startup.tests.context";

	/** Infix of a slow bean's span under {@code beans_instantiated}. */
	public static final String BEAN_INFIX = ".bean.";

	/** Infix of an application step's span under {@code beans_instantiated}. */
	public static final String STEP_INFIX = ".step.";

	/**
	 * Our own step of {@code beans_instantiated}: singleton creation, from the first bean created
	 * after bean-definition post-processing to the last, on any thread (Spring has no step for
	 * it); its span is {@code <root>.step.startup.singletons}, and the timeline JSON names it so.
	 */
	public static final String SINGLETONS_STEP = "startup.singletons";

	/**
	 * How a server says when it first contacted a server of its fleet that it depends on: an
	 * application step ({@code ApplicationStartup.start}) named this and the dependency's name
	 * ({@code startup.dependency.config}) around that first call. Kept whatever it took; the
	 * supervisor's report counts the server's stages that ended before it as startup that did
	 * not need the dependency.
	 */
	public static final String DEPENDENCY_STEP_PREFIX = "startup.dependency.";

	private SpanNames() {
	}

	/** Whether a span of this name is a startup span, exported whatever the sampler says. */
	public static boolean isStartupSpan(String name) {
		return name.startsWith(SUPERVISOR_ROOT) || name.startsWith(SERVER_ROOT) || name.startsWith(TESTS_ROOT);
	}

	/** The span of one stage under a root ({@code gym.server.startup.main_start}). */
	public static String stage(String root, String stage) {
		return root + "." + stage;
	}

}
