package io.github.startuptelemetry.it.supervisor;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;

import static io.github.startuptelemetry.it.support.Fleets.TIMEOUT;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Shell metacharacters in a fleet's configuration run nothing. A server's name and type are
 * pasted into its setup command and name its log file, so unsafe ones fail the supervisor at
 * start, naming the property; command arguments and env values reach the server verbatim.
 */
class ShellInjectionProcessTest {

	private static final String PAYLOAD = "$(touch pwned-1);`touch pwned-2`;touch pwned-3 'q' \"dq\" | touch pwned-4";

	@RegisterExtension
	final Fleets fleets = new Fleets();

	/**
	 * Three unsafe values, each on a server of its own in one supervisor (a supervisor JVM for
	 * the three, not one each): Boot's bind failure names every property it rejected.
	 */
	@Test
	void anUnsafeNameOrTypeFailsTheSupervisorAtStartAndRunsNothing() throws Exception {
		List<String> rejected = List.of("servers[0].name", "servers[1].name", "servers[2].type");
		try (JavaProcess supervisor = this.fleets
			.supervisor(server(0, "$(touch pwned-1)", "sleep", "300"))
			.args(server(1, "x;touch pwned-1", "sleep", "300"))
			.args(server(2, "safe", "sleep", "300"))
			.args("--telemetry.supervisor.servers[2].type=`touch pwned-1`")
			.args(setup(0))
			.args(setup(1))
			.args(setup(2))
			.workingDir(this.fleets.tmp())
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			for (String property : rejected) {
				assertThat(supervisor.log()).contains("Property: telemetry.supervisor." + property);
			}
			assertThat(supervisor.log()).contains("must be letters, digits, '.', '_' and '-'").doesNotContain("Spawned");
			assertThat(this.fleets.tmp().resolve("setup-ran")).doesNotExist();
			assertThat(this.fleets.tmp().resolve("pwned-1")).doesNotExist();
		}
	}

	/** Server {@code index} runs its setup, which would paste its name and type into a shell, in the test's directory. */
	private String[] setup(int index) {
		String prefix = "--telemetry.supervisor.servers[" + index + "].";
		return new String[] { prefix + "working-dir=" + this.fleets.tmp(),
				prefix + "setup=echo {name} {type} > setup-ran" };
	}

	@Test
	void metacharactersInArgumentsAndEnvReachTheServerVerbatim() throws Exception {
		try (JavaProcess supervisor = this.fleets
			.supervisor(server(0, "echo", "/bin/sh", "-c", "printf %s \"$1\" > arg; printf %s \"$PAYLOAD\" > env", "sh",
					PAYLOAD))
			.args("--telemetry.supervisor.servers[0].env[PAYLOAD]=" + PAYLOAD,
					"--telemetry.supervisor.servers[0].working-dir=" + this.fleets.tmp())
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			// it exits at once, before it is ready: crashed, as any such server
			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			assertThat(supervisor.log()).contains("'echo' exited with code 0 before it was ready");
			assertThat(this.fleets.tmp().resolve("arg")).hasContent(PAYLOAD);
			assertThat(this.fleets.tmp().resolve("env")).hasContent(PAYLOAD);
			for (int i = 1; i <= 4; i++) {
				assertThat(this.fleets.tmp().resolve("pwned-" + i)).doesNotExist();
			}
		}
	}

}
