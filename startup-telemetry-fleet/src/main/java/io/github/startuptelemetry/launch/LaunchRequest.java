package io.github.startuptelemetry.launch;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.github.startuptelemetry.launch.internal.LaunchShell;

/**
 * One planned server, as a {@link ServerLauncher} gets it: every placeholder filled in.
 *
 * @param name its name, unique in the fleet (letters, digits, {@code .}, {@code _}, {@code -})
 * @param type its type
 * @param rank its index among the servers of its type
 * @param worldSize how many servers of its type there are
 * @param command the program and its arguments
 * @param setup the shell step to run first, or {@code null}
 * @param workingDir its working directory, or {@code null} for the supervisor's
 * @param env the env contract and the server's own env: to set over the environment it inherits
 * from the supervisor (passed as values, never through a shell string)
 * @param log the file its output (stdout and stderr) goes to
 */
public record LaunchRequest(String name, String type, int rank, int worldSize, List<String> command, String setup,
		Path workingDir, Map<String, String> env, Path log) {

	public LaunchRequest {
		command = List.copyOf(command);
		env = Map.copyOf(env);
	}

	/**
	 * The command line to run where the server runs: the fixed launch shell, which runs the setup
	 * step, stamps its end, guards against the supervisor's death (through its standard input),
	 * then execs {@link #command()}. Arguments are passed as arguments, never pasted into code.
	 */
	public List<String> launchShell() {
		return LaunchShell.commandLine(this.setup, this.command);
	}

}
