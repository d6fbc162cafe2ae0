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
 * spawns (NeMo Gym's {@code announce_serve}): call {@link #serveEnv()} right before spawning
 * them, and add the result to each worker's environment ({@link #applyTo(ProcessBuilder)}).
 * <ul>
 * <li>{@code NEMO_GYM_STARTUP_SERVE_NS}: now, in wall-clock epoch nanoseconds; a worker's
 * {@code worker_start} stage runs from it to the worker's own start;</li>
 * <li>{@code NEMO_GYM_STARTUP_TRACEPARENT} and {@code TRACEPARENT}: the traceparent this process
 * was spawned with, so each worker's {@code gym.server.startup.worker} hangs from the same
 * supervisor span as this process's {@code gym.server.startup}, as in Gym;</li>
 * <li>{@code TELEMETRY_STARTUP_WORKER=true} and {@code IS_NEMO_GYM_FASTAPI_WORKER=1}: the
 * worker is one, a JVM with the starter or a Gym Python worker alike.</li>
 * </ul>
 * With telemetry off ({@link TelemetrySwitch#enabledInEnv()}), only the worker flags: as
 * Gym's, the stamps are then left out.
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
