package io.github.startuptelemetry.jvmcache.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.launch.internal.LaunchShell;

/**
 * Runs the steps of a training (extracting a Spring Boot jar, the training start) as the
 * supervisor runs its servers, through the {@link LaunchShell} and its orphan guard, its output
 * appended to the entry's {@code training.log}.
 */
final class TrainingProcess {

	/** How long a step may take to exit, and write its cache, after SIGTERM. */
	private static final Duration EXIT_GRACE = Duration.ofMinutes(1);

	/** The last lines of the log a failure quotes. */
	private static final int TAIL_LINES = 8;

	private final Duration timeout;

	private volatile @Nullable Process running;

	private volatile boolean stopped;

	TrainingProcess(Duration timeout) {
		this.timeout = timeout;
	}

	/**
	 * Run one step to its end.
	 * @return how it ended: its exit code (-1 when it was stopped: the supervisor is stopping),
	 * and whether the training timeout ended it
	 */
	Exit run(List<String> command, @Nullable Path workingDir, Map<String, String> env, Path log)
			throws IOException, InterruptedException {
		if (this.stopped) {
			return new Exit(-1, false);
		}
		Files.writeString(log, "$ " + redacted(command) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
				StandardOpenOption.APPEND);
		ProcessBuilder builder = new ProcessBuilder(LaunchShell.commandLine(null, command)).redirectErrorStream(true)
			.redirectOutput(Redirect.appendTo(log.toFile()));
		if (workingDir != null) {
			builder.directory(workingDir.toFile());
		}
		builder.environment().putAll(env);
		Process process = builder.start();
		this.running = process;
		try {
			boolean timedOut = false;
			if (!process.waitFor(this.timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				Files.writeString(log, "\n(still running after the training timeout, " + this.timeout.toSeconds()
						+ " s: stopped)\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
				timedOut = end(process);
			}
			return this.stopped ? new Exit(-1, false) : new Exit(process.waitFor(), timedOut);
		}
		finally {
			this.running = null;
			standDown(process);
		}
	}

	/**
	 * How a step ended.
	 *
	 * @param code its exit code (a JVM ended by SIGTERM exits with 143), -1 when it was stopped
	 * @param timedOut whether it was still running at the training timeout and exited on the
	 * SIGTERM it got then, by itself (not killed a grace later): a JVM writes its cache so
	 */
	record Exit(int code, boolean timedOut) {

	}

	/** Stop the step under way, if any, and run no more. */
	void stop() {
		this.stopped = true;
		Process process = this.running;
		if (process != null) {
			end(process);
		}
	}

	/**
	 * SIGTERM to the step and what it started (the AOT cache's assembly JVM), SIGKILL after the
	 * grace; whether it exited by itself within the grace.
	 */
	private static boolean end(Process process) {
		List<ProcessHandle> all = new ArrayList<>();
		all.add(process.toHandle());
		process.descendants().filter((handle) -> !LaunchShell.isGuard(handle)).forEach(all::add);
		all.forEach(ProcessHandle::destroy);
		try {
			if (process.waitFor(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
				return true;
			}
			all.forEach(ProcessHandle::destroyForcibly);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			all.forEach(ProcessHandle::destroyForcibly);
		}
		return false;
	}

	/** The launch shell's guard may go: the step is over, and the supervisor alive. */
	private static void standDown(Process process) {
		try (OutputStream guard = process.getOutputStream()) {
			guard.write("\n".getBytes(StandardCharsets.US_ASCII));
		}
		catch (IOException ex) {
			// the guard is gone already
		}
	}

	/** System properties of the training's own, shown in full. */
	private static final List<String> OWN_PROPERTIES = List.of("-Djarmode=", Jdk.EXIT_ON_REFRESH);

	/**
	 * A command line for the log, the values of system properties and {@code --name=value}
	 * arguments left out (but the training's own): they may be secrets.
	 */
	static String redacted(List<String> command) {
		List<String> shown = new ArrayList<>();
		for (String arg : command) {
			int equals = arg.indexOf('=');
			boolean own = OWN_PROPERTIES.stream().anyMatch(arg::startsWith);
			boolean property = !own && (arg.startsWith("-D") || arg.startsWith("--")) && equals > 0;
			shown.add(property ? arg.substring(0, equals + 1) + "…" : arg);
		}
		return String.join(" ", shown);
	}

	/** The last lines of a training log, for the report of a failed training. */
	static String tail(Path log) {
		try {
			List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
		}
		catch (IOException ex) {
			return "(" + log + " unreadable: " + ex.getMessage() + ")";
		}
	}

}
