package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;

import static io.github.startuptelemetry.it.support.Spans.assertContiguous;
import static io.github.startuptelemetry.it.support.Spans.only;
import static io.github.startuptelemetry.it.support.Spans.stages;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample supervisor as the process tests run it: exporting to an in-test receiver, its
 * servers declared on the command line, and what a failed startup must leave behind checked:
 * one aborted {@code gym.startup}, and not one process it started still alive.
 * <p>
 * A JUnit extension ({@code @RegisterExtension final Fleets fleets = new Fleets();}): for each
 * test it starts its {@link #receiver()} and makes a fresh {@link #tmp()} directory, and stops
 * and removes both after it, so that a process test declares one field, not three and a setup.
 */
public final class Fleets implements BeforeEachCallback, AfterEachCallback {

	public static final Duration TIMEOUT = Duration.ofSeconds(120);

	/** The supervisor's one line for the spawned fleet; it names each server of a small one. */
	private static final Pattern SPAWNED_LINE = Pattern.compile("Spawned \\d+ (?:of \\d+ )?server\\(s\\) in \\d+ ms: (.*)");

	private static final Pattern SPAWNED = Pattern.compile("(\\S+) \\(pid (\\d+)");

	/** The supervisor's line for a server spawned once its dependencies were met. */
	private static final Pattern SPAWNED_LATER = Pattern.compile("Spawned (\\S+) \\(pid (\\d+), port \\d+\\) once ");

	private final OtlpReceiver receiver = new OtlpReceiver();

	private Path tmp;

	@Override
	public void beforeEach(ExtensionContext context) throws IOException {
		this.receiver.beforeEach(context);
		this.tmp = Files.createTempDirectory("fleet-");
	}

	@Override
	public void afterEach(ExtensionContext context) throws IOException {
		this.receiver.afterEach(context);
		try (Stream<Path> paths = Files.walk(this.tmp)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(path);
			}
		}
	}

	/** Where the supervisor and its servers export, listening during the test. */
	public OtlpReceiver receiver() {
		return this.receiver;
	}

	/** The test's directory: run directory, HTML and JSON reports and logs go there. */
	public Path tmp() {
		return this.tmp;
	}

	/** The sample supervisor exporting to the receiver; its servers inherit the endpoint from its env. */
	public JavaProcess.Builder supervisor(String... args) {
		return JavaProcess.jar(SampleJars.supervisor())
			.env("MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT", this.receiver.tracesEndpoint())
			.env("MANAGEMENT_OTLP_METRICS_EXPORT_URL", this.receiver.metricsEndpoint())
			.env("SAMPLE_MODEL_LOADER_DURATION", "200ms")
			.args("--telemetry.supervisor.run-dir=" + runDir(),
					"--telemetry.supervisor.report.html=" + this.tmp.resolve("startup-report.html"),
					"--telemetry.supervisor.report.json=" + this.tmp.resolve("startup-report.json"))
			.args(args);
	}

	/** Where the supervisor writes each server's log, {@code <name>.log}. */
	public Path runDir() {
		return this.tmp.resolve("run");
	}

	/**
	 * Properties declaring server {@code index}, replacing the sample's default fleet; its health
	 * URL is on {@code {port}}, where only a real server started with {@code {port}} answers.
	 */
	public static String[] server(int index, String name, String... command) {
		String prefix = "--telemetry.supervisor.servers[" + index + "].";
		List<String> args = new ArrayList<>(List.of(prefix + "name=" + name,
				prefix + "health-url=http://127.0.0.1:{port}/actuator/health/readiness"));
		for (int i = 0; i < command.length; i++) {
			args.add(prefix + "command[" + i + "]=" + command[i]);
		}
		return args.toArray(String[]::new);
	}

	/**
	 * Properties declaring server 0 as a shell that writes the environment it was given to
	 * {@code file} and then sleeps, never ready: written whole, then renamed, so that the file
	 * appears complete ({@link JavaProcess#awaitFile}).
	 */
	public static String[] envDump(Path file) {
		String prefix = "--telemetry.supervisor.servers[0].";
		return new String[] { prefix + "name=env-dump", prefix + "command[0]=/bin/sh", prefix + "command[1]=-c",
				prefix + "command[2]=env > \"$0.part\" && mv \"$0.part\" \"$0\"; exec sleep 300",
				prefix + "command[3]=" + file };
	}

	/** The one {@code gym.startup}, failed with {@code outcome}, its stages still covering it. */
	public ReceivedSpan abortedRoot(String outcome) throws InterruptedException {
		List<ReceivedSpan> spans = this.receiver.awaitSpans((all) -> count(all, "gym.startup") == 1, TIMEOUT);
		ReceivedSpan root = only(spans, "gym.startup");
		assertThat(root.isError()).isTrue();
		assertThat(root.attribute("nemo.gym.startup.outcome")).isEqualTo(outcome);
		List<ReceivedSpan> stages = stages(spans, root);
		assertContiguous(stages, root);
		assertThat(stages.get(stages.size() - 1).attribute("nemo.gym.startup.stage")).isEqualTo("unfinished");
		return root;
	}

	/**
	 * Every process the supervisor started, as far as it can be seen now: the servers it logged,
	 * the background processes setup steps wrote down in {@code pidFiles}, and its live
	 * descendants.
	 */
	public static List<ProcessHandle> startedProcesses(JavaProcess supervisor, Path... pidFiles) throws Exception {
		List<Long> pids = new ArrayList<>(spawned(supervisor).values());
		for (Path pidFile : pidFiles) {
			pids.add(Long.parseLong(Files.readString(pidFile).strip()));
		}
		supervisor.rememberDescendants().forEach((handle) -> pids.add(handle.pid()));
		return pids.stream().distinct().map(ProcessHandle::of).flatMap(Optional::stream).toList();
	}

	/** The pid the supervisor logged for server {@code name}. */
	public static long pidOf(JavaProcess supervisor, String name) {
		Long pid = spawned(supervisor).get(name);
		if (pid == null) {
			throw new AssertionError("'" + name + "' was not spawned:\n" + supervisor.log());
		}
		return pid;
	}

	/**
	 * The pid of each server the supervisor's spawn line names, and of each it spawned later,
	 * once its dependencies were met (a line of its own).
	 */
	private static Map<String, Long> spawned(JavaProcess supervisor) {
		Map<String, Long> pids = new LinkedHashMap<>();
		Matcher line = SPAWNED_LINE.matcher(supervisor.log());
		if (line.find()) {
			Matcher server = SPAWNED.matcher(line.group(1));
			while (server.find()) {
				pids.put(server.group(1), Long.parseLong(server.group(2)));
			}
		}
		Matcher later = SPAWNED_LATER.matcher(supervisor.log());
		while (later.find()) {
			pids.put(later.group(1), Long.parseLong(later.group(2)));
		}
		return pids;
	}

	/**
	 * Wait until every one of {@code processes} has ended, at most {@code bound}; those still
	 * running then. A zombie has ended (its new parent, init, may reap it late).
	 */
	public static List<ProcessHandle> awaitEnded(List<ProcessHandle> processes, Duration bound) {
		long deadline = System.nanoTime() + bound.toNanos();
		List<ProcessHandle> running = processes.stream().filter(Fleets::running).toList();
		while (!running.isEmpty() && System.nanoTime() < deadline) {
			// another process ends them: poll, bounded by the first one's exit and the deadline
			running.get(0).onExit().completeOnTimeout(null, 10, TimeUnit.MILLISECONDS).join();
			running = running.stream().filter(Fleets::running).toList();
		}
		return running;
	}

	private static boolean running(ProcessHandle process) {
		try {
			String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
			return process.isAlive() && !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Every one of {@code started} has ended, once the supervisor has exited: at once for what it
	 * stopped, within moments for the launch shells' guards, which end with their servers.
	 */
	public static void assertAllStopped(List<ProcessHandle> started, int atLeast) {
		assertThat(started).hasSizeGreaterThanOrEqualTo(atLeast);
		assertThat(awaitEnded(started, Duration.ofSeconds(10))).as("processes still running").isEmpty();
	}

	/** The spans named {@code name}, by their {@code nemo.gym.server.name}. */
	public static Map<String, ReceivedSpan> byServer(List<ReceivedSpan> spans, String name) {
		return spans.stream()
			.filter((s) -> s.name().equals(name))
			.collect(Collectors.toMap((s) -> s.attribute("nemo.gym.server.name"), Function.identity()));
	}

	public static long count(List<ReceivedSpan> spans, String name) {
		return spans.stream().filter((s) -> s.name().equals(name)).count();
	}

}
