package io.github.startuptelemetry.it.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Fleets.TIMEOUT;
import static io.github.startuptelemetry.it.support.Fleets.awaitEnded;
import static io.github.startuptelemetry.it.support.Fleets.byServer;
import static io.github.startuptelemetry.it.support.Fleets.count;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static io.github.startuptelemetry.it.support.Spans.assertContiguous;
import static io.github.startuptelemetry.it.support.Spans.only;
import static io.github.startuptelemetry.it.support.Spans.stages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The {@code slurm} launcher on a real Slurm ({@code scripts/slurm-local.sh start}; {@code .ci/run}
 * starts it and exports {@code SLURM_CONF}): the sample supervisor runs inside an allocation
 * ({@code salloc --no-shell}, its job id as {@code SLURM_JOB_ID}), each server a job step
 * through {@code srun}; whatever way the startup ends, no step is left in {@code squeue}.
 * Skips, visibly, only when {@code sinfo} cannot reach a cluster.
 */
class SlurmLauncherProcessTest {

	private static final Duration STEPS_GONE = Duration.ofSeconds(30);

	private static final Pattern GRANTED = Pattern.compile("Granted job allocation (\\d+)");

	private static String job;

	@RegisterExtension
	final Fleets fleets = new Fleets();

	@BeforeAll
	static void allocate() throws Exception {
		Run sinfo = run("sinfo", "-h", "-o", "%T");
		assumeTrue(sinfo.code == 0, () -> "SKIPPED: no Slurm cluster ('sinfo' failed: " + sinfo.output.strip()
				+ "); start one with scripts/slurm-local.sh start and export SLURM_CONF");
		Run salloc = run("salloc", "-N1", "--no-shell", "--job-name=startup-telemetry-it");
		Matcher granted = GRANTED.matcher(salloc.output);
		assertThat(granted.find()).as("salloc: %s", salloc.output).isTrue();
		job = granted.group(1);
	}

	@AfterAll
	static void release() throws Exception {
		if (job != null) {
			run("scancel", job);
		}
	}

	@Test
	void theSampleFleetThroughSrunIsOneTraceWithEveryServerNestedAndItsSlurmStep() throws Exception {
		try (JavaProcess supervisor = supervisor("--telemetry.supervisor.exit-when-ready=true")
			.workingDir(SampleJars.repositoryRoot())
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
			List<ReceivedSpan> spans = this.fleets.receiver().awaitSpans((all) -> count(all, "gym.startup") == 1
					&& count(all, "gym.server.startup.application_ready") == 3, TIMEOUT);
			ReceivedSpan root = only(spans, "gym.startup");
			assertThat(root.attribute("nemo.gym.startup.outcome")).isEqualTo("ready");
			assertThat(spans).filteredOn((s) -> s.name().startsWith("gym."))
				.allSatisfy((span) -> assertThat(span.traceId()).isEqualTo(root.traceId()));
			assertContiguous(stages(spans, root), root);
			Map<String, ReceivedSpan> steps = byServer(spans, "gym.startup.server");
			Map<String, ReceivedSpan> servers = byServer(spans, "gym.server.startup");
			assertThat(steps).containsOnlyKeys("model-0", "model-1", "resources");
			assertThat(servers).containsOnlyKeys("model-0", "model-1", "resources");
			for (String name : steps.keySet()) {
				ReceivedSpan step = steps.get(name);
				ReceivedSpan server = servers.get(name);
				assertThat(step.parentSpanId()).isEqualTo(root.spanId());
				assertThat(server.parentSpanId()).as(name).isEqualTo(step.spanId());
				List<ReceivedSpan> serverStages = stages(spans, server);
				assertContiguous(serverStages, server);
				assertThat(serverStages.get(0).attribute("nemo.gym.startup.stage")).isEqualTo("venv_setup");
				assertThat(step.attribute("slurm.job.id")).isEqualTo(job);
				assertThat(step.attribute("slurm.step.id")).matches("\\d+");
				assertThat(Long.parseLong(step.attribute("startup.slurm.pending_ms"))).isNotNegative();
			}
			assertThat(steps.values()).extracting((s) -> s.attribute("slurm.step.id")).doesNotHaveDuplicates();
			assertThat(supervisor.log()).contains("Startup ready after", "srun pid", "spawn→ready  queued");
			assertNoStepLeft();
		}
	}

