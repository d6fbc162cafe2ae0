package io.github.startuptelemetry.internal;

/**
 * Spring Boot classes the starter names without depending on them (conditions, ordering, class
 * path probes), in one place. Compile-time constants: a reader's use of one is inlined, and this
 * class is never loaded.
 */
public final class BootClassNames {

	/** Boot's OpenTelemetry SDK auto-configuration: where it is, the application's own SDK carries the startup. */
	public static final String OPENTELEMETRY_SDK = "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration";

	/** The package of Boot's OpenTelemetry tracing auto-configuration and of the beans it defines. */
	public static final String OPENTELEMETRY_TRACING_PACKAGE = "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.";

	/** Boot's OpenTelemetry tracing auto-configuration: where it is, the application's tracer carries the startup. */
	public static final String OPENTELEMETRY_TRACING = OPENTELEMETRY_TRACING_PACKAGE + "OpenTelemetryTracingAutoConfiguration";

	private BootClassNames() {
	}

}
