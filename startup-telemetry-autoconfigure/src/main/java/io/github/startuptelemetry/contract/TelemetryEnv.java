package io.github.startuptelemetry.contract;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The environment variables that carry telemetry settings from a supervisor to the servers it
 * spawns, and that a server reads: {@code TELEMETRY_*} (the env form of {@code telemetry.*}),
 * the standard OpenTelemetry {@code OTEL_*} variables (which non-JVM servers read too), and the
 * rank variables a distributed launcher sets. Values of the OTLP header variables are
 * credentials: never log one.
 */
public final class TelemetryEnv {

	/** {@code telemetry.enabled}: {@code false} turns a server's telemetry, and a fleet's, off. */
	public static final String TELEMETRY_ENABLED = "TELEMETRY_ENABLED";

	/** {@code telemetry.startup.server-name}: the server's name, set per server by a supervisor. */
	public static final String TELEMETRY_STARTUP_SERVER_NAME = "TELEMETRY_STARTUP_SERVER_NAME";

	/** {@code telemetry.startup.server-type}: the server's type, set per server by a supervisor. */
	public static final String TELEMETRY_STARTUP_SERVER_TYPE = "TELEMETRY_STARTUP_SERVER_TYPE";

	/** {@code telemetry.startup.warm-up.path}: the path the fleet launcher will probe the server at. */
	public static final String TELEMETRY_STARTUP_WARMUP_PATH = "TELEMETRY_STARTUP_WARMUP_PATH";

	/**
	 * The base URL of the supervisor's readiness callback, set per run by a fleet supervisor: a
	 * server with the starter asks it for the supervisor's clock early and tells it once when it
	 * is ready.
	 */
	public static final String TELEMETRY_SUPERVISOR_CALLBACK_URL = "TELEMETRY_SUPERVISOR_CALLBACK_URL";

	/**
	 * The per-run secret a server proves its callback with. A credential: never log it, never
	 * put it in an attribute, a report or an endpoint.
	 */
	public static final String TELEMETRY_SUPERVISOR_CALLBACK_TOKEN = "TELEMETRY_SUPERVISOR_CALLBACK_TOKEN";

	/** {@code telemetry.startup.worker}: the process is a worker of a multi-process server. */
	public static final String TELEMETRY_STARTUP_WORKER = "TELEMETRY_STARTUP_WORKER";

	/** {@code telemetry.rank}: the server's index among the servers of its type. */
	public static final String TELEMETRY_RANK = "TELEMETRY_RANK";

	/** {@code telemetry.world-size}: how many servers of its type there are. */
	public static final String TELEMETRY_WORLD_SIZE = "TELEMETRY_WORLD_SIZE";

	/** {@code telemetry.local-rank}: the server's rank on its host. */
	public static final String TELEMETRY_LOCAL_RANK = "TELEMETRY_LOCAL_RANK";

	/** {@code telemetry.worker-group}: the group the server belongs to (its type). */
	public static final String TELEMETRY_WORKER_GROUP = "TELEMETRY_WORKER_GROUP";

	/** {@code telemetry.run-id}: the fleet's run id. */
	public static final String TELEMETRY_RUN_ID = "TELEMETRY_RUN_ID";

	/** Slurm's job id: the run id of a fleet that was given none. */
	public static final String SLURM_JOB_ID = "SLURM_JOB_ID";

	/** Base URL of an OTLP collector; each signal appends its own path. */
	public static final String OTEL_EXPORTER_OTLP_ENDPOINT = "OTEL_EXPORTER_OTLP_ENDPOINT";

	/** Full URL for traces only, used as is. */
	public static final String OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";

	/** Full URL for metrics only, used as is. */
	public static final String OTEL_EXPORTER_OTLP_METRICS_ENDPOINT = "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT";

	/** {@code key=value} pairs, comma separated, values percent-encoded. */
	public static final String OTEL_EXPORTER_OTLP_HEADERS = "OTEL_EXPORTER_OTLP_HEADERS";

	/** Headers for traces only; they win over {@link #OTEL_EXPORTER_OTLP_HEADERS} for the same key. */
	public static final String OTEL_EXPORTER_OTLP_TRACES_HEADERS = "OTEL_EXPORTER_OTLP_TRACES_HEADERS";

	/**
	 * {@link #PROTOCOL_HTTP_PROTOBUF} (the default) or {@link #PROTOCOL_GRPC}; unset in a NeMo
	 * process ({@link NemoEnv#inNemoProcess}), gRPC where a gRPC sender is present, as NeMo's
	 * Python servers default to it.
	 */
	public static final String OTEL_EXPORTER_OTLP_PROTOCOL = "OTEL_EXPORTER_OTLP_PROTOCOL";

	/** The protocol for traces only. */
	public static final String OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL";

	/** The protocol for metrics only. */
	public static final String OTEL_EXPORTER_OTLP_METRICS_PROTOCOL = "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL";

	/** The {@code service.name} resource attribute. */
	public static final String OTEL_SERVICE_NAME = "OTEL_SERVICE_NAME";

	/** {@code key=value} pairs, comma separated, values percent-encoded. */
	public static final String OTEL_RESOURCE_ATTRIBUTES = "OTEL_RESOURCE_ATTRIBUTES";

	/** A value of the OTLP protocol variables. */
	public static final String PROTOCOL_GRPC = "grpc";

	/** A value of the OTLP protocol variables, the default. */
	public static final String PROTOCOL_HTTP_PROTOBUF = "http/protobuf";

	/** A distributed launcher's rank of this process; the default of {@code telemetry.rank}. */
	public static final String RANK = "RANK";

	/** A distributed launcher's world size; the default of {@code telemetry.world-size}. */
	public static final String WORLD_SIZE = "WORLD_SIZE";

	/** A distributed launcher's rank on this host; the default of {@code telemetry.local-rank}. */
	public static final String LOCAL_RANK = "LOCAL_RANK";

	private TelemetryEnv() {
	}

	/**
	 * The env names of a {@code telemetry.*} property under Spring's relaxed binding, the one
	 * written first: dashes as underscores ({@code telemetry.world-size} →
	 * {@code TELEMETRY_WORLD_SIZE}, as a supervisor writes them), then without them
	 * ({@code TELEMETRY_WORLDSIZE}). A server reads either.
	 */
	public static List<String> names(String property) {
		String upper = property.replace('.', '_').toUpperCase(Locale.ROOT);
		Set<String> names = new LinkedHashSet<>();
		names.add(upper.replace('-', '_'));
		names.add(upper.replace("-", ""));
		return List.copyOf(names);
	}

}
