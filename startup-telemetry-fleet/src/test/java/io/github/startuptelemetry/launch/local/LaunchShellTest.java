package io.github.startuptelemetry.launch.local;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.launch.internal.LaunchShell;
import io.github.startuptelemetry.launch.local.ServerProcess;

/** The launch shell, run for real with {@code /bin/sh}. */
class LaunchShellTest {

	@TempDir
	Path dir;

	@Test
	void argumentsWithShellMetacharactersArePassedOnVerbatim() throws Exception {
		List<String> tricky = List.of("$(touch pwned)", "`touch pwned`", "a; touch pwned", "it's \"quoted\"", "$HOME",
				"", "*", "two  spaces");
		Run run = run(null, concat(List.of("printf", "%s|"), tricky));
		assertThat(run.exitCode).isZero();
		assertThat(run.output).isEqualTo(String.join("|", tricky) + "|");
		assertThat(this.dir.resolve("pwned")).doesNotExist();
	}

	@Test
	void setupRunsInTheServersShellAndItsEndIsStamped() throws Exception {
		long before = System.currentTimeMillis() * 1_000_000L;
		// the setup may not touch the server's arguments, even with set --
		Run run = run("export FROM_SETUP=venv; set -- hijacked",
				List.of("/bin/sh", "-c", "echo \"$FROM_SETUP $NEMO_GYM_STARTUP_SETUP_DONE_NS $0\"", "server"));
		String[] words = run.output.strip().split(" ");
		assertThat(run.exitCode).isZero();
		assertThat(words[0]).isEqualTo("venv");
		assertThat(Long.parseLong(words[1])).isGreaterThanOrEqualTo(before);
		assertThat(words[2]).isEqualTo("server");
	}

	@Test
	void aFailedSetupStopsTheLaunchWithItsExitCode() throws Exception {
		Run run = run("echo setting up; exit 7", List.of("echo", "server started"));
		assertThat(run.exitCode).isEqualTo(7);
		assertThat(run.output).isEqualTo("setting up\n");
	}

	@Test
	void theServerIsTheLaunchShellsOwnProcess() throws Exception {
		Path pidFile = this.dir.resolve("pid");
		Process process = new ProcessBuilder(LaunchShell.commandLine(null,
				List.of("/bin/sh", "-c", "echo $$ > " + pidFile)))
			.start();
		assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(Files.readString(pidFile).strip()).isEqualTo(Long.toString(process.pid()));
	}

	@Test
	void theGuardIsTheServersChildAndEndsWithIt() throws Exception {
		Process server = new ProcessBuilder(LaunchShell.commandLine(null, List.of("sleep", "300"))).start();
		try {
			ProcessHandle guard = guardOf(server);
			server.destroyForcibly();
			assertThat(server.waitFor(10, TimeUnit.SECONDS)).isTrue();
			assertThat(awaitEnded(guard)).as("guard %d ended with its server", guard.pid()).isTrue();
		}
		finally {
			server.descendants().forEach(ProcessHandle::destroyForcibly);
			server.destroyForcibly();
		}
	}

	@Test
	void endOfTheSupervisorsPipeWithoutAStandDownLineKillsEvenAServerThatIgnoresSigterm() throws Exception {
		Path trapped = this.dir.resolve("trapped");
		Process server = new ProcessBuilder(LaunchShell.commandLine(null,
				List.of("/bin/sh", "-c", "trap '' TERM; touch \"$0\"; while :; do sleep 1; done", trapped.toString())))
			.start();
		try {
			ProcessHandle guard = guardOf(server);
			while (!Files.exists(trapped) && server.isAlive()) {
				// the server ignores SIGTERM from here on
				server.waitFor(10, TimeUnit.MILLISECONDS);
			}
			server.getOutputStream().close();
			assertThat(server.waitFor(10, TimeUnit.SECONDS)).isTrue();
			assertThat(server.exitValue()).isEqualTo(128 + 9);
			assertThat(awaitEnded(guard)).isTrue();
		}
		finally {
			server.descendants().forEach(ProcessHandle::destroyForcibly);
			server.destroyForcibly();
		}
	}

	@Test
	void aStandDownLineLeavesTheServerRunningAndEndsTheGuard() throws Exception {
		Process server = new ProcessBuilder(LaunchShell.commandLine(null, List.of("sleep", "300"))).start();
		try {
			ProcessHandle guard = guardOf(server);
			ServerProcess.standDown(server.getOutputStream());
			assertThat(awaitEnded(guard)).isTrue();
			assertThat(server.isAlive()).isTrue();
		}
		finally {
			server.descendants().forEach(ProcessHandle::destroyForcibly);
			server.destroyForcibly();
		}
	}

	/** The launch shell's guard: its child {@code sh -c GUARD startup-telemetry-guard <pid>}. */
	private static ProcessHandle guardOf(Process server) throws Exception {
		List<String> guardArgs = List.of(LaunchShell.GUARD_NAME, Long.toString(server.pid()));
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (System.nanoTime() < deadline) {
			for (ProcessHandle child : server.children().toList()) {
				List<String> args = List.of(child.info().arguments().orElse(new String[0]));
				if (LaunchShell.isGuard(child) && args.size() == 4 && args.subList(2, 4).equals(guardArgs)) {
					return child;
				}
			}
			server.waitFor(20, TimeUnit.MILLISECONDS);
		}
		throw new AssertionError("no guard under " + server.info());
	}

	/** Whether {@code process} ended (a zombie has) within 10 s. */
	private static boolean awaitEnded(ProcessHandle process) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (System.nanoTime() < deadline) {
			if (ended(process)) {
				return true;
			}
			process.onExit().completeOnTimeout(process, 20, TimeUnit.MILLISECONDS).join();
		}
		return false;
	}

	static boolean ended(ProcessHandle process) {
		try {
			String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
			return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
		}
		catch (java.io.IOException ex) {
			return true;
		}
	}

	private Run run(String setup, List<String> command) throws Exception {
		Path out = this.dir.resolve("out");
		Process process = new ProcessBuilder(LaunchShell.commandLine(setup, command)).directory(this.dir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(out.toFile())
			.start();
		assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
		return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
	}

	private static List<String> concat(List<String> a, List<String> b) {
		return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
	}

	private record Run(int exitCode, String output) {

	}

}
