package io.github.startuptelemetry.launch;

import java.io.IOException;

/**
 * Starts the servers of a fleet somewhere: a local process ({@code local}, the default), a
 * Slurm job step ({@code slurm}), or wherever a launcher of your own puts them. The fleet
 * supervisor plans each server (name, rank, command, env contract, log file), asks the launcher
 * chosen for it to start it, probes the host it reports, watches its exit, and stops it.
 * <p>
 * Chosen by name: {@code telemetry.supervisor.launcher} for the fleet (default {@code local}),
 * {@code telemetry.supervisor.servers[].launcher} for one server. A launcher of your own is a
 * bean of this type with its own {@link #name()}; a name no launcher bean has fails the
 * supervisor at start, naming the property.
 * <p>
 * A launcher runs {@link LaunchRequest#launchShell()} where the server runs, so that the setup
 * step is timed there and the server exits if its supervisor dies (the shell's standard input
 * must be a pipe from this JVM, or forwarded from one; see {@link LaunchedServer}).
 * Implementations must be thread-safe: several servers are launched at once.
 */
public interface ServerLauncher {

	/** The name the {@code launcher} properties select it by, e.g. {@code local}. */
	String name();

	/**
	 * Start one server and return at once (it may still be queued).
	 * @param request the planned server
	 * @return the started server
	 * @throws IOException if it could not be started; the startup fails with outcome error
	 */
	LaunchedServer launch(LaunchRequest request) throws IOException;

	/**
	 * Why it cannot start servers from this supervisor, or {@code null} when it can: asked once,
	 * when the supervisor starts, for each launcher the fleet chose; the answer fails the
	 * supervisor early, with the property that chose it named. Say how to fix it.
	 */
	default String unavailable() {
		return null;
	}

}
