package io.github.startuptelemetry.supervisor;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import io.github.startuptelemetry.report.StartupReport;

/**
 * {@link SupervisorStartup} with {@code telemetry.enabled=false}: records nothing, exports
 * nothing, and loads no OpenTelemetry class. A server still gets a map to add to its
 * environment: the propagated settings, which then say only that telemetry is off, so that one
 * switch on the supervisor turns the whole fleet off.
 */
final class DisabledSupervisorStartup implements SupervisorStartup {

	static final DisabledSupervisorStartup INSTANCE = new DisabledSupervisorStartup(() -> null);

	private final Supplier<ChildTelemetryEnvironment> childEnvironment;

	DisabledSupervisorStartup(Supplier<ChildTelemetryEnvironment> childEnvironment) {
		this.childEnvironment = childEnvironment;
	}

	@Override
	public void beginTrace() {
	}

	@Override
	public void mark(String stage) {
	}

	@Override
	public Map<String, String> serverEnv(String name, String type, int rank, int worldSize) {
		Map<String, String> env = new HashMap<>();
		try {
			ChildTelemetryEnvironment child = this.childEnvironment.get();
			if (child != null) {
				env.putAll(child.forServer(name, type, rank, worldSize));
			}
		}
		catch (RuntimeException ex) {
			// a server must start whatever the settings hand-off does
		}
		return env;
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
