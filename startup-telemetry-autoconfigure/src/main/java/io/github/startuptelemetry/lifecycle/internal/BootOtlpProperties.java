package io.github.startuptelemetry.lifecycle.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.github.startuptelemetry.contract.NemoEnv;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.internal.BootLine;

/**
 * The one mapping between Boot's OTLP trace export properties
 * ({@code management.opentelemetry.tracing.export.otlp.*}, Boot 3's {@code management.otlp.tracing.*}) and the standard
 * {@code OTEL_EXPORTER_OTLP_*} variables, both ways: a supervisor writes its settings as env for
 * its servers ({@link Export#toEnv()}), a server turns that env back into Boot's properties
 * ({@link #fromEnv}), and the two agree. No message holds a header value.
 */
public final class BootOtlpProperties {

	/** Boot's traces URL (this Boot line's name). */
	public static final String ENDPOINT_PROPERTY = BootLine.OTLP_TRACES_ENDPOINT;

	/** Boot's transport: {@code http} (the default) or {@code grpc}. */
	public static final String TRANSPORT_PROPERTY = BootLine.OTLP_TRACES_TRANSPORT;

	/** Boot's header map. */
	public static final String HEADERS_PROPERTY = BootLine.OTLP_TRACES_HEADERS;

	/** Boot's switch for exporting traces at all. */
	public static final String TRACES_EXPORT_ENABLED_PROPERTY = BootLine.TRACES_EXPORT_ENABLED;

	/** Whether Micrometer's OTLP meter registry pushes at all. */
	public static final String METRICS_ENABLED_PROPERTY = "management.otlp.metrics.export.enabled";

	/** The URL Micrometer's OTLP meter registry pushes to. */
	public static final String METRICS_URL_PROPERTY = "management.otlp.metrics.export.url";

	/** The headers Micrometer's OTLP meter registry sends. */
	public static final String METRICS_HEADERS_PROPERTY = "management.otlp.metrics.export.headers";

	/** Path an OTLP/HTTP collector receives metrics on, below its base URL. */
	public static final String METRICS_PATH = "/v1/metrics";

	/** Path an OTLP/HTTP collector receives traces on, below its base URL. */
	public static final String TRACES_PATH = "/v1/traces";

	/**
	 * Where a gRPC sender registers itself (OpenTelemetry's SPI, before and after 1.62): one on
	 * the class path means the SDK's exporters can speak gRPC.
	 */
	private static final List<String> GRPC_SENDER_SERVICES = List.of(
			"META-INF/services/io.opentelemetry.exporter.internal.grpc.GrpcSenderProvider",
			"META-INF/services/io.opentelemetry.sdk.common.export.GrpcSenderProvider");

	private static final List<String> ENDPOINT_VARIABLES = List.of(TelemetryEnv.OTEL_EXPORTER_OTLP_ENDPOINT,
			TelemetryEnv.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);

	private static final List<String> HEADERS_VARIABLES = List.of(TelemetryEnv.OTEL_EXPORTER_OTLP_HEADERS,
			TelemetryEnv.OTEL_EXPORTER_OTLP_TRACES_HEADERS);

	private static final List<String> PROTOCOL_VARIABLES = List.of(TelemetryEnv.OTEL_EXPORTER_OTLP_PROTOCOL,
			TelemetryEnv.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL);

	private BootOtlpProperties() {
	}

	/** The variables that name a traces endpoint, general first. */
	public static List<String> endpointVariables() {
		return ENDPOINT_VARIABLES;
	}

	/** The variables that carry headers, general first. */
	public static List<String> headersVariables() {
		return HEADERS_VARIABLES;
	}

	/** The variables that carry the protocol, general first. */
	public static List<String> protocolVariables() {
		return PROTOCOL_VARIABLES;
	}

