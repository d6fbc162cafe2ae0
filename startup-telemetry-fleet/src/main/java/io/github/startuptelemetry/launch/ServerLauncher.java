package io.github.startuptelemetry.launch;

import java.io.IOException;

/**
 * Starts the servers of a fleet somewhere: a local process ({@code local}, the default), a Slurm
 * job step ({@code slurm}), or wherever a launcher of your own puts them, chosen by
 * {@link #name()}. Implementations must be thread-safe: several servers are launched at once.
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
