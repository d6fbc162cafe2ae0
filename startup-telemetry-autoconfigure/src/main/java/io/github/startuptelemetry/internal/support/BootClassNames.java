package io.github.startuptelemetry.internal.support;

/**
 * Spring Boot classes the starter names without depending on them (conditions, ordering, class
 * path probes), in one place. Compile-time constants: a reader's use of one is inlined, and this
 * class is never loaded.
 */
public final class BootClassNames {

	/** Boot's OpenTelemetry SDK auto-configuration: where it is, the application's own SDK carries the startup. */
	public static final String OPENTELEMETRY_SDK = "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration";

	private BootClassNames() {
	}

}
