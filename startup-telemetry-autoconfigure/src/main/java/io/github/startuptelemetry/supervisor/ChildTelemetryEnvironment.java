package io.github.startuptelemetry.supervisor;

import java.util.Map;

/**
 * Telemetry settings a supervisor passes on to each server it spawns (the resolved
 * {@code TELEMETRY_*} and {@code OTEL_*} variables), which {@link SupervisorStartup#serverEnv}
 * merges into every server's environment, never over a variable the supervisor's own environment
 * has. Values may hold secrets and are never logged.
 */
@FunctionalInterface
public interface ChildTelemetryEnvironment {

	/**
	 * The variables for one server.
	 * @param name the server's name
	 * @param type the server's type, or {@code null}
	 * @param rank its rank among the servers of its type
	 * @param worldSize how many servers of its type there are
	 * @return variables to set, never {@code null}
	 */
	Map<String, String> forServer(String name, String type, int rank, int worldSize);

}
