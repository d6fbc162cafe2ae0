package io.github.startuptelemetry.launch.slurm;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.launch.LaunchRequest;

/** The srun line the {@code slurm} launcher runs (the real srun: {@code SlurmLauncherProcessTest}). */
class SlurmServerLauncherTest {

	private static final String TRICKY = ";$(touch pwned) `id` && x";

	@Test
	void theStepsShapeThenTheOperatorsArgsThenTheLaunchShellWithEveryArgumentAsItIs() {
		SlurmProperties properties = new SlurmProperties();
		properties.setNodes(1);
		properties.setPartition("gpu");
		properties.setSrunArgs(List.of("--gpus-per-task=1"));
		LaunchRequest request = new LaunchRequest("model-0", "model", 0, 1, List.of("python", "serve.py", TRICKY), null,
				null, Map.of("NEMO_GYM_STARTUP_SPAWN_NS", "1"), Path.of("model-0.log"));

		List<String> srun = new SlurmServerLauncher(properties, Map.of("SLURM_JOB_ID", "7")).srunCommand(request);

		assertThat(srun).startsWith("srun", "--verbose", "--overlap", "--export=ALL", "--job-name=model-0", "--ntasks=1",
				"--nodes=1", "--partition=gpu", "--gpus-per-task=1");
		assertThat(srun.subList(9, srun.size())).isEqualTo(request.launchShell());
		assertThat(srun).endsWith("python", "serve.py", TRICKY)
			.noneMatch((argument) -> argument.contains("NEMO_GYM_STARTUP_SPAWN_NS"));
	}

	@Test
	void outsideAnAllocationItSaysHowToGetOne() {
		SlurmServerLauncher launcher = new SlurmServerLauncher(new SlurmProperties(), Map.of());
		assertThat(launcher.unavailable()).contains("SLURM_JOB_ID is not set", "salloc", "sbatch");
		assertThat(new SlurmServerLauncher(new SlurmProperties(), Map.of("SLURM_JOB_ID", "7")).unavailable()).isNull();
	}

}
