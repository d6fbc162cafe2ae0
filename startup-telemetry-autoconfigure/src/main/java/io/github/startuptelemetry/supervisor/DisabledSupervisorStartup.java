package io.github.startuptelemetry.supervisor;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import io.github.startuptelemetry.report.StartupReport;

/**
 * The {@link SupervisorStartup} of {@code telemetry.enabled=false}: records nothing and loads no
 * OpenTelemetry class, but still hands each server the propagated settings, so that one switch
 * on the supervisor turns the whole fleet off.
 */
public final class DisabledSupervisorStartup implements SupervisorStartup {

	private final Supplier<ChildTelemetryEnvironment> childEnvironment;

	/** One that hands a server nothing: every method returns at once. */
	public DisabledSupervisorStartup() {
		this(() -> null);
	}

	/**
	 * One that still hands every server the propagated settings (which then turn it off too).
	 * @param childEnvironment the settings to pass on, asked for at the first server's spawn
	 */
	public DisabledSupervisorStartup(Supplier<ChildTelemetryEnvironment> childEnvironment) {
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
