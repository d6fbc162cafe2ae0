package io.github.startuptelemetry.export.internal;

import java.lang.reflect.Method;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What an unreachable collector costs the log: one WARN per signal the first time an export
 * fails, one INFO when it succeeds again, everything else at DEBUG; never a stack trace, a
 * header, or a URL beyond its scheme, host and port.
 */
final class ExportLog {

	/** The export's one log category, whichever of its classes writes the line. */
	static final String CATEGORY = "io.github.startuptelemetry.export.internal.StartupExport";

	private static final Log logger = logger();

	private final String signal;

	private final String destination;

	private final @Nullable ProtocolAdvice advice;

	private boolean warned;

	private boolean failing;

	private boolean recovered;

	/**
	 * @param signal what is exported ("spans", "metrics")
	 * @param destination where to, for people ({@link ExportSettings#destination()})
	 */
	ExportLog(String signal, @Nullable String destination) {
		this(signal, destination, null);
	}

	/** The same, its protocol mismatches said by {@code advice} instead (one WARN for all signals). */
	ExportLog(String signal, @Nullable String destination, @Nullable ProtocolAdvice advice) {
		this.signal = signal;
		this.destination = (destination != null) ? destination : "the configured collector";
		this.advice = advice;
	}

	/** The export's logger. */
	static Log logger() {
		return LogFactory.getLog(CATEGORY);
	}

	synchronized void failed(@Nullable Throwable cause) {
		String reason = reason(cause);
		boolean explained = this.advice != null && this.advice.explains(this.signal, cause);
		if (!this.warned && !explained) {
			this.warned = true;
			logger.warn("Could not export startup telemetry " + this.signal + " to " + this.destination + " (" + reason
					+ "); further failures are logged at DEBUG");
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Could not export startup telemetry " + this.signal + " to " + this.destination + " ("
					+ reason + ")");
		}
		this.failing = true;
	}

	synchronized void succeeded() {
		if (this.advice != null) {
			this.advice.reached();
		}
		if (this.failing && !this.recovered) {
			this.recovered = true;
			logger.info("Startup telemetry " + this.signal + " reach " + this.destination + " again");
		}
		this.failing = false;
	}

	/**
	 * A failure in a few words: the root cause's type and message, or the collector's HTTP
	 * status; never a stack trace.
	 */
	static String reason(@Nullable Throwable cause) {
		if (cause == null) {
			return "the export failed";
		}
		Throwable root = cause;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		if (root == cause && cause.getMessage() == null) {
			Integer status = httpStatus(cause);
			if (status != null) {
				return "the collector answered HTTP " + status;
			}
		}
		String type = root.getClass().getSimpleName();
		return (root.getMessage() != null && !root.getMessage().isBlank()) ? type + ": " + root.getMessage() : type;
	}

	/** The SDK's (internal) HTTP failure carries the collector's answer; its status, if it has one. */
	private static @Nullable Integer httpStatus(Throwable failure) {
		try {
			Method getResponse = failure.getClass().getMethod("getResponse");
			Object response = getResponse.invoke(failure);
			if (response == null) {
				return null;
			}
			Method statusCode = response.getClass().getMethod("statusCode");
			statusCode.setAccessible(true);
			return (Integer) statusCode.invoke(response);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

}
