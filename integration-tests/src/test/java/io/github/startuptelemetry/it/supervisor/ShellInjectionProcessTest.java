package io.github.startuptelemetry.it.supervisor;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = { "name | $(touch pwned-1)", "name | x;touch pwned-1", "type | `touch pwned-1`" })
	void anUnsafeNameOrTypeFailsTheSupervisorAtStartAndRunsNothing(String property, String value) throws Exception {
		try (JavaProcess supervisor = this.fleets
			.supervisor(server(0, "safe", "sleep", "300"))
			.args("--telemetry.supervisor.servers[0]." + property + "=" + value,
					"--telemetry.supervisor.servers[0].working-dir=" + this.fleets.tmp(),
					"--telemetry.supervisor.servers[0].setup=echo {name} {type} > setup-ran")
			.workingDir(this.fleets.tmp())
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			assertThat(supervisor.log()).contains("Property: telemetry.supervisor.servers[0]." + property,
					"must be letters, digits, '.', '_' and '-'")
				.doesNotContain("Spawned");
			assertThat(this.fleets.tmp().resolve("setup-ran")).doesNotExist();
			assertThat(this.fleets.tmp().resolve("pwned-1")).doesNotExist();
		}
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