	/**
	 * The OTLP protocol of a process whose env names none: gRPC in a NeMo Gym or nemo-lens
	 * process ({@link NemoEnv#inNemoProcess}), as their Python servers speak it there, when the
	 * process can (a gRPC sender on {@code classLoader}'s class path); else {@code http/protobuf}, the standard's default and
	 * ours (nemo-lens too falls back to HTTP without its gRPC exporter).
	 */
	public static String defaultProtocol(Map<String, String> env, ClassLoader classLoader) {
		return (NemoEnv.inNemoProcess(env) && grpcSenderPresent(classLoader)) ? TelemetryEnv.PROTOCOL_GRPC
				: TelemetryEnv.PROTOCOL_HTTP_PROTOBUF;
	}

	/**
	 * Whether an OpenTelemetry gRPC sender is on {@code classLoader}'s class path (the add-on
	 * {@code startup-telemetry-grpc}, or OkHttp's sender that Boot's OpenTelemetry brings): a
	 * look for its service file, no class loaded.
	 */
	public static boolean grpcSenderPresent(ClassLoader classLoader) {
		try {
			for (String service : GRPC_SENDER_SERVICES) {
				if (classLoader != null && classLoader.getResource(service) != null) {
					return true;
				}
			}
		}
		catch (RuntimeException ex) {
			// no sender to be seen: the default stays HTTP
		}
		return false;
	}

	/** What is wrong with an endpoint (surrounding blanks allowed), or {@code null}. */
	public static String endpointProblem(String url) {
		return HttpUrl.problem((url != null) ? url.strip() : null);
	}

	/** The traces URL for a collector's base URL ({@value #TRACES_PATH} appended once). */
	public static String tracesUrl(String baseUrl) {
		String base = baseUrl.strip();
		if (base.endsWith(TRACES_PATH)) {
			return base;
		}
		return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + TRACES_PATH;
	}

	/**
	 * Whether the env points Micrometer's OTLP meter registry somewhere: it reads
	 * {@code OTEL_EXPORTER_OTLP_[METRICS_]ENDPOINT} itself.
	 */
	public static boolean metricsEndpointInEnv(Map<String, String> env) {
		return env.get(TelemetryEnv.OTEL_EXPORTER_OTLP_ENDPOINT) != null
				|| env.get(TelemetryEnv.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT) != null;
	}

	/**
	 * The trace export the env describes, or {@code null} when it names no usable endpoint.
	 * The traces-only variables win. A malformed endpoint means no export; malformed headers
	 * leave that variable's headers out; an unsupported protocol means HTTP.
	 *
	 * @param env the process environment
	 * @param ignored told of each value present but unusable, one line naming the variable
	 */
	public static Export fromEnv(Map<String, String> env, Consumer<String> ignored) {
		return fromEnv(env, TelemetryEnv.PROTOCOL_HTTP_PROTOBUF, ignored);
	}

