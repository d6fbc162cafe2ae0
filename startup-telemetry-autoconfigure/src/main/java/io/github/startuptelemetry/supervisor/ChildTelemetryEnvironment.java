package io.github.startuptelemetry.supervisor;

import java.util.Map;

/**
 * Telemetry settings a supervisor passes on to each server it spawns (the resolved
 * {@code TELEMETRY_*} and {@code OTEL_*} variables). Declare one bean of this type and
 * {@link SupervisorStartup#serverEnv} merges its map into every server's environment; by
 * default there is none. A variable the supervisor's own environment already has is never
 * overwritten, and the values are never logged: they may hold secrets.
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
