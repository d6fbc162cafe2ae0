package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
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

	/**
	 * Wait until {@code file} exists and holds something (written by something this process
	 * started); fail if the process exits first or {@code timeout} passes. A shell's
	 * {@code echo $$ > file} creates the file empty before it writes: existence alone raced
	 * that write (a pid file read as "" in CI). One write is seen whole; a writer of more
	 * than one renames its file into place.
	 */
	public void awaitFile(Path file, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!hasContent(file)) {
			if (!this.process.isAlive() || System.nanoTime() > deadline) {
				throw new AssertionError(file + " not written (process alive: " + this.process.isAlive() + "):\n" + log());
			}
			// another process writes it: poll, bounded by the process's exit and the deadline
			this.process.waitFor(20, TimeUnit.MILLISECONDS);
		}
	}

	private static boolean hasContent(Path file) {
		try {
			return Files.size(file) > 0;
		}
		catch (IOException ex) {
			return false;
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

	/** Send a signal by name ({@code INT}: Ctrl-C) with {@code kill}, as an operator would. */
	public void signal(String name) throws IOException, InterruptedException {
		rememberDescendants();
		Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid())).inheritIO().start();
		if (kill.waitFor() != 0) {
			throw new AssertionError("kill -" + name + " " + pid() + " failed");
		}
	}

	/**
	 * Whether the process ignores the signal {@code number} (Linux: the {@code SigIgn} mask of
	 * /proc). A signal ignored when a JVM starts (inherited, as in a background job of a
	 * non-interactive shell) stays ignored: the JVM installs no handler for it.
	 */
	public boolean ignores(int number) throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc/" + pid() + "/status"))) {
			if (line.startsWith("SigIgn:")) {
				return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & (1L << (number - 1))) != 0;
			}
		}
		return false;
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

		private Path java = Path.of(System.getProperty("java.home"), "bin", "java");

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

		/** Start without this variable even if the test's own environment, or this builder, has it. */
		public Builder withoutEnv(String name) {
			this.removedEnv.add(name);
			this.env.remove(name);
			return this;
		}

		/** Run on this {@code java} instead of the tests' own ({@link Jdks}). */
		public Builder java(Path java) {
			this.java = java;
			return this;
		}

		public Builder workingDir(Path workingDir) {
			this.workingDir = workingDir;
			return this;
		}

		public JavaProcess start(Path log) throws IOException {
			List<String> command = new ArrayList<>();
			command.add(this.java.toString());
			// a test's JVMs start and end: C1 only, one compiler thread and the serial collector spend
			// less of the 2-core runner's CPU on the JIT and the collector (about 10% of a start, measured)
			command.add("-XX:TieredStopAtLevel=1");
			command.add("-XX:CICompilerCount=1");
			command.add("-XX:+UseSerialGC");
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
