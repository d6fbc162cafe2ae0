package io.github.startuptelemetry.lifecycle;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import io.github.startuptelemetry.lifecycle.internal.BootOtlpProperties;
import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;
import io.github.startuptelemetry.contract.TelemetryEnv;

/**
 * The first step of {@link TelemetryEnvironmentPostProcessor}: NeMo's settings become defaults of
 * ours ({@link NemoDefaults}), then the standard {@code OTEL_EXPORTER_OTLP_*} variables point Boot's
 * OTLP span exporter, which Boot 4.0.7 does not read them for, as lowest-precedence
 * {@code management.opentelemetry.tracing.export.otlp.*} defaults ({@link BootOtlpProperties}).
 */
class OtlpExportDefaults {

	static final String PROPERTY_SOURCE_NAME = "startupTelemetryOtlpEnvironment";

	/** Boot's OTLP span exporter configuration: what reads the traces properties this maps to. */
	static final String BOOT_OTLP_TRACING = "org/springframework/boot/micrometer/tracing/opentelemetry/autoconfigure/otlp/OtlpTracingAutoConfiguration.class";

	/** Boot's OTLP meter registry configuration: what pushes to {@code localhost:4318} unless told not to. */
	static final String BOOT_OTLP_METRICS = "org/springframework/boot/micrometer/metrics/autoconfigure/export/otlp/OtlpMetricsExportAutoConfiguration.class";

	private final Log logger;

	OtlpExportDefaults(Log logger) {
		this.logger = logger;
	}

	void apply(ConfigurableEnvironment environment, Map<String, String> env) {
		if (!TelemetrySwitch.enabled(environment)) {
			return;
		}
		try {
			NemoDefaults.apply(environment, env);
		}
		catch (RuntimeException ex) {
			this.logger.debug("Ignoring the NeMo telemetry environment after a failure", ex);
		}
		try {
			if (!TelemetrySwitch.enabled(environment)) {
				// NeMo's variables said off
				return;
			}
			ClassLoader classLoader = OtlpExportDefaults.class.getClassLoader();
			Map<String, Object> defaults = (environment.containsProperty(BootOtlpProperties.ENDPOINT_PROPERTY)
					|| !present(classLoader, BOOT_OTLP_TRACING)) ? new LinkedHashMap<>()
							: exportSettings(environment, env, classLoader);
			if (present(classLoader, BOOT_OTLP_METRICS) && metricsUnconfigured(environment, env)) {
				Map<String, Object> metrics = metricsFollowTraces(environment);
				if (metrics.isEmpty()) {
					defaults.put(BootOtlpProperties.METRICS_ENABLED_PROPERTY, false);
				}
				defaults.putAll(metrics);
			}
			if (!defaults.isEmpty()) {
				environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, defaults));
			}
		}
		catch (RuntimeException ex) {
			this.logger.debug("Ignoring the OTEL_EXPORTER_OTLP_* environment after a failure", ex);
		}
	}

	/** Whether the application has this piece of Boot: a look at the class path, no class loaded. */
	static boolean present(ClassLoader classLoader, String classResource) {
		return classLoader != null && classLoader.getResource(classResource) != null;
	}

	/**
	 * Boot's OTLP meter registry pushes to {@code localhost:4318} when nobody configured it, and
	 * logs a stack trace at every failed push and at shutdown. The starter brings that registry
	 * along, so it keeps it quiet until an endpoint is configured (property or OTEL_* env).
	 */
	private static boolean metricsUnconfigured(ConfigurableEnvironment environment, Map<String, String> env) {
		return !environment.containsProperty(BootOtlpProperties.METRICS_ENABLED_PROPERTY)
				&& !environment.containsProperty(BootOtlpProperties.METRICS_URL_PROPERTY)
				&& !BootOtlpProperties.metricsEndpointInEnv(env);
	}

	/**
	 * Metrics go where the traces go: Boot's trace endpoint property is trace-only, so a process
	 * (a supervisor above all) given only that would export no metrics while its servers, handed
	 * {@code OTEL_EXPORTER_OTLP_ENDPOINT}, do. An OTLP/HTTP traces URL ending in
	 * {@value BootOtlpProperties#TRACES_PATH} gives the metrics URL on the same collector, with the
	 * same headers; any other (gRPC, another path) leaves metrics off as before.
	 */
	private static Map<String, Object> metricsFollowTraces(ConfigurableEnvironment environment) {
		Map<String, Object> metrics = new LinkedHashMap<>();
		String endpoint = environment.getProperty(BootOtlpProperties.ENDPOINT_PROPERTY);
		String transport = environment.getProperty(BootOtlpProperties.TRANSPORT_PROPERTY, "http");
		if (endpoint == null || !"http".equalsIgnoreCase(transport.strip())
				|| BootOtlpProperties.endpointProblem(endpoint) != null || !endpoint.strip().endsWith(BootOtlpProperties.TRACES_PATH)) {
			return metrics;
		}
		String base = endpoint.strip();
		metrics.put(BootOtlpProperties.METRICS_URL_PROPERTY,
				base.substring(0, base.length() - BootOtlpProperties.TRACES_PATH.length()) + BootOtlpProperties.METRICS_PATH);
		Binder.get(environment)
			.bind(BootOtlpProperties.HEADERS_PROPERTY, Bindable.mapOf(String.class, String.class))
			.orElse(Map.of())
			.forEach((name, value) -> metrics.put(BootOtlpProperties.METRICS_HEADERS_PROPERTY + "[" + name + "]", value));
		return metrics;
	}

	private Map<String, Object> exportSettings(ConfigurableEnvironment environment, Map<String, String> env,
			ClassLoader classLoader) {
		String defaultProtocol = BootOtlpProperties.defaultProtocol(env, classLoader);
		BootOtlpProperties.Export export = BootOtlpProperties.fromEnv(env, defaultProtocol,
				(problem) -> this.logger.debug("Ignoring " + problem));
		if (export == null) {
			return new LinkedHashMap<>();
		}
		if (this.logger.isDebugEnabled()) {
			this.logger.debug("Boot's OTLP span exporter: " + (export.grpc() ? "grpc" : "http/protobuf")
					+ ((TelemetryEnv.PROTOCOL_GRPC.equals(defaultProtocol)
							&& BootOtlpProperties.protocolVariables().stream().noneMatch(env::containsKey))
									? " (no OTLP protocol set in a NeMo process: NeMo Gym's default)" : ""));
		}
		boolean userHeaders = Binder.get(environment)
			.bind(BootOtlpProperties.HEADERS_PROPERTY, Bindable.mapOf(String.class, String.class))
			.isBound();
		return export.toProperties(!userHeaders);
	}

}
