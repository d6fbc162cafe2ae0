package io.github.startuptelemetry.internal;

import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

/**
 * A step telemetry takes that must never fail the application: whatever it throws (a broken
 * exporter, a class missing at run time) is logged at debug and the caller carries on.
 */
public final class Guarded {

	private Guarded() {
	}

	/**
	 * Run a step.
	 * @param logger where a failure is logged, at debug
	 * @param what the step, completing "Could not ..."
	 * @param step the step
	 * @return whether the step completed; a caller that must stop after a failure asks
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
	 * Run a step that has a result.
	 * @param <T> the result's type
	 * @param logger where a failure is logged, at debug
	 * @param what the step, completing "Could not ..."
	 * @param step the step
	 * @return its result, or {@code null} when it failed
	 */
	public static <T> @Nullable T get(Log logger, String what, Supplier<T> step) {
		try {
			return step.get();
		}
		catch (Exception | LinkageError ex) {
			logger.debug("Could not " + what, ex);
			return null;
		}
	}

}
