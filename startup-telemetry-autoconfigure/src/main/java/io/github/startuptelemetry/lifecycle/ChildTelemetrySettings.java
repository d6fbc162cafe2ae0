package io.github.startuptelemetry.lifecycle;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The telemetry settings a supervisor hands every server it spawns (NeMo RL's
 * {@code init_telemetry_driver} exporting its config for the workers): the {@code TELEMETRY_*}
 * form of the {@code telemetry.*} settings the supervisor was configured with, and the standard
 * {@code OTEL_*} variables, so that a server configured with nothing exports where its
 * supervisor does, JVM or not.
 * <p>
 * A variable the supervisor's own environment already has is passed on unchanged, never
 * replaced (raw env wins over YAML); the one exception is {@code telemetry.enabled=false},
 * which turns the whole fleet off. Only settings the supervisor was explicitly given are
 * passed on, so a server's own defaults and {@code application.yml} stay in charge of the rest.
 * <p>
 * Everything is resolved once, at construction. A misconfiguration (a bad endpoint, malformed
 * headers, an unparsable value) is left out of the children's environment and reported here,
 * once, by the supervisor, naming the property or variable; servers ignore what they cannot
 * use without failing. Header values are secrets: no message and no {@link #toString()} holds
 * one.
 */
public final class ChildTelemetrySettings {

	private static final Log logger = LogFactory.getLog(ChildTelemetrySettings.class);

	static final String OTLP_ENDPOINT_PROPERTY = "management.opentelemetry.tracing.export.otlp.endpoint";

	static final String OTLP_TRANSPORT_PROPERTY = "management.opentelemetry.tracing.export.otlp.transport";

	static final String OTLP_HEADERS_PROPERTY = "management.opentelemetry.tracing.export.otlp.headers";

	static final String RESOURCE_ATTRIBUTES_PROPERTY = "management.opentelemetry.resource-attributes";

	/**
	 * {@code telemetry.*} settings that mean the same in every server, passed on as env, with
	 * the type they bind to ({@link URI}: an http(s) endpoint).
	 */
	private static final Map<String, Class<?>> FLEET_PROPERTIES = fleetProperties();

	/** Attributes that describe one process, never inherited from the supervisor's own. */
	private static final Set<String> PER_PROCESS_ATTRIBUTES = Set.of("service.name",
			ProcessResourceAttributes.PROCESS_PID, ProcessResourceAttributes.RANK,
			ProcessResourceAttributes.WORLD_SIZE, ProcessResourceAttributes.LOCAL_RANK,
			ProcessResourceAttributes.WORKER_GROUP);

	private final Map<String, String> processEnv;

	private final Map<String, String> fleetEnv = new LinkedHashMap<>();

	private final Map<String, String> resourceAttributes = new LinkedHashMap<>();

	private final List<String> problems = new ArrayList<>();

	private final AtomicBoolean reported = new AtomicBoolean();

	private final boolean enabled;

	/**
	 * @param environment the supervisor's resolved environment
	 * @param processEnv the supervisor's own process environment
	 */
	public ChildTelemetrySettings(Environment environment, Map<String, String> processEnv) {
		this.processEnv = Map.copyOf(processEnv);
		Binder binder = Binder.get(environment);
		Boolean enabled = bind(binder, TelemetrySwitch.ENABLED_PROPERTY, Boolean.class);
		this.enabled = enabled == null || enabled;
		if (!this.enabled) {
			this.fleetEnv.put(TelemetrySwitch.ENABLED_ENV, "false");
			return;
		}
		if (!inherit(envNames(TelemetrySwitch.ENABLED_PROPERTY)) && enabled != null) {
			this.fleetEnv.put(TelemetrySwitch.ENABLED_ENV, "true");
		}
		FLEET_PROPERTIES.forEach((property, type) -> passOn(binder, property, type));
		exportSettings(binder);
		resourceAttributes(binder);
	}

	/** The settings of the supervisor this JVM runs, with its own process environment. */
	public static ChildTelemetrySettings of(Environment environment) {
		return new ChildTelemetrySettings(environment, System.getenv());
	}

	/**
	 * The env to add to a server's environment: the fleet-wide settings, plus the server's own
	 * {@code OTEL_SERVICE_NAME} and resource attributes (rank, world size, worker group = its
	 * type). With telemetry off, only {@code TELEMETRY_ENABLED=false}.
	 *
	 * @param name the server's name ({@code service.name})
	 * @param type the server's type (its worker group), or {@code null}
	 * @param rank the server's rank among the replicas of its type
	 * @param worldSize the number of replicas of its type
	 */
	public Map<String, String> forServer(String name, String type, int rank, int worldSize) {
		Map<String, String> env = new LinkedHashMap<>(this.fleetEnv);
		if (!this.enabled) {
			return env;
		}
		String serviceName = this.processEnv.getOrDefault(OtelEnv.SERVICE_NAME, name);
		if (serviceName != null) {
			env.put(OtelEnv.SERVICE_NAME, serviceName);
		}
		String inherited = this.processEnv.get(OtelEnv.RESOURCE_ATTRIBUTES);
		if (inherited != null) {
			env.put(OtelEnv.RESOURCE_ATTRIBUTES, inherited);
		}
		else {
			Map<String, String> attributes = new LinkedHashMap<>(this.resourceAttributes);
			attributes.put(ProcessResourceAttributes.RANK, Integer.toString(rank));
			attributes.put(ProcessResourceAttributes.WORLD_SIZE, Integer.toString(worldSize));
			if (type != null && !type.isBlank()) {
				attributes.put(ProcessResourceAttributes.WORKER_GROUP, type);
			}
			env.put(OtelEnv.RESOURCE_ATTRIBUTES, OtelEnv.formatPairs(attributes));
		}
		return env;
	}

	/** Whether the supervisor's telemetry, and so the fleet's, is on. */
	public boolean enabled() {
		return this.enabled;
	}

	/** Each misconfiguration, one line naming the property or variable; never a value. */
	public List<String> problems() {
		return List.copyOf(this.problems);
	}

	/** Log each misconfiguration at WARN, the first time only, and return them. */
	public List<String> validate() {
		if (this.reported.compareAndSet(false, true)) {
			for (String problem : this.problems) {
				logger.warn("Telemetry misconfiguration, not passed on to servers: " + problem);
			}
		}
		return problems();
	}

	/** Variable names only: values may be secrets. */
	@Override
	public String toString() {
		return "ChildTelemetrySettings{enabled=" + this.enabled + ", env=" + this.fleetEnv.keySet() + ", problems="
				+ this.problems.size() + "}";
	}

	private void passOn(Binder binder, String property, Class<?> type) {
		if (inherit(envNames(property))) {
			return;
		}
		Object value = bind(binder, property, type);
		if (value == null) {
			return;
		}
		if (value instanceof URI && !check(property, OtelEnv.endpointProblem(value.toString()))) {
			return;
		}
		String text = (value instanceof Duration duration) ? duration.toMillis() + "ms" : value.toString();
		this.fleetEnv.put(envNames(property).get(0), text);
	}

	/** OTLP endpoint and headers: the supervisor's env if it has them, else its own exporter's. */
	private void exportSettings(Binder binder) {
		boolean endpointFromEnv = false;
		for (String name : List.of(OtelEnv.ENDPOINT, OtelEnv.TRACES_ENDPOINT)) {
			String value = this.processEnv.get(name);
			if (value != null) {
				endpointFromEnv = true;
				check(name, OtelEnv.endpointProblem(value));
				this.fleetEnv.put(name, value);
			}
		}
		inherit(List.of(OtelEnv.PROTOCOL));
		inherit(List.of(OtelEnv.TRACES_PROTOCOL));
		boolean headersFromEnv = false;
		for (String name : List.of(OtelEnv.HEADERS, OtelEnv.TRACES_HEADERS)) {
			String value = this.processEnv.get(name);
			if (value != null) {
				headersFromEnv = true;
				OtelEnv.Pairs headers = OtelEnv.parsePairs(value);
				headers.problems().forEach((problem) -> this.problems.add(name + ": " + problem));
				OtelEnv.headerProblems(headers.pairs()).forEach((problem) -> this.problems.add(name + ": " + problem));
				this.fleetEnv.put(name, value);
			}
		}
		if (endpointFromEnv) {
			return;
		}
		String endpoint = bind(binder, OTLP_ENDPOINT_PROPERTY, String.class);
		if (endpoint == null || !check(OTLP_ENDPOINT_PROPERTY, OtelEnv.endpointProblem(endpoint))) {
			return;
		}
		String transport = bind(binder, OTLP_TRANSPORT_PROPERTY, String.class);
		if (transport != null && transport.strip().equalsIgnoreCase(OtelEnv.GRPC)) {
			this.fleetEnv.put(OtelEnv.ENDPOINT, endpoint.strip());
			this.fleetEnv.put(OtelEnv.PROTOCOL, OtelEnv.GRPC);
		}
		else if (endpoint.strip().endsWith(OtelEnv.TRACES_PATH)) {
			String url = endpoint.strip();
			this.fleetEnv.put(OtelEnv.ENDPOINT, url.substring(0, url.length() - OtelEnv.TRACES_PATH.length()));
		}
		else {
			this.fleetEnv.put(OtelEnv.TRACES_ENDPOINT, endpoint.strip());
		}
		if (!headersFromEnv) {
			Map<String, String> headers = bindMap(binder, OTLP_HEADERS_PROPERTY);
			List<String> headerProblems = OtelEnv.headerProblems(headers);
			headerProblems.forEach((problem) -> this.problems.add(OTLP_HEADERS_PROPERTY + ": " + problem));
			if (!headers.isEmpty() && headerProblems.isEmpty()) {
				this.fleetEnv.put(OtelEnv.HEADERS, OtelEnv.formatPairs(headers));
			}
		}
	}

	/**
	 * The fleet-wide part of the children's resource attributes: the user's extra attributes,
	 * the run id, and the supervisor's configured resource attributes without those that only
	 * describe the supervisor process itself.
	 */
	private void resourceAttributes(Binder binder) {
		String inherited = this.processEnv.get(OtelEnv.RESOURCE_ATTRIBUTES);
		if (inherited != null) {
			OtelEnv.parsePairs(inherited)
				.problems()
				.forEach((problem) -> this.problems.add(OtelEnv.RESOURCE_ATTRIBUTES + ": " + problem));
			return;
		}
		this.resourceAttributes.putAll(bindMap(binder, "telemetry.resource-attributes"));
		String runId = bind(binder, "telemetry.run-id", String.class);
		if (runId != null && !runId.isBlank()) {
			this.resourceAttributes.put(ProcessResourceAttributes.RUN_ID, runId.strip());
		}
		this.resourceAttributes.putAll(bindMap(binder, RESOURCE_ATTRIBUTES_PROPERTY));
		this.resourceAttributes.keySet().removeAll(PER_PROCESS_ATTRIBUTES);
	}

	/** Pass the first of {@code names} the supervisor's env has on unchanged; whether one was. */
	private boolean inherit(List<String> names) {
		for (String name : names) {
			String value = this.processEnv.get(name);
			if (value != null) {
				this.fleetEnv.put(name, value);
				return true;
			}
		}
		return false;
	}

	private boolean check(String name, String problem) {
		if (problem != null) {
			this.problems.add(name + " " + problem);
			return false;
		}
		return true;
	}

	private <T> T bind(Binder binder, String property, Class<T> type) {
		try {
			return binder.bind(property, type).orElse(null);
		}
		catch (RuntimeException ex) {
			this.problems.add(property + " is not a valid " + type.getSimpleName());
			return null;
		}
	}

	private Map<String, String> bindMap(Binder binder, String property) {
		try {
			return binder.bind(property, Bindable.mapOf(String.class, String.class)).orElse(Map.of());
		}
		catch (RuntimeException ex) {
			this.problems.add(property + " is not a map of strings");
			return Map.of();
		}
	}

	/**
	 * The env forms of a property under Spring's relaxed binding: dashes as underscores (as the
	 * fleet launcher writes them, e.g. {@code TELEMETRY_WORLD_SIZE}) first, then without them.
	 */
	static List<String> envNames(String property) {
		String upper = property.replace('.', '_').toUpperCase(Locale.ROOT);
		Set<String> names = new LinkedHashSet<>();
		names.add(upper.replace('-', '_'));
		names.add(upper.replace("-", ""));
		return List.copyOf(names);
	}

	private static Map<String, Class<?>> fleetProperties() {
		Map<String, Class<?>> properties = new LinkedHashMap<>();
		properties.put("telemetry.run-id", String.class);
		properties.put("telemetry.shutdown-timeout", Duration.class);
		properties.put("telemetry.startup.log-summary", Boolean.class);
		properties.put("telemetry.startup.bean-spans.enabled", Boolean.class);
		properties.put("telemetry.startup.bean-spans.threshold", Duration.class);
		properties.put("telemetry.export.zipkin.endpoint", URI.class);
		return properties;
	}

}
