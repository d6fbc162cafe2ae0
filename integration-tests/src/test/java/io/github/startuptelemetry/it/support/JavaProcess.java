package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real JVM started from a built jar, its output in a log file. Closing it stops the process
 * and everything it started: a test leaves no orphans.
 */
public final class JavaProcess implements AutoCloseable {

	private final Process process;

	private final Path log;

	private final List<ProcessHandle> descendants = new ArrayList<>();

	private JavaProcess(Process process, Path log) {
		this.process = process;
		this.log = log;
	}

	public static Builder jar(Path jar) {
		return new Builder(jar);
	}

	/** A TCP port free on this machine right now, for a server under test to listen on. */
	public static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	public long pid() {
		return this.process.pid();
	}

	public Process process() {
		return this.process;
	}

	public Path logFile() {
		return this.log;
	}

	public String log() {
		try {
			return Files.exists(this.log) ? Files.readString(this.log, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Wait until the log contains {@code text}; fail (with the log) if the process exits first
	 * or {@code timeout} passes.
	 */
	public void awaitLog(String text, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!log().contains(text)) {
			if (!this.process.isAlive() && !log().contains(text)) {
				throw new AssertionError("Process exited (" + this.process.exitValue() + ") before logging '" + text
						+ "':\n" + log());
			}
			if (System.nanoTime() > deadline) {
				throw new AssertionError("'" + text + "' not logged within " + timeout + ":\n" + log());
			}
			// the log is a file another process writes: poll it, the process exit above bounds this
			this.process.waitFor(20, TimeUnit.MILLISECONDS);
		}
	}

	/** Wait for the process to exit and return its exit code; fail after {@code timeout}. */
	public int awaitExit(Duration timeout) throws InterruptedException {
		rememberDescendants();
		if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new AssertionError("Process still running after " + timeout + ":\n" + log());
		}
		return this.process.exitValue();
	}

	/** Send SIGTERM, as an operator or an orchestrator would. */
	public void terminate() {
		rememberDescendants();
		this.process.destroy();
	}

	/** Every process this one started, alive now (recorded so that they can be checked after exit). */
	public List<ProcessHandle> rememberDescendants() {
		this.process.descendants().forEach((handle) -> {
			if (this.descendants.stream().noneMatch((h) -> h.pid() == handle.pid())) {
				this.descendants.add(handle);
			}
		});
		return List.copyOf(this.descendants);
	}

	@Override
	public void close() throws InterruptedException {
		rememberDescendants();
		this.process.destroy();
		if (!this.process.waitFor(15, TimeUnit.SECONDS)) {
			this.process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
		}
		for (ProcessHandle child : this.descendants) {
			child.destroyForcibly();
		}
	}

	public static final class Builder {

		private final Path jar;

		private final List<String> jvmArgs = new ArrayList<>();

		private final List<String> args = new ArrayList<>();

		private final Map<String, String> env = new LinkedHashMap<>();

		private final List<String> removedEnv = new ArrayList<>();

		private Path workingDir;

		private Builder(Path jar) {
			this.jar = jar;
		}

		public Builder jvmArgs(String... jvmArgs) {
			this.jvmArgs.addAll(List.of(jvmArgs));
			return this;
		}

		public Builder args(String... args) {
			this.args.addAll(List.of(args));
			return this;
		}

		public Builder env(String name, String value) {
			this.env.put(name, value);
			return this;
		}

		public Builder env(Map<String, String> env) {
			this.env.putAll(env);
			return this;
		}

		/** Start without this variable even if the test's own environment has it. */
		public Builder withoutEnv(String name) {
			this.removedEnv.add(name);
			return this;
		}

		public Builder workingDir(Path workingDir) {
			this.workingDir = workingDir;
			return this;
		}

		public JavaProcess start(Path log) throws IOException {
			List<String> command = new ArrayList<>();
			command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
			command.add("-XX:TieredStopAtLevel=1");
			command.addAll(this.jvmArgs);
			command.add("-jar");
			command.add(this.jar.toString());
			command.addAll(this.args);
			ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(log.toFile());
			if (this.workingDir != null) {
				builder.directory(this.workingDir.toFile());
			}
			// a test's own env must not leak telemetry settings into the process under test
			builder.environment().keySet().removeIf((name) -> name.startsWith("OTEL_")
					|| name.startsWith("TELEMETRY_") || name.startsWith("NEMO_GYM_") || name.equals("TRACEPARENT"));
			this.removedEnv.forEach(builder.environment()::remove);
			builder.environment().putAll(this.env);
			return new JavaProcess(builder.start(), log);
		}

	}

}
