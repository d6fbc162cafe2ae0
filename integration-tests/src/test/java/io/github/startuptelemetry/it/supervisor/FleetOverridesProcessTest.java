package io.github.startuptelemetry.it.supervisor;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an operator meets who changes one field of the sample supervisor's fleet (declared as a
 * {@code servers} list in its YAML) from the command line: the supervisor fails before it spawns
 * anything, blaming the property they set and saying how to do it.
 */
class FleetOverridesProcessTest {

	@TempDir
	Path tmp;

	@RegisterExtension
	final OtlpReceiver receiver = new OtlpReceiver();

	@Test
	void oneFieldOfAListedServerFailsTheStartBlamingThatProperty() throws Exception {
		try (JavaProcess supervisor = new Fleets(this.receiver, this.tmp)
			.supervisor("--telemetry.supervisor.servers[0].replicas=1")
			.workingDir(SampleJars.repositoryRoot())
			.start(this.tmp.resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(Fleets.TIMEOUT)).isNotZero();
			assertThat(supervisor.log()).contains("telemetry.supervisor.servers[0].replicas")
				.contains("telemetry.supervisor.fleet.<name>.replicas")
				.doesNotContain("Property: telemetry.supervisor.servers[0].name")
				.doesNotContain("Spawned ");
		}
	}

}
