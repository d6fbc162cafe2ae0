package io.github.startuptelemetry.lifecycle.internal;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.contract.NemoEnv;
import io.github.startuptelemetry.contract.ResourceAttributes;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;

/**
 * The telemetry settings a supervisor hands every server it spawns (NeMo RL's
 * {@code init_telemetry_driver}): the {@code TELEMETRY_*} form of the {@code telemetry.*} settings
 * it was explicitly given and the standard {@code OTEL_*} variables, so that a server configured
 * with nothing exports where its supervisor does, JVM or not. Resolved once; a misconfiguration is
 * left out and reported, naming the property, never a header value.
 */
public final class ChildTelemetrySettings {

	private static final Log logger = LogFactory.getLog(ChildTelemetrySettings.class);

	/** Attributes that describe one process, never inherited from the supervisor's own. */
	private static final Set<String> PER_PROCESS_ATTRIBUTES = Set.of(ResourceAttributes.SERVICE_NAME,
			ResourceAttributes.PROCESS_PID, ResourceAttributes.RANK, ResourceAttributes.WORLD_SIZE,
			ResourceAttributes.LOCAL_RANK, ResourceAttributes.WORKER_GROUP, ResourceAttributes.HOST_NAME,
			ResourceAttributes.SERVICE_INSTANCE_ID);

	private final ServerEnvBuilder supervisorEnv;

	private final Map<String, String> fleetEnv = new LinkedHashMap<>();

	private final Map<String, String> resourceAttributes = new LinkedHashMap<>();

	private final List<String> problems = new ArrayList<>();

	private final AtomicBoolean reported = new AtomicBoolean();

	private final boolean enabled;

	private String runId;

