package io.github.startuptelemetry.export.internal;

import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.NemoEnv;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.lifecycle.internal.BootOtlpProperties;

/**
 * The OTLP protocol each signal of this process goes over, and what chose it: the setting a
 * user changes ({@link #setting()}), or, where the standard variables name none in a NeMo
 * process, NeMo Gym's default, gRPC ({@link BootOtlpProperties#defaultProtocol}).
 *
 * @param traces {@code grpc} or {@code http/protobuf} (or whatever unsupported value was set)
 * @param metrics the same, for metrics
 * @param setting the setting that says it ({@code OTEL_EXPORTER_OTLP_PROTOCOL}, a property)
 * @param nemoDefault whether no protocol was set in a NeMo process (its servers speak gRPC)
 * @param grpcSender whether a gRPC sender is on the class path (looked for only where gRPC is wanted)
 */
record OtlpProtocols(String traces, String metrics, String setting, boolean nemoDefault, boolean grpcSender) {

	/** The protocols a Spring property says, for traces and metrics. */
	static OtlpProtocols set(String property, boolean tracesGrpc, boolean metricsGrpc, ClassLoader classLoader) {
		boolean sender = (tracesGrpc || metricsGrpc) && BootOtlpProperties.grpcSenderPresent(classLoader);
		return new OtlpProtocols(name(tracesGrpc), name(metricsGrpc), property, false, sender);
	}

	/**
	 * The protocols the standard settings say, as the SDK reads them (an {@code otel.*} system
	 * property over its variable, a signal's own over the general one), with the default of
	 * {@link BootOtlpProperties#defaultProtocol} for what none says.
	 */
	static OtlpProtocols fromEnv(Map<String, String> env, ClassLoader classLoader) {
		String general = configured(env, TelemetryEnv.OTEL_EXPORTER_OTLP_PROTOCOL, "otel.exporter.otlp.protocol");
		String traces = configured(env, TelemetryEnv.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL,
				"otel.exporter.otlp.traces.protocol");
		String metrics = configured(env, TelemetryEnv.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL,
				"otel.exporter.otlp.metrics.protocol");
		String fallback = BootOtlpProperties.defaultProtocol(env, classLoader);
		boolean wantsGrpc = TelemetryEnv.PROTOCOL_GRPC.equals(general) || TelemetryEnv.PROTOCOL_GRPC.equals(traces)
				|| TelemetryEnv.PROTOCOL_GRPC.equals(metrics);
		boolean sender = TelemetryEnv.PROTOCOL_GRPC.equals(fallback)
				|| (wantsGrpc && BootOtlpProperties.grpcSenderPresent(classLoader));
		boolean nemoDefault = general == null && (traces == null || metrics == null) && NemoEnv.inNemoProcess(env);
		return new OtlpProtocols(first(traces, general, fallback), first(metrics, general, fallback),
				TelemetryEnv.OTEL_EXPORTER_OTLP_PROTOCOL, nemoDefault, sender);
	}

	/**
	 * What the starter's own SDK takes where nothing says a protocol: gRPC for NeMo's default
	 * where it can, else {@code http/protobuf}, the standard's (the SDK for Java's own default is
	 * still gRPC).
	 */
	String defaultProtocol() {
		return (this.nemoDefault && this.grpcSender) ? TelemetryEnv.PROTOCOL_GRPC : TelemetryEnv.PROTOCOL_HTTP_PROTOBUF;
	}

	/** Whether a signal can go over {@code protocol}: gRPC only with a gRPC sender. */
	boolean sendable(String protocol) {
		return this.grpcSender || !TelemetryEnv.PROTOCOL_GRPC.equals(protocol);
	}

	/** {@link #setting()} set to {@code protocol}, as a user would write it. */
	String settingTo(String protocol) {
		boolean grpc = TelemetryEnv.PROTOCOL_GRPC.equals(protocol);
		if (this.setting.equals(BootOtlpProperties.TRANSPORT_PROPERTY)) {
			return this.setting + "=" + (grpc ? "grpc" : "http");
		}
		return this.setting + "=" + protocol;
	}

	/** Whether NeMo Gym's servers speak gRPC here and this one cannot: it falls back to OTLP/HTTP. */
	boolean nemoFallback() {
		return this.nemoDefault && !this.grpcSender;
	}

	@Override
	public String toString() {
		return "traces over " + this.traces + ", metrics over " + this.metrics
				+ (this.nemoDefault ? (this.grpcSender ? " (NeMo Gym's default: no OTLP protocol set in a NeMo process)"
						: " (no OTLP protocol set in a NeMo process, whose default is gRPC: no gRPC sender)")
						: "");
	}

	private static String name(boolean grpc) {
		return grpc ? TelemetryEnv.PROTOCOL_GRPC : TelemetryEnv.PROTOCOL_HTTP_PROTOBUF;
	}

	private static @Nullable String configured(Map<String, String> env, String variable, String systemProperty) {
		String value = System.getProperty(systemProperty);
		if (value == null || value.isBlank()) {
			value = env.get(variable);
		}
		return (value != null && !value.isBlank()) ? value.strip().toLowerCase(Locale.ROOT) : null;
	}

	private static String first(@Nullable String signal, @Nullable String general, String fallback) {
		return (signal != null) ? signal : (general != null) ? general : fallback;
	}

}