	/**
	 * The trace export the env describes, as {@link #fromEnv(Map, Consumer)}, with
	 * {@code defaultProtocol} where no variable names one ({@link #defaultProtocol}).
	 */
	public static Export fromEnv(Map<String, String> env, String defaultProtocol, Consumer<String> ignored) {
		String tracesEndpoint = env.get(TelemetryEnv.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
		String variable = (tracesEndpoint != null) ? TelemetryEnv.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
				: TelemetryEnv.OTEL_EXPORTER_OTLP_ENDPOINT;
		String endpoint = env.get(variable);
		if (endpoint == null) {
			return null;
		}
		String problem = endpointProblem(endpoint);
		if (problem != null) {
			ignored.accept(variable + ": it " + problem);
			return null;
		}
		boolean grpc = grpc(env, defaultProtocol, ignored);
		Map<String, String> headers = new LinkedHashMap<>();
		for (String headersVariable : HEADERS_VARIABLES) {
			String value = env.get(headersVariable);
			List<String> problems = OtelListValues.headersProblems(value);
			if (problems.isEmpty()) {
				headers.putAll(OtelListValues.parsePairs(value).pairs());
			}
			else {
				ignored.accept(headersVariable + ": " + String.join("; ", problems));
			}
		}
		return new Export((grpc || tracesEndpoint != null) ? endpoint.strip() : tracesUrl(endpoint), grpc, headers);
	}

	private static boolean grpc(Map<String, String> env, String defaultProtocol, Consumer<String> ignored) {
		String variable = env.containsKey(TelemetryEnv.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL)
				? TelemetryEnv.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL : TelemetryEnv.OTEL_EXPORTER_OTLP_PROTOCOL;
		String protocol = env.get(variable);
		if (protocol == null) {
			return TelemetryEnv.PROTOCOL_GRPC.equals(defaultProtocol);
		}
		if (protocol.strip().equals(TelemetryEnv.PROTOCOL_HTTP_PROTOBUF)) {
			return false;
		}
		if (protocol.strip().equals(TelemetryEnv.PROTOCOL_GRPC)) {
			return true;
		}
		ignored.accept(variable + ": only " + TelemetryEnv.PROTOCOL_HTTP_PROTOBUF + " and "
				+ TelemetryEnv.PROTOCOL_GRPC + " are supported");
		return false;
	}

	/**
	 * One trace export, as Boot's properties hold it.
	 *
	 * @param endpoint the traces URL ({@link #ENDPOINT_PROPERTY}), stripped
	 * @param grpc whether the transport is gRPC
	 * @param headers the headers, in order
	 */
	public record Export(String endpoint, boolean grpc, Map<String, String> headers) {

		public Export {
			endpoint = endpoint.strip();
			headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
		}

		/**
		 * The export Boot's properties describe.
		 *
		 * @param endpoint {@link #ENDPOINT_PROPERTY}, a valid URL
		 * @param transport {@link #TRANSPORT_PROPERTY}, or {@code null}
		 * @param headers {@link #HEADERS_PROPERTY}, valid headers
		 */
		public static Export fromProperties(String endpoint, String transport, Map<String, String> headers) {
			boolean grpc = transport != null && transport.strip().equalsIgnoreCase(TelemetryEnv.PROTOCOL_GRPC);
			return new Export(endpoint, grpc, headers);
		}

		/** The {@code OTEL_EXPORTER_OTLP_*} variables that say the same. */
		public Map<String, String> toEnv() {
			Map<String, String> env = new LinkedHashMap<>();
			if (this.grpc) {
				env.put(TelemetryEnv.OTEL_EXPORTER_OTLP_ENDPOINT, this.endpoint);
				env.put(TelemetryEnv.OTEL_EXPORTER_OTLP_PROTOCOL, TelemetryEnv.PROTOCOL_GRPC);
			}
			else if (this.endpoint.endsWith(TRACES_PATH)) {
				env.put(TelemetryEnv.OTEL_EXPORTER_OTLP_ENDPOINT,
						this.endpoint.substring(0, this.endpoint.length() - TRACES_PATH.length()));
			}
			else {
				env.put(TelemetryEnv.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, this.endpoint);
			}
			if (!this.headers.isEmpty()) {
				env.put(TelemetryEnv.OTEL_EXPORTER_OTLP_HEADERS, OtelListValues.formatPairs(this.headers));
			}
			return env;
		}

		/**
		 * Boot's properties that say the same, header entries included unless
		 * {@code withHeaders} is false.
		 */
		public Map<String, Object> toProperties(boolean withHeaders) {
			Map<String, Object> properties = new LinkedHashMap<>();
			properties.put(ENDPOINT_PROPERTY, this.endpoint);
			if (this.grpc) {
				properties.put(TRANSPORT_PROPERTY, TelemetryEnv.PROTOCOL_GRPC);
			}
			if (withHeaders) {
				this.headers.forEach((name, value) -> properties.put(HEADERS_PROPERTY + "[" + name + "]", value));
			}
			return properties;
		}

		/** Header names only: the values are credentials. */
		@Override
		public String toString() {
			return "Export{grpc=" + this.grpc + ", headers=" + this.headers.keySet() + "}";
		}

	}

}