	/**
	 * @param environment the supervisor's resolved environment
	 * @param processEnv the supervisor's own process environment
	 */
	public ChildTelemetrySettings(Environment environment, Map<String, String> processEnv) {
		this.supervisorEnv = ServerEnvBuilder.of(processEnv);
		Binder binder = Binder.get(environment);
		Boolean enabled = bind(binder, TelemetrySwitch.ENABLED_PROPERTY, Boolean.class);
		this.enabled = enabled == null || enabled;
		if (!this.enabled) {
			this.fleetEnv.put(TelemetryEnv.TELEMETRY_ENABLED, "false");
			this.fleetEnv.put(NemoEnv.GYM_ENABLED, NemoEnv.FALSE);
			return;
		}
		if (!inherit(TelemetryEnv.names(TelemetrySwitch.ENABLED_PROPERTY)) && enabled != null) {
			this.fleetEnv.put(TelemetryEnv.TELEMETRY_ENABLED, "true");
		}
		// a Gym server's telemetry is off unless told otherwise
		if (!inherit(List.of(NemoEnv.GYM_ENABLED))) {
			this.fleetEnv.put(NemoEnv.GYM_ENABLED, NemoEnv.TRUE);
		}
		TelemetryProperties.FLEET_WIDE.forEach((property, type) -> passOn(binder, property, type));
		runId(binder, processEnv);
		String spanGroups = bind(binder, TelemetryProperties.SPAN_GROUPS, String.class);
		if (spanGroups != null && !inherit(NemoEnv.names(NemoEnv.SPAN_GROUPS))) {
			this.fleetEnv.put(NemoEnv.GYM_SPAN_GROUPS, spanGroups);
		}
		exportSettings(binder, processEnv);
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
		if (!inherit(env, List.of(TelemetryEnv.OTEL_SERVICE_NAME)) && name != null) {
			env.put(TelemetryEnv.OTEL_SERVICE_NAME, name);
			// the server's own name, not a group: a Gym server must not make it <name>/<name>
			if (!inherit(env, List.of(NemoEnv.GYM_SERVICE_NAME_PER_SERVER))) {
				env.put(NemoEnv.GYM_SERVICE_NAME_PER_SERVER, "false");
			}
		}
		// what a Gym server calls itself (its nemo.gym.server.name and service.name suffix)
		if (!inherit(env, List.of(NemoEnv.CONFIG_PATH)) && name != null) {
			env.put(NemoEnv.CONFIG_PATH, name);
		}
		if (!inherit(env, List.of(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES))) {
			Map<String, String> attributes = new LinkedHashMap<>(this.resourceAttributes);
			attributes.putAll(ProcessResourceAttributes.serverAttributes(type, rank, worldSize));
			env.put(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES, OtelListValues.formatPairs(attributes));
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
		List<String> names = TelemetryEnv.names(property);
		if (inherit(names)) {
			return;
		}
		Object value = bind(binder, property, type);
		if (value == null) {
			return;
		}
		if (value instanceof URI && !check(property, HttpUrl.problem(value.toString()))) {
			return;
		}
		String text = (value instanceof Duration duration) ? duration.toMillis() + "ms" : value.toString();
		this.fleetEnv.put(names.get(0), text);
	}

	/**
	 * OTLP endpoint and headers: the supervisor's env if it has them (checked, and passed on as
	 * they are), else its {@code telemetry.export.otlp.*}, else Boot's exporter's, written by
	 * {@link BootOtlpProperties}. Headers go with the
	 * endpoint they came with: the YAML's credentials belong to the YAML's collector.
	 */
	private void exportSettings(Binder binder, Map<String, String> processEnv) {
		boolean endpointFromEnv = false;
		for (String name : BootOtlpProperties.endpointVariables()) {
			String value = this.supervisorEnv.inherited(name);
			if (value != null) {
				endpointFromEnv = true;
				check(name, BootOtlpProperties.endpointProblem(value));
				this.fleetEnv.put(name, value);
			}
		}
		BootOtlpProperties.protocolVariables().forEach((name) -> inherit(List.of(name)));
		boolean headersFromEnv = false;
		for (String name : BootOtlpProperties.headersVariables()) {
			String value = this.supervisorEnv.inherited(name);
			if (value != null) {
				headersFromEnv = true;
				OtelListValues.headersProblems(value).forEach((problem) -> this.problems.add(name + ": " + problem));
				this.fleetEnv.put(name, value);
			}
		}
		if (endpointFromEnv) {
			// the protocol the supervisor itself speaks there: gRPC in a NeMo process that can
			handProtocol(BootOtlpProperties.defaultProtocol(processEnv, ChildTelemetrySettings.class.getClassLoader()));
			return;
		}
		String ours = bind(binder, TelemetryProperties.EXPORT_OTLP_ENDPOINT, String.class);
		if (ours != null) {
			// telemetry.export.otlp.*, the supervisor's own: the collector's base URL, as the standard variable has it
			if (check(TelemetryProperties.EXPORT_OTLP_ENDPOINT, BootOtlpProperties.endpointProblem(ours))) {
				this.fleetEnv.put(TelemetryEnv.OTEL_EXPORTER_OTLP_ENDPOINT, ours.strip());
				String protocol = bind(binder, TelemetryProperties.EXPORT_OTLP_PROTOCOL, String.class);
				if (protocol != null && protocol.strip().equalsIgnoreCase(TelemetryEnv.PROTOCOL_GRPC)) {
					this.fleetEnv.put(TelemetryEnv.OTEL_EXPORTER_OTLP_PROTOCOL, TelemetryEnv.PROTOCOL_GRPC);
				}
				if (!headersFromEnv) {
					Map<String, String> headers = bindMap(binder, TelemetryProperties.EXPORT_OTLP_HEADERS);
					List<String> headerProblems = OtelListValues.headerProblems(headers);
					headerProblems.forEach((problem) -> this.problems.add(TelemetryProperties.EXPORT_OTLP_HEADERS + ": " + problem));
					if (headerProblems.isEmpty() && !headers.isEmpty()) {
						this.fleetEnv.put(TelemetryEnv.OTEL_EXPORTER_OTLP_HEADERS, OtelListValues.formatPairs(headers));
					}
				}
				handProtocol(TelemetryEnv.PROTOCOL_HTTP_PROTOBUF);
			}
			return;
		}
		String endpoint = bind(binder, BootOtlpProperties.ENDPOINT_PROPERTY, String.class);
		if (endpoint == null || !check(BootOtlpProperties.ENDPOINT_PROPERTY, BootOtlpProperties.endpointProblem(endpoint))) {
			return;
		}
		String transport = bind(binder, BootOtlpProperties.TRANSPORT_PROPERTY, String.class);
		Map<String, String> headers = Map.of();
		if (!headersFromEnv) {
			headers = bindMap(binder, BootOtlpProperties.HEADERS_PROPERTY);
			List<String> headerProblems = OtelListValues.headerProblems(headers);
			headerProblems.forEach((problem) -> this.problems.add(BootOtlpProperties.HEADERS_PROPERTY + ": " + problem));
			if (!headerProblems.isEmpty()) {
				headers = Map.of();
			}
		}
		this.fleetEnv.putAll(BootOtlpProperties.Export.fromProperties(endpoint, transport, headers).toEnv());
		handProtocol(TelemetryEnv.PROTOCOL_HTTP_PROTOBUF);
	}

	/**
	 * An endpoint without a protocol is HTTP here (Boot's and our default, but for a NeMo process
	 * with a gRPC sender) but gRPC to nemo-lens and other SDKs: say which the supervisor
	 * speaks, unless the supervisor's env says it.
	 */
	private void handProtocol(String protocol) {
		boolean endpoint = BootOtlpProperties.endpointVariables().stream().anyMatch(this.fleetEnv::containsKey);
		boolean set = BootOtlpProperties.protocolVariables().stream().anyMatch(this.fleetEnv::containsKey);
		if (endpoint && !set && this.supervisorEnv.inherited(TelemetryEnv.OTEL_EXPORTER_OTLP_PROTOCOL) == null) {
			this.fleetEnv.put(TelemetryEnv.OTEL_EXPORTER_OTLP_PROTOCOL, protocol);
		}
	}

	/**
	 * The fleet-wide part of the children's resource attributes: the user's extra attributes,
	 * the run id, and the supervisor's configured resource attributes without those that only
	 * describe the supervisor process itself.
	 */
	private void resourceAttributes(Binder binder) {
		String inherited = this.supervisorEnv.inherited(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES);
		if (inherited != null) {
			OtelListValues.parsePairs(inherited)
				.problems()
				.forEach((problem) -> this.problems.add(TelemetryEnv.OTEL_RESOURCE_ATTRIBUTES + ": " + problem));
			return;
		}
		this.resourceAttributes.putAll(bindMap(binder, TelemetryProperties.RESOURCE_ATTRIBUTES));
		this.resourceAttributes.put(ResourceAttributes.RUN_ID, this.runId);
		this.resourceAttributes.put(ResourceAttributes.LEGACY_RUN_ID, this.runId);
		this.resourceAttributes.putAll(bindMap(binder, ProcessResourceAttributes.BOOT_PROPERTY));
		this.resourceAttributes.keySet().removeAll(PER_PROCESS_ATTRIBUTES);
	}

	/**
	 * One run id for the whole fleet ({@link RunId}), handed to every server as
	 * {@code TELEMETRY_RUN_ID} and Gym's {@code NEMO_GYM_OTEL_RUN_ID}, each unless the
	 * supervisor's env already has it (then that value is passed on as it is).
	 */
	private void runId(Binder binder, Map<String, String> processEnv) {
		this.runId = RunId.resolve(bind(binder, TelemetryProperties.RUN_ID, String.class), processEnv);
		if (!inherit(TelemetryEnv.names(TelemetryProperties.RUN_ID))) {
			this.fleetEnv.put(TelemetryEnv.TELEMETRY_RUN_ID, this.runId);
		}
		if (!inherit(List.of(NemoEnv.GYM_RUN_ID))) {
			this.fleetEnv.put(NemoEnv.GYM_RUN_ID, this.runId);
		}
	}

	/** Pass the first of {@code names} the supervisor's env has on unchanged; whether one was. */
	private boolean inherit(List<String> names) {
		return inherit(this.fleetEnv, names);
	}

	private boolean inherit(Map<String, String> env, List<String> names) {
		Map.Entry<String, String> inherited = this.supervisorEnv.inherited(names);
		if (inherited != null) {
			env.put(inherited.getKey(), inherited.getValue());
		}
		return inherited != null;
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

}
