package io.github.startuptelemetry.supervisor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

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
