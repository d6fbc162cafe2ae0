package io.github.startuptelemetry.launch.slurm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.launch.LaunchRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A step's srun as the supervisor sees it, with a stand-in srun (a shell writing srun's verbose
 * lines): its launching line is found in the server's log, where srun writes it, by the
 * launcher's one reader; the real srun: {@code SlurmLauncherProcessTest}.
 */
class SlurmStepTest {

	@TempDir
	Path dir;

	@Test
	void theLaunchingLineIsReadFromTheLogByTheLaunchersOneReaderEvenInPieces() throws Exception {
		LaunchingLines lines = new LaunchingLines();
		// srun's lines on stderr, the launching line in two writes, then the server's own output
		SlurmStep step = SlurmStep.start(List.of("/bin/sh", "-c", "echo 'srun: jobid 987654321: nodes(1):`node9'\\'', cpu counts: 1(x1)' >&2;"
				+ " sleep 0.2; printf 'srun: launching StepId=987654321.3 on ' >&2; sleep 0.2;"
				+ " echo 'host node9, 1 tasks: 0' >&2; echo serving; exec sleep 30"), request("model-0"), Map.of(), lines);
		try {
			assertThat(step.host().get(30, TimeUnit.SECONDS)).isEqualTo("node9");
			assertThat(step.attributes()).containsEntry(SpanAttributes.SLURM_JOB_ID, "987654321")
				.containsEntry(SpanAttributes.SLURM_STEP_ID, "3");
			assertThat((Long) step.attributes().get(SpanAttributes.SLURM_PENDING_MS)).isGreaterThanOrEqualTo(0L);
			awaitContent(step.log(), "serving");
			assertThat(Files.readString(step.log())).contains("srun: launching StepId=987654321.3 on host node9, 1 tasks: 0",
					"serving");
			// no thread of its own reads srun's output: one reader serves every step of the launcher
			assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
				.noneMatch((name) -> name.equals("slurm-model-0"));
			assertThat(step.describe()).startsWith("srun pid ");
		}
		finally {
			// a job id no cluster has: scancel, if it reaches one, cancels nothing
			SlurmStep.kill(List.of(step));
		}
		assertThat(step.onExit().get(30, TimeUnit.SECONDS).reason()).endsWith("(step 987654321.3)");
	}

	@Test
	void anSrunThatEndsBeforeItsStepLaunchedLeavesNoHostNorStep() throws Exception {
		SlurmStep step = SlurmStep.start(List.of("/bin/sh", "-c", "echo 'srun: error: Unable to create step' >&2; exit 1"),
				request("model-1"), Map.of(), new LaunchingLines());

		assertThat(step.host().get(30, TimeUnit.SECONDS)).isNull();
		assertThat(step.onExit().get(30, TimeUnit.SECONDS)).satisfies((exit) -> {
			assertThat(exit.code()).isEqualTo(1);
			assertThat(exit.reason()).isEqualTo("exited with code 1 (step not created)");
		});
		assertThat(step.attributes()).isEmpty();
		assertThat(Files.readString(step.log())).contains("Unable to create step");
	}

	@Test
	void stoppingStepsNotCreatedYetStopsTheirSruns() throws Exception {
		LaunchingLines lines = new LaunchingLines();
		List<SlurmStep> steps = List.of(
				SlurmStep.start(List.of("sleep", "30"), request("a"), Map.of(), lines),
				SlurmStep.start(List.of("sleep", "30"), request("b"), Map.of(), lines));

		SlurmStep.terminate(steps);

		for (SlurmStep step : steps) {
			step.stopped().get(30, TimeUnit.SECONDS);
			assertThat(step.onExit().get(30, TimeUnit.SECONDS).code()).as("SIGTERM").isEqualTo(128 + 15);
			assertThat(step.host().get(30, TimeUnit.SECONDS)).isNull();
		}
	}

	private LaunchRequest request(String name) {
		return new LaunchRequest(name, "model", 0, 1, List.of("true"), null, null, Map.of(),
				this.dir.resolve(name + ".log"));
	}

	private static void awaitContent(Path file, String text) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (!Files.readString(file).contains(text) && System.nanoTime() < deadline) {
			// the stand-in writes it after its launching line: polled, bounded by the deadline
			TimeUnit.MILLISECONDS.sleep(20);
		}
	}

}
