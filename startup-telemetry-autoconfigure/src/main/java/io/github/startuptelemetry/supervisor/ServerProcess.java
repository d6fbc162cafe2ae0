package io.github.startuptelemetry.supervisor;

import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A spawned server: its process (the launch shell, then the server it execs), its own log
 * file, and the one way the supervisor stops servers: SIGTERM to each and to everything it
 * started, a grace period, then SIGKILL to whatever is left. No orphans: and should the
 * supervisor die without stopping them, the launch shell's guard ends the server
 * ({@link LaunchShell}), since its standard input is a pipe only this JVM holds open.
 */
final class ServerProcess {

	private static final Duration KILL_WAIT = Duration.ofSeconds(5);

	private final Process process;

	private final Path log;

	private ServerProcess(Process process, Path log) {
		this.process = process;
		this.log = log;
	}

	/**
	 * Spawn {@code plan} through the launch shell, with the supervisor's environment plus
	 * {@code env}, its output (stdout and stderr) going to {@code log}.
	 */
	static ServerProcess start(ServerPlan plan, Map<String, String> env, Path log) throws IOException {
		ProcessBuilder builder = new ProcessBuilder(LaunchShell.commandLine(plan.setup(), plan.command()))
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		if (plan.workingDir() != null) {
			builder.directory(plan.workingDir().toFile());
		}
		builder.environment().putAll(env);
		Process process = builder.start();
		// its standard input is the orphan guard's pipe: once it exited, stand the guard down
		process.onExit().thenRun(() -> standDown(process.getOutputStream()));
		return new ServerProcess(process, log);
	}

	/** Tell the launch shell's orphan guard that the supervisor is alive and done with this server. */
	static void standDown(OutputStream guard) {
		try (guard) {
			guard.write('\n');
		}
		catch (IOException ex) {
			// the guard is gone already
		}
	}

	Process process() {
		return this.process;
	}

	long pid() {
		return this.process.pid();
	}

	Path log() {
		return this.log;
	}

	/** The last {@code lines} lines of the log (at most its last 4 KiB), for an error message. */
	String logTail(int lines) {
		try (RandomAccessFile file = new RandomAccessFile(this.log.toFile(), "r")) {
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
	 * Stop every server and everything each started: SIGTERM to all, wait up to {@code grace},
	 * then SIGKILL to those still alive. Descendants are listed before anything is signalled,
	 * since a process orphaned by its parent's exit can no longer be found from it.
	 * @return the processes that outlived {@code grace} and were killed
	 */
	static List<ProcessHandle> stopAll(Collection<ServerProcess> servers, Duration grace) {
		List<ProcessHandle> all = new ArrayList<>();
		for (ServerProcess server : servers) {
			all.add(server.process.toHandle());
			server.process.descendants().forEach(all::add);
		}
		all.forEach(ProcessHandle::destroy);
		List<ProcessHandle> left = awaitExit(all, grace);
		left.forEach(ProcessHandle::destroyForcibly);
		awaitExit(left, KILL_WAIT);
		return left;
	}

	/** Wait until all have exited or {@code timeout} passed; those still alive. */
	private static List<ProcessHandle> awaitExit(List<ProcessHandle> handles, Duration timeout) {
		try {
			CompletableFuture.allOf(handles.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new))
				.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException | ExecutionException ex) {
			// those still alive are killed
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return handles.stream().filter(ProcessHandle::isAlive).toList();
	}

}
