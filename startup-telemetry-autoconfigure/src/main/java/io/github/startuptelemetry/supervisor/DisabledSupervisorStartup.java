package io.github.startuptelemetry.supervisor;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import io.github.startuptelemetry.report.StartupReport;

/**
 * {@link SupervisorStartup} with {@code telemetry.enabled=false}: records nothing, exports
 * nothing, and loads no OpenTelemetry class. A server still gets a map to add to its
 * environment, without a single telemetry variable in it.
 */
enum DisabledSupervisorStartup implements SupervisorStartup {

	INSTANCE;

	@Override
	public void beginTrace() {
	}

	@Override
	public void mark(String stage) {
	}

	@Override
	public Map<String, String> serverEnv(String name, String type, int rank, int worldSize) {
		return new HashMap<>();
	}

	@Override
	public void serverReady(String name) {
	}

	@Override
	public void finish() {
	}

	@Override
	public void abort(String outcome, Throwable error) {
	}

	@Override
	public Optional<StartupReport> report() {
		return Optional.empty();
	}

}
