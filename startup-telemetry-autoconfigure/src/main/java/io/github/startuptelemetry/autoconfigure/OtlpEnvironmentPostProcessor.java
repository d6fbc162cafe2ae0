package io.github.startuptelemetry.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import io.github.startuptelemetry.lifecycle.OtelEnv;
import io.github.startuptelemetry.lifecycle.TelemetrySwitch;

/**
 * Points Boot's OTLP span exporter where the standard {@code OTEL_EXPORTER_OTLP_*} env vars say
 * (as a supervisor sets them for its servers), so a server configured with nothing exports where
 * its supervisor does. Boot 4.0.7 does not read them for traces (only Micrometer's OTLP meter
 * registry reads the endpoint and headers for metrics, and Boot's resource reads
 * {@code OTEL_SERVICE_NAME} and {@code OTEL_RESOURCE_ATTRIBUTES}), so this maps
 * {@code OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT}, {@code _HEADERS} and {@code _PROTOCOL} onto
 * {@code management.opentelemetry.tracing.export.otlp.*}.
 * <p>
 * The result is a lowest-precedence property source, and only when the user configured no
 * endpoint: export settings are taken as a unit, so headers meant for the env's collector never
 * go to one the user chose. A malformed value is ignored with a debug line naming the variable
 * (never its value: headers are credentials); it never fails the server.
 */
class OtlpEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	static final String PROPERTY_SOURCE_NAME = "startupTelemetryOtlpEnvironment";

	static final String ENDPOINT = "management.opentelemetry.tracing.export.otlp.endpoint";

	static final String TRANSPORT = "management.opentelemetry.tracing.export.otlp.transport";

	static final String HEADERS = "management.opentelemetry.tracing.export.otlp.headers";

	static final String METRICS_ENABLED = "management.otlp.metrics.export.enabled";

	static final String METRICS_URL = "management.otlp.metrics.export.url";

	static final String METRICS_ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT";

	private final Log logger;

	OtlpEnvironmentPostProcessor(DeferredLogFactory logFactory) {
		this.logger = logFactory.getLog(OtlpEnvironmentPostProcessor.class);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		apply(environment, (Map) environment.getSystemEnvironment());
	}

	void apply(ConfigurableEnvironment environment, Map<String, String> env) {
		try {
			if (!TelemetrySwitch.enabled(environment)) {
				return;
			}
			Map<String, Object> defaults = environment.containsProperty(ENDPOINT) ? new LinkedHashMap<>()
					: exportSettings(environment, env);
			if (metricsUnconfigured(environment, env)) {
				defaults.put(METRICS_ENABLED, false);
			}
			if (!defaults.isEmpty()) {
				environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, defaults));
			}
		}
		catch (RuntimeException ex) {
			this.logger.debug("Ignoring the OTEL_EXPORTER_OTLP_* environment after a failure", ex);
		}
	}

	/**
	 * Boot's OTLP meter registry pushes to {@code localhost:4318} when nobody configured it, and
	 * logs a stack trace at every failed push and at shutdown. The starter brings that registry
	 * along, so it keeps it quiet until an endpoint is configured (property or OTEL_* env).
	 */
	private static boolean metricsUnconfigured(ConfigurableEnvironment environment, Map<String, String> env) {
		return !environment.containsProperty(METRICS_ENABLED) && !environment.containsProperty(METRICS_URL)
				&& env.get(OtelEnv.ENDPOINT) == null && env.get(METRICS_ENDPOINT_ENV) == null;
	}

	private Map<String, Object> exportSettings(ConfigurableEnvironment environment, Map<String, String> env) {
		Map<String, Object> defaults = new LinkedHashMap<>();
		String tracesEndpoint = env.get(OtelEnv.TRACES_ENDPOINT);
		String endpointVariable = (tracesEndpoint != null) ? OtelEnv.TRACES_ENDPOINT : OtelEnv.ENDPOINT;
		String endpoint = (tracesEndpoint != null) ? tracesEndpoint : env.get(OtelEnv.ENDPOINT);
		if (endpoint == null) {
			return defaults;
		}
		String problem = OtelEnv.endpointProblem(endpoint);
		if (problem != null) {
			this.logger.debug("Ignoring " + endpointVariable + ": it " + problem);
			return defaults;
		}
		boolean grpc = grpc(env);
		defaults.put(ENDPOINT, (grpc || tracesEndpoint != null) ? endpoint.strip() : OtelEnv.tracesUrl(endpoint));
		if (grpc) {
			defaults.put(TRANSPORT, OtelEnv.GRPC);
		}
		if (Binder.get(environment).bind(HEADERS, Bindable.mapOf(String.class, String.class)).isBound()) {
			return defaults;
		}
		Map<String, String> headers = new LinkedHashMap<>();
		for (String variable : List.of(OtelEnv.HEADERS, OtelEnv.TRACES_HEADERS)) {
			OtelEnv.Pairs pairs = OtelEnv.parsePairs(env.get(variable));
			List<String> problems = pairs.valid() ? OtelEnv.headerProblems(pairs.pairs()) : pairs.problems();
			if (problems.isEmpty()) {
				headers.putAll(pairs.pairs());
			}
			else {
				this.logger.debug("Ignoring " + variable + ": " + String.join("; ", problems));
			}
		}
		headers.forEach((name, value) -> defaults.put(HEADERS + "[" + name + "]", value));
		return defaults;
	}

	private boolean grpc(Map<String, String> env) {
		String variable = env.containsKey(OtelEnv.TRACES_PROTOCOL) ? OtelEnv.TRACES_PROTOCOL : OtelEnv.PROTOCOL;
		String protocol = env.get(variable);
		if (protocol == null || protocol.strip().equals(OtelEnv.HTTP_PROTOBUF)) {
			return false;
		}
		if (protocol.strip().equals(OtelEnv.GRPC)) {
			return true;
		}
		this.logger.debug("Ignoring " + variable + ": only " + OtelEnv.HTTP_PROTOBUF + " and " + OtelEnv.GRPC
				+ " are supported");
		return false;
	}

}
