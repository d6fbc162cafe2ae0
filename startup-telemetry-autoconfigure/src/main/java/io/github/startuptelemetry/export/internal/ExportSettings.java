package io.github.startuptelemetry.export.internal;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.contract.ResourceAttributes;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.lifecycle.internal.HttpUrl;
import io.github.startuptelemetry.lifecycle.internal.ProcessResourceAttributes;
import io.github.startuptelemetry.lifecycle.internal.OtelListValues;
import io.github.startuptelemetry.lifecycle.internal.BootOtlpProperties;

/**
 * Where this process's startup telemetry goes, read once from its configuration: our
 * {@code telemetry.export.*}, else Boot's OTLP settings, else the standard
 * {@code OTEL_EXPORTER_OTLP_*} variables, which the SDK reads itself; plus the process's resource.
 * Header values are credentials: {@link #toString()} and {@link #destination()} never show one.
 */
public final class ExportSettings {

	/**
	 * The service name of an application that names itself nowhere (the summary line's too): Boot's
	 * own ({@code OpenTelemetryResourceAttributes}), so that one application has one name whichever
	 * SDK exports it; without the {@code :java} the OpenTelemetry SDK's own default appends.
	 */
	public static final String DEFAULT_SERVICE_NAME = "unknown_service";

	/** Boot's source of {@code service.namespace}, when nothing else sets it. */
	static final String APPLICATION_GROUP = "spring.application.group";

	static final String TRACES_EXPORT_ENABLED = BootOtlpProperties.TRACES_EXPORT_ENABLED_PROPERTY;

	private final Map<String, String> otelProperties;

	private final boolean otlp;

	private final boolean traces;

	private final boolean metrics;

	private final @Nullable String zipkinEndpoint;

	private final @Nullable String destination;

	private final Map<String, String> resourceAttributes;

	private final String serviceName;

	private final @Nullable String serviceNamespace;

	private final OtlpProtocols protocols;

	private ExportSettings(Map<String, String> otelProperties, boolean otlp, boolean traces, boolean metrics,
			@Nullable String zipkinEndpoint, @Nullable String destination, Map<String, String> resourceAttributes,
			String serviceName, @Nullable String serviceNamespace, OtlpProtocols protocols) {
		this.protocols = protocols;
		this.otelProperties = Map.copyOf(otelProperties);
		this.otlp = otlp;
		this.traces = traces;
		this.metrics = metrics;
		this.zipkinEndpoint = zipkinEndpoint;
		this.destination = destination;
		this.resourceAttributes = Map.copyOf(resourceAttributes);
		this.serviceName = serviceName;
		this.serviceNamespace = serviceNamespace;
	}

	/** The settings of a process configured by {@code environment}, whose process env is {@code env}. */
	public static ExportSettings of(Environment environment, Map<String, String> env) {
		return of(environment, env, ExportSettings.class.getClassLoader());
	}

