package io.github.startuptelemetry.launch.local;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.github.startuptelemetry.launch.internal.LaunchShell;
import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;

/**
 * A server spawned on this host by the {@code local} launcher: its process (the launch shell, then
 * the server it execs) and its log file. Stopping it is SIGTERM to it and everything it started,
 * then SIGKILL to whatever is left.
 */
final class ServerProcess implements LaunchedServer {

	private static final String LOOPBACK = "127.0.0.1";

	private final Process process;

	private final Path log;

	private final CompletableFuture<ServerExit> exit;

	private volatile List<ProcessHandle> stopping = List.of();

	private ServerProcess(Process process, Path log) {
		this.process = process;
		this.log = log;
		this.exit = process.onExit().thenApply((exited) -> ServerExit.ofCode(exited.exitValue()));
	}

	/**
	 * Spawn the server through the launch shell, with the supervisor's environment plus its env,
	 * its output (stdout and stderr) going to its log.
	 */
	static ServerProcess start(LaunchRequest request) throws IOException {
		ProcessBuilder builder = new ProcessBuilder(request.launchShell()).redirectErrorStream(true)
			.redirectOutput(request.log().toFile());
		if (request.workingDir() != null) {
			builder.directory(request.workingDir().toFile());
		}
		builder.environment().putAll(request.env());
		Process process = builder.start();
		ServerProcess server = new ServerProcess(process, request.log());
		// its standard input is the orphan guard's pipe: once it exited, stand the guard down (on
		// the exit future it has anyway: each onExit() is another future on the JDK's reaper)
		server.exit.thenRun(() -> standDown(process.getOutputStream()));
		return server;
	}

	/** Tell the launch shell's orphan guard that the supervisor is alive and done with this server. */
	static void standDown(OutputStream guard) {
		try (guard) {
			guard.write(STAND_DOWN_LINE.getBytes(StandardCharsets.US_ASCII));
		}
		catch (IOException ex) {
			// the guard is gone already
		}
	}

	long pid() {
		return this.process.pid();
	}

	@Override
	public String describe() {
		return "pid " + pid();
	}

	@Override
	public CompletableFuture<String> host() {
		return CompletableFuture.completedFuture(LOOPBACK);
	}

	/** A copy: a caller that completes or cancels it cannot fire or skip the guard's stand-down. */
	@Override
	public CompletableFuture<ServerExit> onExit() {
		return this.exit.copy();
	}

	@Override
	public Path log() {
		return this.log;
	}

	/**
	 * SIGTERM to it and to everything it started but the launch shell's guard, which ends with
	 * it ({@link #terminate(List)} of this one).
	 */
	@Override
	public void terminate() {
		terminate(List.of(this));
	}

	/**
	 * SIGTERM to each of these servers and to everything it started but the launch shell's
	 * guard, which ends with it. Their processes are listed before anything is signalled, since a
	 * process orphaned by its parent's exit can no longer be found from it; and listed once for
	 * them all: the JDK lists a process's descendants by reading every process of the host, so a
	 * listing per server made a thousand servers' stop read millions of files, one server at a
	 * time.
	 */
	static void terminate(List<ServerProcess> servers) {
		if (servers.isEmpty()) {
			return;
		}
		Map<Long, List<ProcessHandle>> children = new HashMap<>();
		ProcessHandle.current()
			.descendants()
			.forEach((process) -> process.parent()
				.ifPresent((parent) -> children.computeIfAbsent(parent.pid(), (pid) -> new ArrayList<>()).add(process)));
		List<ProcessHandle> signalled = new ArrayList<>();
		for (ServerProcess server : servers) {
			List<ProcessHandle> tree = new ArrayList<>();
			tree.add(server.process.toHandle());
			// breadth first: the server's children, theirs, ...; a guard and what it runs are its own
			for (int i = 0; i < tree.size(); i++) {
				for (ProcessHandle child : children.getOrDefault(tree.get(i).pid(), List.of())) {
					if (!LaunchShell.isGuard(child)) {
						tree.add(child);
					}
				}
			}
			server.stopping = List.copyOf(tree);
			signalled.addAll(tree);
		}
		signalled.forEach(ProcessHandle::destroy);
	}

	/**
	 * The server's own exit is the future it has: another {@code onExit()} would cost a thread per
	 * server where the common pool has one (2 cores), as the JDK completes each on a new one.
	 */
	@Override
	public CompletableFuture<Void> stopped() {
		long pid = pid();
		return CompletableFuture.allOf(this.stopping.stream()
			.map((handle) -> (handle.pid() == pid) ? this.exit : handle.onExit())
			.toArray(CompletableFuture[]::new));
	}

	@Override
	public List<String> kill() {
		List<ProcessHandle> left = this.stopping.stream().filter(ProcessHandle::isAlive).toList();
		left.forEach(ProcessHandle::destroyForcibly);
		return left.stream().map((handle) -> "pid " + handle.pid()).toList();
	}

}
