package io.github.startuptelemetry.launch;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.timeline.Stage;

/**
 * A server a {@link ServerLauncher} started: its host, exit, log and how to stop it, in two steps
 * ({@link #terminate()} on every server, then {@link #kill()} on those not yet {@link #stopped()})
 * so that a whole fleet stops in one grace period. Thread-safe. The launch shell's standard input
 * stays a pipe from this JVM, with {@link #STAND_DOWN_LINE} written to it once the server has
 * exited: otherwise a server outlives a supervisor that dies.
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
	 * The last lines of its output, for the error that says why it did not become ready (a
	 * crash, a timeout). By default the tail of {@link #log()}; a launcher whose servers log
	 * elsewhere (a pod's container log) answers from there. Never throws.
	 * @param lines how many lines at most
	 * @return those lines, or a short sentence saying why there are none
	 */
	default String logTail(int lines) {
		try (RandomAccessFile file = new RandomAccessFile(log().toFile(), "r")) {
			long from = Math.max(0, file.length() - 4096);
			byte[] bytes = new byte[(int) (file.length() - from)];
			file.seek(from);
			file.readFully(bytes);
			List<String> all = new String(bytes, StandardCharsets.UTF_8).strip().lines().toList();
			return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
		}
		catch (IOException ex) {
			return "(log unreadable: " + ex.getMessage() + ")";
		}
	}

	/**
	 * What it waits on now, as its platform tells it (a pod the scheduler cannot place yet, an
	 * image pull backing off, the platform's last warnings), for the error that says why it was not
	 * ready in time; {@code null} by default (a local process: its log says it all). Never blocks.
	 */
	default @Nullable String waitingOn() {
		return null;
	}

	/**
	 * What the platform adds to its {@code gym.startup.server} span (e.g. {@code slurm.job.id}),
	 * complete once {@link #host()} has completed. Values are {@code String}, {@code Long},
	 * {@code Double} or {@code Boolean}.
	 */
	default Map<String, Object> attributes() {
		return Map.of();
	}

	/**
	 * The stages the platform ran before the server's first program started, as the platform
	 * tells them (a pod's {@code pod_scheduling} and {@code pod_setup}): contiguous, in order, the
	 * last ending where that program started. The supervisor's report puts them ahead of the
	 * server's own stages, clamped to them (the platform's times may be coarse or on another
	 * clock). Complete once {@link #host()} has completed; empty by default (a local process, a
	 * Slurm step).
	 */
	default List<Stage> stages() {
		return List.of();
	}

	/**
	 * Ask it to stop (SIGTERM, {@code scancel}) and return at once. A fleet stops its servers
	 * through their launcher's {@link ServerLauncher#terminate(java.util.List)}, which calls this
	 * unless the launcher stops many at once.
	 */
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
