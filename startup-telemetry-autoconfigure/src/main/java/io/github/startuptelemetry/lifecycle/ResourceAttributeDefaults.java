package io.github.startuptelemetry.lifecycle;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.apache.commons.logging.Log;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import io.github.startuptelemetry.lifecycle.internal.OtelListValues;
import io.github.startuptelemetry.lifecycle.internal.RunId;
import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.contract.ResourceAttributes;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.autoconfigure.internal.EarlyTelemetryProperties;
import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;
import io.github.startuptelemetry.export.internal.ExportSettings;
import io.github.startuptelemetry.lifecycle.internal.ProcessResourceAttributes;
import io.github.startuptelemetry.internal.HostName;

/**
 * The second step of {@link TelemetryEnvironmentPostProcessor}: adds this process's identity
 * (rank, world size, worker group, run id, pid, host, instance id, on Slurm lens's
 * {@code slurm.*}, and the user's {@code telemetry.resource-attributes}) to Boot's
 * {@code management.opentelemetry.resource-attributes}, so that spans and metrics of one rank can
 * be selected downstream. Defaults only: an attribute the user already set is left alone.
 */
class ResourceAttributeDefaults {

	static final String PROPERTY_SOURCE_NAME = "startupTelemetryResourceAttributes";

	private final Log logger;

	ResourceAttributeDefaults(Log logger) {
		this.logger = logger;
	}

	void apply(ConfigurableEnvironment environment, Map<String, String> env, long pid) {
		try {
			if (!TelemetrySwitch.enabled(environment)) {
				return;
			}
			Binder binder = Binder.get(environment);
			// the six properties it needs, not the whole tree (the context binds that later)
			String configuredRunId = bind(environment, TelemetryProperties.RUN_ID, Bindable.of(String.class));
			String runId = RunId.resolve(configuredRunId, env);
			ProcessResourceAttributes.Identity identity = new ProcessResourceAttributes.Identity(
					bind(environment, TelemetryProperties.RANK, Bindable.of(Integer.class)),
					bind(environment, TelemetryProperties.WORLD_SIZE, Bindable.of(Integer.class)),
					bind(environment, TelemetryProperties.LOCAL_RANK, Bindable.of(Integer.class)),
					bind(environment, TelemetryProperties.WORKER_GROUP, Bindable.of(String.class)), runId,
					bind(environment, TelemetryProperties.RESOURCE_ATTRIBUTES, Bindable.mapOf(String.class, String.class)));
			// off Slurm, or without OTEL_RESOURCE_ATTRIBUTES, their parsers' classes are not even loaded
			Map<String, String> attributes = env.containsKey(TelemetryEnv.SLURM_JOB_ID)
					? new LinkedHashMap<>(SlurmResourceAttributes.resolve(env)) : new LinkedHashMap<>();
			attributes.putAll(ProcessResourceAttributes.resolve(identity, env, pid,
					(variable) -> this.logger.debug("Ignoring " + variable + ": not a non-negative integer")));
			String host = HostName.local();
			if (host != null) {
				attributes.put(ResourceAttributes.HOST_NAME, host);
			}
			if (!serviceNamed(environment, env)) {
				// Boot's default (unknown_service), as the summary line and the starter's own SDK have it
				attributes.put(ResourceAttributes.SERVICE_NAME, ExportSettings.serviceName(environment));
			}
			Set<String> present = new HashSet<>(binder
				.bind(ProcessResourceAttributes.BOOT_PROPERTY, Bindable.mapOf(String.class, String.class))
				.orElse(Map.of())
				.keySet());
			String otelAttributes = env.get(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES);
			if (otelAttributes != null) {
				present.addAll(OtelListValues.parsePairs(otelAttributes).pairs().keySet());
			}
			Map<String, Object> defaults = new LinkedHashMap<>();
			if (configuredRunId == null || configuredRunId.isBlank()) {
				// the one id this process (and, as a supervisor, its fleet) goes by
				defaults.put(TelemetryProperties.RUN_ID, runId);
			}
			// loops, not forEach lambdas: this runs in every process, where each lambda is a class to load
			for (Map.Entry<String, String> missing : ProcessResourceAttributes.missingFrom(attributes, present).entrySet()) {
				defaults.put(ProcessResourceAttributes.BOOT_PROPERTY + "[" + missing.getKey() + "]", missing.getValue());
			}
			if (!defaults.isEmpty()) {
				environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, defaults));
			}
		}
		catch (RuntimeException ex) {
			this.logger.debug("Resource attributes of this process left out after a failure", ex);
		}
	}

	/**
	 * Whether anything names this process's service: {@code OTEL_SERVICE_NAME}, a
	 * {@code service.name} in {@code OTEL_RESOURCE_ATTRIBUTES} or in Boot's resource attributes,
	 * or {@code spring.application.name} (Boot's own default for it).
	 */
	private static boolean serviceNamed(ConfigurableEnvironment environment, Map<String, String> env) {
		String otelName = env.get(TelemetryEnv.OTEL_SERVICE_NAME);
		String otelAttributes = env.get(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES);
		return (otelName != null && !otelName.isBlank())
				|| (otelAttributes != null && otelAttributes.contains(ResourceAttributes.SERVICE_NAME))
				|| environment.containsProperty(ProcessResourceAttributes.BOOT_PROPERTY + "[" + ResourceAttributes.SERVICE_NAME + "]")
				|| environment.containsProperty("spring.application.name");
	}

	/** One property, leniently: {@code null} when unset or unusable. */
	private <T> T bind(ConfigurableEnvironment environment, String name, Bindable<T> target) {
		return EarlyTelemetryProperties.bind(environment, name, target, null, this.logger);
	}

}