	@Test
	void aServerThatDependsOnAOneShotJobStepIsItselfAStepSpawnedOnceTheJobCompleted() throws Exception {
		try (JavaProcess supervisor = supervisor(server(0, "prepare", "/bin/sh", "-c", "sleep 0.5"))
			.args(server(1, "model", "{java}", "-XX:TieredStopAtLevel=1", "-jar", SampleJars.server().toString(),
					"--server.port={port}", "--spring.application.name={name}"))
			.args("--telemetry.supervisor.servers[0].one-shot=true",
					"--telemetry.supervisor.servers[1].depends-on.prepare=completed",
					"--telemetry.supervisor.exit-when-ready=true")
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
			List<ReceivedSpan> spans = this.fleets.receiver()
				.awaitSpans((all) -> count(all, "gym.startup") == 1 && count(all, "gym.server.startup") == 1
						&& count(all, "gym.startup.server.waiting_for_dependencies") == 1, TIMEOUT);
			Map<String, ReceivedSpan> steps = byServer(spans, "gym.startup.server");
			ReceivedSpan prepare = steps.get("prepare");
			assertThat(prepare.attribute("startup.readiness.source")).isEqualTo("exit");
			assertThat(prepare.attribute("slurm.job.id")).isEqualTo(job);
			ReceivedSpan wait = only(spans, "gym.startup.server.waiting_for_dependencies");
			assertThat(wait.parentSpanId()).isEqualTo(steps.get("model").spanId());
			assertThat(wait.endNs()).as("model's step spawned after the job's step exited 0")
				.isGreaterThanOrEqualTo(prepare.endNs());
			assertThat(steps.get("model").attribute("slurm.step.id")).matches("\\d+")
				.isNotEqualTo(prepare.attribute("slurm.step.id"));
			assertThat(supervisor.log()).contains("Spawned model (srun pid", "once prepare was completed");
			assertNoStepLeft();
		}
	}

	@Test
	void aStepThatExitsThreeIsCrashedItsArgumentsReachedItVerbatimAndNoStepIsLeft() throws Exception {
		// shell metacharacters in an argument: srun and the launch shell must pass them on as data
		String tricky = ";$(touch pwned) `touch pwned` && touch pwned | x";
		try (JavaProcess supervisor = supervisor(
				server(0, "crasher", "/bin/sh", "-c", "printf %s \"$1\" > arg.txt; while [ ! -e go ]; do sleep 0.05; done; "
						+ "echo boom; exit 3", "crasher", tricky))
			.args(server(1, "sleeper", "sleep", "300"))
			.args("--telemetry.supervisor.servers[0].working-dir=" + this.fleets.tmp(),
					"--telemetry.supervisor.servers[1].setup=echo $$ > " + this.fleets.tmp().resolve("sleeper.pid"))
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitFile(this.fleets.tmp().resolve("arg.txt"), TIMEOUT);
			supervisor.awaitFile(this.fleets.tmp().resolve("sleeper.pid"), TIMEOUT);
			List<ProcessHandle> sleeper = pids(this.fleets.tmp().resolve("sleeper.pid"));
			Files.writeString(this.fleets.tmp().resolve("go"), "");

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			ReceivedSpan root = this.fleets.abortedRoot("crashed");
			assertThat(root.span().getStatus().getMessage()).contains("'crasher' exited with code 3 (step " + job + ".",
					"boom");
			assertThat(this.fleets.tmp().resolve("startup-report.html")).content().contains("crashed (exit 3)");
			assertThat(this.fleets.tmp().resolve("arg.txt")).hasContent(tricky);
			assertThat(this.fleets.tmp().resolve("pwned")).doesNotExist();
			assertNoStepLeft();
			assertThat(awaitEnded(sleeper, STEPS_GONE)).isEmpty();
		}
	}

