package io.github.startuptelemetry.internal;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * The one place that knows which Spring Boot line runs (3.5, or 4.0 and later) and what Boot
 * calls its classes and properties on it, decided once from class-path resources, no Boot class
 * loaded. The constants name both lines' classes for annotations (inlined where used).
 */
public final class BootLine {

	/** Boot 4's environment post-processor interface, a resource; Boot 3 has it in another package. */
	public static final String BOOT_4_MARK = "org/springframework/boot/EnvironmentPostProcessor.class";

	/** Boot 4's OpenTelemetry SDK auto-configuration (module {@code spring-boot-opentelemetry}). */
	public static final String OPENTELEMETRY_SDK = "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration";

	/** Boot 3's, in {@code spring-boot-actuator-autoconfigure}. */
	public static final String BOOT_3_OPENTELEMETRY_SDK = "org.springframework.boot.actuate.autoconfigure.opentelemetry.OpenTelemetryAutoConfiguration";

	/** Boot 4's OTLP meter registry auto-configuration. */
	public static final String OTLP_METRICS = "org.springframework.boot.micrometer.metrics.autoconfigure.export.otlp.OtlpMetricsExportAutoConfiguration";

	/** Boot 3's. */
	public static final String BOOT_3_OTLP_METRICS = "org.springframework.boot.actuate.autoconfigure.metrics.export.otlp.OtlpMetricsExportAutoConfiguration";

	private static final String BOOT_4_TRACING_PACKAGE = "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.";

	private static final String BOOT_3_TRACING_PACKAGE = "org.springframework.boot.actuate.autoconfigure.tracing.";

	private static final String BOOT_4_OTLP_TRACING = "management.opentelemetry.tracing.export.otlp.";

	private static final String BOOT_3_OTLP_TRACING = "management.otlp.tracing.";

	private static final @Nullable ClassLoader LOADER = BootLine.class.getClassLoader();

	/** Whether Boot 4.0 or later runs (else 3.5). */
	public static final boolean BOOT_4 = present(BOOT_4_MARK);

	/**
	 * Whether Boot maps the {@code OTEL_*} variables onto its properties itself (4.1 and later,
	 * with {@code spring-boot-opentelemetry}), unless {@link #MAP_ENVIRONMENT_VARIABLES} is false.
	 */
	public static final boolean BOOT_MAPS_OTEL_ENVIRONMENT = present(
			"org/springframework/boot/opentelemetry/autoconfigure/OpenTelemetryEnvironmentVariableEnvironmentPostProcessor.class");

	/** Boot 4.1's switch for that mapping (default true). */
	public static final String MAP_ENVIRONMENT_VARIABLES = "management.opentelemetry.map-environment-variables";

	/** This line's OpenTelemetry SDK auto-configuration: where it defines the OpenTelemetry bean. */
	public static final String OPENTELEMETRY_SDK_CONFIGURATION = BOOT_4 ? OPENTELEMETRY_SDK : BOOT_3_OPENTELEMETRY_SDK;

	/** The package of this line's OpenTelemetry tracing auto-configuration and of the bean types it defines. */
	public static final String OPENTELEMETRY_TRACING_PACKAGE = BOOT_4 ? BOOT_4_TRACING_PACKAGE : BOOT_3_TRACING_PACKAGE;

	/** This line's OpenTelemetry tracing auto-configuration. */
	public static final String OPENTELEMETRY_TRACING_CONFIGURATION = OPENTELEMETRY_TRACING_PACKAGE
			+ "OpenTelemetryTracingAutoConfiguration";

	/** This line's OTLP span exporter configuration: what reads the traces properties below. */
	public static final String OTLP_TRACING_CONFIGURATION = OPENTELEMETRY_TRACING_PACKAGE + "otlp.OtlpTracingAutoConfiguration";

	/** This line's OTLP meter registry configuration. */
	public static final String OTLP_METRICS_CONFIGURATION = BOOT_4 ? OTLP_METRICS : BOOT_3_OTLP_METRICS;

	/** This line's close of every meter registry at context close: nested in its configuration until 4.1. */
	public static final String METER_REGISTRY_CLOSER = BOOT_4 ? meterRegistryCloser("org.springframework.boot.micrometer.metrics.autoconfigure.")
			: "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration$MeterRegistryCloser";

	private static final String WEB_SERVER_CONTEXT_PACKAGE = BOOT_4 ? "org.springframework.boot.web.server.context."
			: "org.springframework.boot.web.context.";

	/** This line's event of a started web server. */
	public static final String WEB_SERVER_INITIALIZED_EVENT = WEB_SERVER_CONTEXT_PACKAGE + "WebServerInitializedEvent";

	/** This line's context of an application with a web server. */
	public static final String WEB_SERVER_APPLICATION_CONTEXT = WEB_SERVER_CONTEXT_PACKAGE + "WebServerApplicationContext";

	/** Boot's OTLP traces URL. */
	public static final String OTLP_TRACES_ENDPOINT = otlpTracing() + "endpoint";

	/** Boot's OTLP traces transport: {@code http} (the default) or {@code grpc}. */
	public static final String OTLP_TRACES_TRANSPORT = otlpTracing() + "transport";

	/** Boot's OTLP traces header map. */
	public static final String OTLP_TRACES_HEADERS = otlpTracing() + "headers";

	/** Boot's switch for exporting traces at all. */
	public static final String TRACES_EXPORT_ENABLED = BOOT_4 ? "management.tracing.export.enabled"
			: "management.tracing.enabled";

	private BootLine() {
	}

	/** Whether {@code eventType} is (or extends) this line's {@link #WEB_SERVER_INITIALIZED_EVENT}: by name, nothing loaded. */
	public static boolean isWebServerInitialized(Class<?> eventType) {
		for (Class<?> type = eventType; type != null; type = type.getSuperclass()) {
			if (type.getName().equals(WEB_SERVER_INITIALIZED_EVENT)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The application context of a web-server-initialized event: its type's package differs
	 * between the lines, so it is asked for by name; {@code null} when it cannot be.
	 */
	public static @Nullable Object webServerContext(Object event) {
		try {
			Method method = event.getClass().getMethod("getApplicationContext");
			return method.invoke(event);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

	/** Whether the class {@code className} is on the class path of this class: a look, nothing loaded. */
	public static boolean onClassPath(String className) {
		return present(resource(className));
	}

	private static String meterRegistryCloser(String metricsPackage) {
		String own = metricsPackage + "MeterRegistryCloser";
		return onClassPath(own) ? own : metricsPackage + "MetricsAutoConfiguration$MeterRegistryCloser";
	}

	private static String otlpTracing() {
		return BOOT_4 ? BOOT_4_OTLP_TRACING : BOOT_3_OTLP_TRACING;
	}

	private static String resource(String className) {
		return className.replace('.', '/') + ".class";
	}

	private static boolean present(String resource) {
		try {
			return LOADER != null && LOADER.getResource(resource) != null;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

}
