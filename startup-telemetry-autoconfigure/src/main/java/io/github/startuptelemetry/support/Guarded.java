package io.github.startuptelemetry.support;

import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

/**
 * Runs one step of telemetry so that it cannot fail the application: any {@link Exception} or
 * {@link LinkageError} (an optional class that is missing) is logged at debug level as
 * "Could not &lt;what&gt;" and swallowed. Telemetry may never fail a server or a supervisor.
 */
public final class Guarded {

	private Guarded() {
	}

	/**
	 * Run {@code step}, guarded.
	 * @param logger where a failure is logged, at debug level
	 * @param what what the step does, completing "Could not ..."
	 * @param step the step
	 * @return whether the step completed
	 */
	public static boolean run(Log logger, String what, Runnable step) {
		try {
			step.run();
			return true;
		}
		catch (Exception | LinkageError ex) {
			logger.debug("Could not " + what, ex);
			return false;
		}
	}

	/**
	 * Compute a value, guarded.
	 * @param <T> the value's type
	 * @param logger where a failure is logged, at debug level
	 * @param what what the step does, completing "Could not ..."
	 * @param step the step
	 * @return the step's value, or {@code null} when it failed
	 */
	public static <T> @Nullable T get(Log logger, String what, Supplier<? extends T> step) {
		try {
			return step.get();
		}
		catch (Exception | LinkageError ex) {
			logger.debug("Could not " + what, ex);
			return null;
		}
	}

}
