package io.github.startuptelemetry.lifecycle;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.startuptelemetry.contract.NemoEnv;
import io.github.startuptelemetry.contract.StartupEnv;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;
import io.github.startuptelemetry.timeline.internal.WallClock;

/**
 * For the main process of a multi-process server, the environment of the worker processes it
 * spawns (NeMo Gym's {@code announce_serve}): call {@link #serveEnv()} right before spawning them
 * and add the result to each worker's environment ({@link #applyTo(ProcessBuilder)}).
 */
public final class WorkerEnv {

	private WorkerEnv() {
	}

	/** The variables to add to the environment of a worker about to be spawned. */
	public static Map<String, String> serveEnv() {
		return serveEnv(System.getenv(), TelemetrySwitch.enabledInEnv(), WallClock.nowNs());
	}

	/** Adds {@link #serveEnv()} to a worker's process builder; returns it. */
	public static ProcessBuilder applyTo(ProcessBuilder worker) {
		worker.environment().putAll(serveEnv());
		return worker;
	}

	static Map<String, String> serveEnv(Map<String, String> env, boolean enabled, long nowNs) {
		Map<String, String> workerEnv = new LinkedHashMap<>();
		workerEnv.put(TelemetryEnv.TELEMETRY_STARTUP_WORKER, "true");
		workerEnv.put(NemoEnv.FASTAPI_WORKER, "1");
		if (!enabled) {
			return workerEnv;
		}
		workerEnv.put(StartupEnv.SERVE_NS, Long.toString(nowNs));
		String traceParent = env.get(StartupEnv.TRACEPARENT);
		if (traceParent == null || traceParent.isBlank()) {
			traceParent = env.get(StartupEnv.OTEL_TRACEPARENT);
		}
		if (traceParent != null && !traceParent.isBlank()) {
			workerEnv.put(StartupEnv.TRACEPARENT, traceParent.strip());
			workerEnv.put(StartupEnv.OTEL_TRACEPARENT, traceParent.strip());
		}
		return workerEnv;
	}

}
