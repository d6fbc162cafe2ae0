package io.github.startuptelemetry.lifecycle;

import java.util.concurrent.atomic.AtomicReference;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;

/**
 * The process-global telemetry handle (NeMo RL's {@code get_telemetry_handle()}): the
 * application's own {@link OpenTelemetry}, for code that cannot reach the Spring context.
 * {@link #get()} is {@code null} while telemetry is off, not yet initialised, or after the context
 * that set it closed, so callers pay nothing when telemetry is off.
 */
public final class TelemetryHandle {

	private static final AtomicReference<TelemetryHandle> current = new AtomicReference<>();

	private final OpenTelemetry openTelemetry;

	private TelemetryHandle(OpenTelemetry openTelemetry) {
		this.openTelemetry = openTelemetry;
	}

	/** The handle of the running application, or {@code null} when telemetry is off or not set up. */
	public static TelemetryHandle get() {
		return current.get();
	}

	/**
	 * Make {@code openTelemetry} the process-global handle until the returned registration is
	 * closed.
	 */
	public static Registration register(OpenTelemetry openTelemetry) {
		TelemetryHandle handle = new TelemetryHandle(openTelemetry);
		current.set(handle);
		return new Registration(handle);
	}

	/** The application's OpenTelemetry. */
	public OpenTelemetry openTelemetry() {
		return this.openTelemetry;
	}

	/** A tracer of the application's OpenTelemetry for {@code instrumentationScope}. */
	public Tracer tracer(String instrumentationScope) {
		return this.openTelemetry.getTracer(instrumentationScope);
	}

	/** Holds a handle in place; closing it clears the handle if it is still the current one. */
	public static final class Registration implements AutoCloseable {

		private final TelemetryHandle handle;

		private Registration(TelemetryHandle handle) {
			this.handle = handle;
		}

		@Override
		public void close() {
			current.compareAndSet(this.handle, null);
		}

	}

}