	/**
	 * The settings of a process configured by {@code environment}, whose process env is
	 * {@code env}, with the gRPC sender {@code classLoader} has, if any.
	 */
	static ExportSettings of(Environment environment, Map<String, String> env, ClassLoader classLoader) {
		Binder binder = Binder.get(environment);
		OtlpProtocols protocols;
		Map<String, String> properties = new LinkedHashMap<>();
		String destination = null;
		boolean otlp;
		String ours = text(environment.getProperty(TelemetryProperties.EXPORT_OTLP_ENDPOINT));
		String bootTraces = text(environment.getProperty(BootOtlpProperties.ENDPOINT_PROPERTY));
		String bootMetrics = text(environment.getProperty(BootOtlpProperties.METRICS_URL_PROPERTY));
		if (ours != null && HttpUrl.isValid(ours)) {
			// ours, as a unit: the base URL for both signals, its headers or none, its protocol
			otlp = true;
			destination = ours;
			boolean grpc = grpc(environment.getProperty(TelemetryProperties.EXPORT_OTLP_PROTOCOL));
			protocols = OtlpProtocols.set(TelemetryProperties.EXPORT_OTLP_PROTOCOL, grpc, grpc, classLoader);
			properties.put("otel.exporter.otlp.protocol", grpc ? TelemetryEnv.PROTOCOL_GRPC : TelemetryEnv.PROTOCOL_HTTP_PROTOBUF);
			properties.put("otel.exporter.otlp.traces.protocol", grpc ? TelemetryEnv.PROTOCOL_GRPC : TelemetryEnv.PROTOCOL_HTTP_PROTOBUF);
			properties.put("otel.exporter.otlp.metrics.protocol", grpc ? TelemetryEnv.PROTOCOL_GRPC : TelemetryEnv.PROTOCOL_HTTP_PROTOBUF);
			properties.put("otel.exporter.otlp.traces.endpoint", grpc ? ours : BootOtlpProperties.tracesUrl(ours));
			properties.put("otel.exporter.otlp.metrics.endpoint", grpc ? ours : metricsUrl(ours));
			headers(properties, "otel.exporter.otlp.headers",
					stringMap(binder, TelemetryProperties.EXPORT_OTLP_HEADERS));
			properties.put("otel.exporter.otlp.traces.headers", "");
			properties.put("otel.exporter.otlp.metrics.headers", "");
		}
		else if ((bootTraces != null && HttpUrl.isValid(bootTraces))
				|| (bootMetrics != null && HttpUrl.isValid(bootMetrics))) {
			// Boot's settings, each signal as Boot has it; metrics follow an OTLP/HTTP traces URL
			otlp = true;
			boolean grpc = grpc(environment.getProperty(BootOtlpProperties.TRANSPORT_PROPERTY));
			// Micrometer's OTLP registry, whose URL this is, speaks OTLP/HTTP only
			protocols = OtlpProtocols.set(BootOtlpProperties.TRANSPORT_PROPERTY, grpc, false, classLoader);
			Map<String, String> traceHeaders = stringMap(binder, BootOtlpProperties.HEADERS_PROPERTY);
			properties.put("otel.exporter.otlp.headers", "");
			if (bootTraces != null && HttpUrl.isValid(bootTraces)) {
				destination = bootTraces;
				properties.put("otel.exporter.otlp.traces.endpoint", bootTraces);
				properties.put("otel.exporter.otlp.traces.protocol",
						grpc ? TelemetryEnv.PROTOCOL_GRPC : TelemetryEnv.PROTOCOL_HTTP_PROTOBUF);
				headers(properties, "otel.exporter.otlp.traces.headers", traceHeaders);
			}
			if (bootMetrics != null && HttpUrl.isValid(bootMetrics)) {
				destination = (destination != null) ? destination : bootMetrics;
				properties.put("otel.exporter.otlp.metrics.endpoint", bootMetrics);
				properties.put("otel.exporter.otlp.metrics.protocol", TelemetryEnv.PROTOCOL_HTTP_PROTOBUF);
				headers(properties, "otel.exporter.otlp.metrics.headers",
						stringMap(binder, BootOtlpProperties.METRICS_HEADERS_PROPERTY));
			}
			else if (!grpc && bootTraces.endsWith(BootOtlpProperties.TRACES_PATH)) {
				properties.put("otel.exporter.otlp.metrics.endpoint",
						bootTraces.substring(0, bootTraces.length() - BootOtlpProperties.TRACES_PATH.length())
								+ BootOtlpProperties.METRICS_PATH);
				properties.put("otel.exporter.otlp.metrics.protocol", TelemetryEnv.PROTOCOL_HTTP_PROTOBUF);
				headers(properties, "otel.exporter.otlp.metrics.headers", traceHeaders);
			}
		}
		else {
			// the standard variables (or otel.* system properties), read by the SDK itself
			destination = firstValid(env.get(TelemetryEnv.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
					env.get(TelemetryEnv.OTEL_EXPORTER_OTLP_ENDPOINT),
					env.get(TelemetryEnv.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT),
					System.getProperty("otel.exporter.otlp.traces.endpoint"),
					System.getProperty("otel.exporter.otlp.endpoint"),
					System.getProperty("otel.exporter.otlp.metrics.endpoint"));
			otlp = destination != null;
			protocols = OtlpProtocols.fromEnv(env, classLoader);
		}
		boolean traces = !Boolean.FALSE.equals(flag(environment, TRACES_EXPORT_ENABLED));
		boolean metrics = !Boolean.FALSE.equals(flag(environment, BootOtlpProperties.METRICS_ENABLED_PROPERTY));
		String zipkin = text(environment.getProperty(TelemetryProperties.EXPORT_ZIPKIN_ENDPOINT));
		zipkin = (zipkin != null && HttpUrl.isValid(zipkin)) ? zipkin : null;
		if (destination == null) {
			destination = zipkin;
		}
		Map<String, String> resource = stringMap(binder, ProcessResourceAttributes.BOOT_PROPERTY);
		return new ExportSettings(properties, otlp, traces, metrics, zipkin, destination, resource,
				serviceName(environment), text(environment.getProperty(APPLICATION_GROUP)), protocols);
	}

	/**
	 * The service name of a process that configures none ({@code OTEL_SERVICE_NAME}, a
	 * {@code service.name} resource attribute), by Boot's rule: {@code spring.application.name},
	 * else {@value #DEFAULT_SERVICE_NAME}; what its summary line calls it too when nothing names
	 * the server. (A blank {@code spring.application.name} counts as none.)
	 */
	public static String serviceName(Environment environment) {
		String name = text(environment.getProperty("spring.application.name"));
		return (name != null) ? name : DEFAULT_SERVICE_NAME;
	}

	/** Whether anything is configured to receive this process's telemetry. */
	public boolean exports() {
		return exportsTraces() || exportsMetrics();
	}

	/** Whether spans go anywhere: an OTLP collector (traces on) or Zipkin. */
	public boolean exportsTraces() {
		return otlpTraces() || this.zipkinEndpoint != null;
	}

	/**
	 * Whether metrics go to an OTLP collector (not over gRPC without a gRPC sender:
	 * {@link #unsendable()}).
	 */
	public boolean exportsMetrics() {
		return this.otlp && this.metrics && this.protocols.sendable(this.protocols.metrics());
	}

	/** Whether spans go to an OTLP collector (not over gRPC without a gRPC sender). */
	public boolean otlpTraces() {
		return this.otlp && this.traces && this.protocols.sendable(this.protocols.traces());
	}

	/**
	 * Whether an OTLP export is configured that cannot go: a protocol set to gRPC (not NeMo's
	 * default, which falls back to OTLP/HTTP) and no gRPC sender on the class path.
	 */
	public boolean unsendable() {
		return this.otlp && ((this.traces && !this.protocols.sendable(this.protocols.traces()))
				|| (this.metrics && !this.protocols.sendable(this.protocols.metrics())));
	}

	/** How this process's OTLP export goes: the protocol of each signal, and what chose it. */
	OtlpProtocols protocols() {
		return this.protocols;
	}

	/** The OpenTelemetry SDK properties ({@code otel.*}) that win over the process's own. */
	public Map<String, String> otelProperties() {
		return this.otelProperties;
	}

	/** Zipkin's span endpoint, or {@code null}. */
	public @Nullable String zipkinEndpoint() {
		return this.zipkinEndpoint;
	}

	/** {@code management.opentelemetry.resource-attributes}: they win over the environment's. */
	public Map<String, String> resourceAttributes() {
		return this.resourceAttributes;
	}

	/** The service name when nothing configures one. */
	public String serviceName() {
		return this.serviceName;
	}

	/**
	 * {@code spring.application.group}: the service namespace when nothing configures one, as in
	 * Boot; {@code null} without it.
	 */
	public @Nullable String serviceNamespace() {
		return this.serviceNamespace;
	}

	/**
	 * Where the telemetry goes, for people: scheme, host and port only (a URL may carry
	 * credentials in its user info or query), or {@code null}.
	 */
	public @Nullable String destination() {
		return redact(this.destination);
	}

	static @Nullable String redact(@Nullable String url) {
		if (url == null) {
			return null;
		}
		try {
			java.net.URI uri = new java.net.URI(url.strip());
			return uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getHost()
					+ ((uri.getPort() >= 0) ? ":" + uri.getPort() : "");
		}
		catch (java.net.URISyntaxException | RuntimeException ex) {
			return "(an unreadable URL)";
		}
	}

	/** Names and destinations only: header values are credentials. */
	@Override
	public String toString() {
		return "ExportSettings{otlp=" + this.otlp + ", traces=" + this.traces + ", metrics=" + this.metrics
				+ ", zipkin=" + (this.zipkinEndpoint != null) + ", destination=" + destination() + ", " + this.protocols
				+ ", overrides=" + this.otelProperties.keySet() + "}";
	}

	private static String metricsUrl(String base) {
		String stripped = base.strip();
		return (stripped.endsWith("/") ? stripped.substring(0, stripped.length() - 1) : stripped)
				+ BootOtlpProperties.METRICS_PATH;
	}

	private static void headers(Map<String, String> properties, String key, Map<String, String> headers) {
		properties.put(key, OtelListValues.headerProblems(headers).isEmpty() ? OtelListValues.formatPairs(headers) : "");
	}

	private static boolean grpc(@Nullable String protocol) {
		return protocol != null && protocol.strip().equalsIgnoreCase(TelemetryEnv.PROTOCOL_GRPC);
	}

	private static @Nullable String firstValid(String... urls) {
		for (String url : urls) {
			String text = text(url);
			if (text != null && HttpUrl.isValid(text)) {
				return text;
			}
		}
		return null;
	}

	private static @Nullable Boolean flag(Environment environment, String name) {
		String value = text(environment.getProperty(name));
		if (value == null) {
			return null;
		}
		return switch (value.toLowerCase(Locale.ROOT)) {
			case "false", "off", "no", "0" -> Boolean.FALSE;
			case "true", "on", "yes", "1" -> Boolean.TRUE;
			default -> null;
		};
	}

	private static Map<String, String> stringMap(Binder binder, String name) {
		try {
			return binder.bind(name, Bindable.mapOf(String.class, String.class)).orElse(Map.of());
		}
		catch (RuntimeException ex) {
			return Map.of();
		}
	}

	private static @Nullable String text(@Nullable String value) {
		return (value != null && !value.isBlank()) ? value.strip() : null;
	}

	/** Keys of the resource attributes Spring's configuration sets (for the resource's merge). */
	static boolean namesService(Map<String, String> attributes) {
		return attributes.containsKey(ResourceAttributes.SERVICE_NAME);
	}

}