	@Test
	void sigtermToTheSupervisorIsInterruptedAndCancelsEveryStep() throws Exception {
		try (JavaProcess supervisor = supervisor(server(0, "a", "sleep", "300")).args(server(1, "b", "sleep", "300"))
			.args("--telemetry.supervisor.servers[0].setup=echo $$ > " + this.fleets.tmp().resolve("a.pid"),
					"--telemetry.supervisor.servers[1].setup=echo $$ > " + this.fleets.tmp().resolve("b.pid"),
					"--telemetry.supervisor.stop-timeout=5s")
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitFile(this.fleets.tmp().resolve("a.pid"), TIMEOUT);
			supervisor.awaitFile(this.fleets.tmp().resolve("b.pid"), TIMEOUT);
			List<ProcessHandle> servers = pids(this.fleets.tmp().resolve("a.pid"), this.fleets.tmp().resolve("b.pid"));
			supervisor.signal("TERM");

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			this.fleets.abortedRoot("interrupted");
			assertThat(supervisor.log()).contains("Startup interrupted after");
			assertNoStepLeft();
			assertThat(awaitEnded(servers, STEPS_GONE)).isEmpty();
		}
	}

	@Test
	void kill9OfTheSupervisorLeavesNoStepAndNoServer() throws Exception {
		try (JavaProcess supervisor = supervisor(server(0, "a", "sleep", "300")).args(server(1, "b", "/bin/sh", "-c",
				"trap '' TERM; while :; do sleep 1; done"))
			.args("--telemetry.supervisor.servers[0].setup=echo $$ > " + this.fleets.tmp().resolve("a.pid"),
					"--telemetry.supervisor.servers[1].setup=echo $$ > " + this.fleets.tmp().resolve("b.pid"))
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitFile(this.fleets.tmp().resolve("a.pid"), TIMEOUT);
			supervisor.awaitFile(this.fleets.tmp().resolve("b.pid"), TIMEOUT);
			List<ProcessHandle> servers = pids(this.fleets.tmp().resolve("a.pid"), this.fleets.tmp().resolve("b.pid"));
			long killed = System.nanoTime();
			supervisor.signal("KILL");
			supervisor.awaitExit(TIMEOUT);

			assertThat(awaitEnded(servers, STEPS_GONE)).as("servers still running after kill -9 of the supervisor")
				.isEmpty();
			System.out.printf("slurm orphan guard: %d server(s) gone %d ms after kill -9 of the supervisor was sent (goal 2000 ms)%n",
					servers.size(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
			assertNoStepLeft();
		}
	}

	private JavaProcess.Builder supervisor(String... args) {
		return this.fleets.supervisor(args).env("SLURM_JOB_ID", job).args("--telemetry.supervisor.launcher=slurm");
	}

	/** No step of the allocation in squeue, waiting (bounded) for Slurm to finish the last ones. */
	private static void assertNoStepLeft() throws Exception {
		long deadline = System.nanoTime() + STEPS_GONE.toNanos();
		List<String> steps = steps();
		while (!steps.isEmpty() && System.nanoTime() < deadline) {
			// slurmctld records the steps' end: poll it, bounded by the deadline
			TimeUnit.MILLISECONDS.sleep(200);
			steps = steps();
		}
		assertThat(steps).as("steps of job %s left in squeue", job).isEmpty();
	}

	/** The allocation's job steps in squeue (its own extern/batch steps aside). */
	private static List<String> steps() throws Exception {
		Run squeue = run("squeue", "-h", "-s", "-j", job, "-o", "%i");
		assertThat(squeue.code).as("squeue: %s", squeue.output).isZero();
		return squeue.output.lines().map(String::strip).filter((step) -> step.matches("\\d+\\.\\d+")).toList();
	}

	private static List<ProcessHandle> pids(Path... files) throws IOException {
		List<ProcessHandle> handles = new ArrayList<>();
		for (Path file : files) {
			ProcessHandle.of(Long.parseLong(Files.readString(file).strip())).ifPresent(handles::add);
		}
		return handles;
	}


	private static Run run(String... command) throws Exception {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!process.waitFor(30, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			return new Run(-1, output);
		}
		return new Run(process.exitValue(), output);
	}

	private record Run(int code, String output) {

	}

}
