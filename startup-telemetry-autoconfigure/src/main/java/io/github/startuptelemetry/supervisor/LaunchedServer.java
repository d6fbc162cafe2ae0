package io.github.startuptelemetry.supervisor;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A server a {@link ServerLauncher} started. Thread-safe.
 * <p>
 * Stopping is in two steps so that a whole fleet stops in one grace period: the supervisor
 * calls {@link #terminate()} on every server, waits (up to {@code telemetry.supervisor.stop-timeout})
 * for {@link #stopped()}, then calls {@link #kill()} on those still running. If the supervisor
 * itself dies, the server must not outlive it: keep the launch shell's standard input a pipe
 * from this JVM (or forwarded from one, as {@code srun} does), and write
 * {@link #STAND_DOWN_LINE} to it once the server has exited.
 */
public interface LaunchedServer {

	/** The line that stands the launch shell's orphan guard down. */
	String STAND_DOWN_LINE = "\n";

	/** How the supervisor's log names it once started, e.g. {@code pid 4711} or {@code step 12.3 on node7}. */
	String describe();

	/** The host its health and timeline URLs should name ({@code 127.0.0.1} for a local one); completes once known. */
	CompletableFuture<String> host();

	/** Completes when the server has exited, with its exit code and why. */
	CompletableFuture<ServerExit> onExit();

	/** The file its output goes to. */
	Path log();

	/**
	 * What the platform adds to its {@code gym.startup.server} span (e.g. {@code slurm.job.id}),
	 * complete once {@link #host()} has completed. Values are {@code String}, {@code Long},
	 * {@code Double} or {@code Boolean}.
	 */
	default Map<String, Object> attributes() {
		return Map.of();
	}

	/** Ask it to stop (SIGTERM, {@code scancel}) and return at once. */
	void terminate();

	/** Completes once it and everything it started have ended, after {@link #terminate()}. */
	CompletableFuture<Void> stopped();

	/**
	 * Force it to stop now (SIGKILL), after {@link #terminate()} was not enough.
	 * @return what was killed, for the log (e.g. {@code pid 4711})
	 */
	List<String> kill();

	/**
	 * How a server ended.
	 *
	 * @param code its exit code (128 + n when a signal n ended it)
	 * @param reason the sentence that says so, e.g. {@code exited with code 3}
	 */
	record ServerExit(int code, String reason) {

		/** An exit as a local process reports it. */
		public static ServerExit ofCode(int code) {
			return new ServerExit(code, "exited with code " + code);
		}

	}

}
