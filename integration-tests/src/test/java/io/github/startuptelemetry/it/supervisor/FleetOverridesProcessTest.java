package io.github.startuptelemetry.it.supervisor;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an operator meets who changes one field of the sample supervisor's fleet (declared as a
 * {@code servers} list in its YAML) from the command line: the supervisor fails before it spawns
 * anything, blaming the property they set and saying how to do it.
 */
class FleetOverridesProcessTest {

	@RegisterExtension
	final Fleets fleets = new Fleets();

	@Test
	void oneFieldOfAListedServerFailsTheStartBlamingThatProperty() throws Exception {
		try (JavaProcess supervisor = this.fleets
			.supervisor("--telemetry.supervisor.servers[0].replicas=1")
			.workingDir(SampleJars.repositoryRoot())
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(Fleets.TIMEOUT)).isNotZero();
			assertThat(supervisor.log()).contains("telemetry.supervisor.servers[0].replicas")
				.contains("telemetry.supervisor.fleet.<name>.replicas")
				.doesNotContain("Property: telemetry.supervisor.servers[0].name")
				.doesNotContain("Spawned ");
		}
	}

}
