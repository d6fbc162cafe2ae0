package io.github.startuptelemetry.lifecycle;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import io.github.startuptelemetry.lifecycle.internal.BootOtlpProperties;
import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.internal.BootLine;

/**
 * The first step of {@link TelemetryEnvironmentDefaults}: NeMo's settings become defaults of
 * ours ({@link NemoDefaults}), then the standard {@code OTEL_EXPORTER_OTLP_*} variables point Boot's
 * OTLP span exporter, which Boot 3.5 and 4.0 do not read them for, as lowest-precedence defaults of
 * its properties ({@link BootOtlpProperties}). Where Boot maps them itself (4.1), it is left to.
 */
class OtlpExportDefaults {

	static final String PROPERTY_SOURCE_NAME = "startupTelemetryOtlpEnvironment";

	private final Log logger;

	OtlpExportDefaults(Log logger) {
		this.logger = logger;
	}

	void apply(ConfigurableEnvironment environment, Map<String, String> env) {
		apply(environment, env, BootLine.BOOT_MAPS_OTEL_ENVIRONMENT);
	}

	/**
	 * @param bootCanMap whether Boot maps the {@code OTEL_*} variables itself (its switch, on by
	 * default, is read here): then its mapping is the one, and this adds only what Boot cannot know
	 */
	void apply(ConfigurableEnvironment environment, Map<String, String> env, boolean bootCanMap) {
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
			boolean bootMaps = bootCanMap
					&& environment.getProperty(BootLine.MAP_ENVIRONMENT_VARIABLES, Boolean.class, true);
			Map<String, Object> defaults = new LinkedHashMap<>();
			if (present(classLoader, BootLine.OTLP_TRACING_CONFIGURATION)) {
				if (bootMaps) {
					defaults.putAll(nemoProtocol(env, classLoader));
				}
				else if (!environment.containsProperty(BootOtlpProperties.ENDPOINT_PROPERTY)) {
					defaults.putAll(exportSettings(environment, env, classLoader));
				}
			}
			if (present(classLoader, BootLine.OTLP_METRICS_CONFIGURATION) && metricsUnconfigured(environment, env)) {
				// a traces-only variable is Boot's traces URL where it maps: not followed, as where it does not
				boolean tracesFromEnv = bootMaps && anySet(env, BootOtlpProperties.endpointVariables());
				Map<String, Object> metrics = tracesFromEnv ? new LinkedHashMap<>() : metricsFollowTraces(environment);
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
	static boolean present(ClassLoader classLoader, String className) {
		return classLoader != null && classLoader.getResource(className.replace('.', '/') + ".class") != null;
	}

	private static boolean anySet(Map<String, String> env, List<String> variables) {
		for (String variable : variables) {
			if (env.containsKey(variable)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * What Boot's own mapping cannot know: NeMo Gym's gRPC in a NeMo process whose env names an
	 * endpoint and no protocol ({@link BootOtlpProperties#defaultProtocol}), as a default below it.
	 */
	private static Map<String, Object> nemoProtocol(Map<String, String> env, ClassLoader classLoader) {
		Map<String, Object> transport = new LinkedHashMap<>();
		if (anySet(env, BootOtlpProperties.endpointVariables()) && !anySet(env, BootOtlpProperties.protocolVariables())
				&& TelemetryEnv.PROTOCOL_GRPC.equals(BootOtlpProperties.defaultProtocol(env, classLoader))) {
			transport.put(BootOtlpProperties.TRANSPORT_PROPERTY, "grpc");
		}
		return transport;
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
