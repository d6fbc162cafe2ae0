package io.github.startuptelemetry.it.supervisor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A supervisor with {@code TELEMETRY_ENABLED=false}, as a real JVM: the starter's import filter
 * drops the telemetry auto-configurations by name, but never the fleet's, so the fleet still
 * starts (on the do-nothing {@code SupervisorStartup}) and a bad fleet still fails naming the
 * property.
 */
class DisabledSupervisorProcessTest {

	@TempDir
	Path tmp;

	@RegisterExtension
	final OtlpReceiver receiver = new OtlpReceiver();

	@Test
	void theFleetStillStartsAndNothingIsExported() throws Exception {
		try (JavaProcess supervisor = new Fleets(this.receiver, this.tmp)
			.supervisor("--telemetry.supervisor.exit-when-ready=true")
			.env("TELEMETRY_ENABLED", "false")
			.workingDir(SampleJars.repositoryRoot())
			.start(this.tmp.resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(Fleets.TIMEOUT)).as(supervisor.log()).isZero();
			List<String> spawned = supervisor.log().lines().filter((line) -> line.contains("Spawned ")).toList();
			assertThat(spawned).as(supervisor.log()).hasSize(1);
			assertThat(spawned.get(0)).contains("Spawned 3 server(s)", "model-0 (pid ", "model-1 (pid ", "resources (pid ");
			// Boot's own spans (a health request) still go where the env says; none of ours
			assertThat(this.receiver.spans()).as("startup spans exported by a fleet with telemetry off")
				.noneSatisfy((span) -> assertThat(span.name()).startsWith("gym."));
			assertThat(Files.exists(this.tmp.resolve("startup-report.html"))).as("a report of nothing").isFalse();
		}
	}

	@Test
	void anIncompleteFleetStillFailsNamingTheProperty() throws Exception {
		try (JavaProcess supervisor = new Fleets(this.receiver, this.tmp)
			.supervisor("--telemetry.supervisor.servers[0].replicas=1")
			.env("TELEMETRY_ENABLED", "false")
			.workingDir(SampleJars.repositoryRoot())
			.start(this.tmp.resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(Fleets.TIMEOUT)).isNotZero();
			assertThat(supervisor.log()).contains("telemetry.supervisor.servers[0].replicas").doesNotContain("Spawned ");
		}
	}

}
