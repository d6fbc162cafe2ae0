package io.github.startuptelemetry.launch.slurm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.github.startuptelemetry.contract.SlurmAttributes;
import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.launch.ServerLauncher;

/**
 * The {@code slurm} launcher: inside an allocation ({@code SLURM_JOB_ID} set), each server is a
 * job step, {@code srun --overlap} running the launch shell, with the env contract set on the
 * {@code srun} process and passed on with {@code --export=ALL}, never through a shell string.
 */
final class SlurmServerLauncher implements ServerLauncher {

	static final String NAME = "slurm";

	private final SlurmProperties properties;

	private final Map<String, String> supervisorEnv;

	/** One reader of srun's launching lines for all the steps. */
	private final LaunchingLines launchingLines = new LaunchingLines();

	SlurmServerLauncher(SlurmProperties properties, Map<String, String> supervisorEnv) {
		this.properties = properties;
		this.supervisorEnv = supervisorEnv;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public String unavailable() {
		String job = this.supervisorEnv.get(SlurmAttributes.ENV_JOB_ID);
		if (job == null || job.isBlank()) {
			return "the slurm launcher runs each server as a job step of the allocation the supervisor runs in, "
					+ "and SLURM_JOB_ID is not set: start the supervisor inside an allocation, e.g. "
					+ "'salloc -N1 java -jar supervisor.jar' or from an sbatch script";
		}
		return null;
	}

	@Override
	public LaunchedServer launch(LaunchRequest request) throws IOException {
		return SlurmStep.start(srunCommand(request), request, this.properties.getEnv(), this.launchingLines);
	}

	/** Its own steps with one scancel ({@link SlurmStep#terminate(List)}), not one a step. */
	@Override
	public void terminate(List<LaunchedServer> servers) {
		SlurmStep.terminate(own(servers, LaunchedServer::terminate));
	}

	/** Its own steps with one scancel ({@link SlurmStep#kill(List)}). */
	@Override
	public List<String> kill(List<LaunchedServer> servers) {
		List<String> killed = new ArrayList<>();
		killed.addAll(SlurmStep.kill(own(servers, (server) -> killed.addAll(server.kill()))));
		return killed;
	}

	/** Its own steps among {@code servers}; any other is handed to {@code other}. */
	private static List<SlurmStep> own(List<LaunchedServer> servers, Consumer<LaunchedServer> other) {
		List<SlurmStep> steps = new ArrayList<>();
		for (LaunchedServer server : servers) {
			if (server instanceof SlurmStep step) {
				steps.add(step);
			}
			else {
				other.accept(server);
			}
		}
		return steps;
	}

	/** srun's command line: the step's shape, the operator's srun-args, then the launch shell. */
	List<String> srunCommand(LaunchRequest request) {
		List<String> command = new ArrayList<>(List.of("srun", "--verbose", "--overlap", "--export=ALL",
				"--job-name=" + request.name(), "--ntasks=" + this.properties.getNtasks()));
		if (this.properties.getNodes() != null) {
			command.add("--nodes=" + this.properties.getNodes());
		}
		if (this.properties.getPartition() != null) {
			command.add("--partition=" + this.properties.getPartition());
		}
		if (request.workingDir() != null) {
			command.add("--chdir=" + request.workingDir());
		}
		command.addAll(this.properties.getSrunArgs());
		command.addAll(request.launchShell());
		return command;
	}

}
