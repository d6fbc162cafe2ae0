package io.github.startuptelemetry.it.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Fleets.TIMEOUT;
import static io.github.startuptelemetry.it.support.Fleets.awaitEnded;
import static io.github.startuptelemetry.it.support.Fleets.pidOf;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static io.github.startuptelemetry.it.support.Fleets.startedProcesses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A supervisor that dies hard ({@code kill -9}: no shutdown hook, no stop) leaves no server
 * running: the launch shell's guard sees its pipe close and ends the server, JVM or not, even
 * one that ignores SIGTERM.
 */
class OrphanGuardProcessTest {

	/** The guard's bound is about half a second; this one only keeps a broken guard from hanging the test. */
	private static final Duration GONE = Duration.ofSeconds(10);

	@RegisterExtension
	final Fleets fleets = new Fleets();

	/**
	 * One supervisor for both kinds of server (a supervisor JVM fewer than one each): the sample
	 * fleet's JVMs, still starting when it dies (the model loader takes a minute), and a server
	 * that is no JVM and ignores SIGTERM.
	 */
	@Test
	void killingTheSupervisorMidStartLeavesNoServerRunningNotEvenOneThatIsNoJvmAndIgnoresSigterm() throws Exception {
		try (JavaProcess supervisor = this.fleets.supervisor(sampleServer(0, "model", "model"))
			.args(sampleServer(1, "resources", "resources"))
			.args("--telemetry.supervisor.servers[0].replicas=2")
			.args(server(2, "stubborn", "/bin/sh", "-c", "trap '' TERM; exec sleep 300"))
			.env("SAMPLE_MODEL_LOADER_DURATION", "60s")
			.workingDir(SampleJars.repositoryRoot())
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			assertNoneOutliveAKill9(supervisor, 4, "model-0", "model-1", "resources", "stubborn");
		}
	}

	/** A server of the sample fleet (sample-supervisor's application.yml), as server {@code index}. */
	private static String[] sampleServer(int index, String name, String type) {
		String[] declared = server(index, name, "{java}", "-XX:TieredStopAtLevel=1", "-jar",
				SampleJars.server().toString(), "--server.port={port}", "--spring.application.name={name}");
		String[] args = java.util.Arrays.copyOf(declared, declared.length + 1);
		args[declared.length] = "--telemetry.supervisor.servers[" + index + "].type=" + type;
		return args;
	}

	private void assertNoneOutliveAKill9(JavaProcess supervisor, int servers, String... names) throws Exception {
		supervisor.awaitLog("Spawned " + servers + " server(s)", TIMEOUT);
		for (String name : names) {
			assertThat(ProcessHandle.of(pidOf(supervisor, name))).as(name).hasValueSatisfying((p) -> assertThat(p.isAlive()).isTrue());
		}
		// the servers, their guards, and whatever a launch shell runs for a moment (its date stamp), which may end
		// on its own before the kill; JavaProcess.close kills whatever of them is left, pass or fail
		List<ProcessHandle> started = startedProcesses(supervisor);
		assertThat(started).hasSizeGreaterThanOrEqualTo(servers);
		long killed = System.nanoTime();
		supervisor.signal("KILL");
		supervisor.awaitExit(TIMEOUT);
		List<ProcessHandle> left = awaitEnded(started, GONE);
		// the goal (every server gone within 2 s) is measured, not asserted
		System.out.printf("orphan guard: %d process(es) gone %d ms after kill -9 of the supervisor was sent (goal 2000 ms)%n",
				started.size(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
		assertThat(left).as("processes of the fleet still running %s after kill -9 of the supervisor", GONE)
			.isEmpty();
	}

}
