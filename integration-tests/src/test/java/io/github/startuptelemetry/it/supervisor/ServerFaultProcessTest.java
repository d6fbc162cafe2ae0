package io.github.startuptelemetry.it.supervisor;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Fleets.TIMEOUT;
import static io.github.startuptelemetry.it.support.Fleets.assertAllStopped;
import static io.github.startuptelemetry.it.support.Fleets.byServer;
import static io.github.startuptelemetry.it.support.Fleets.pidOf;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static io.github.startuptelemetry.it.support.Fleets.startedProcesses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Servers that fail in the ways real ones do, each under the real sample supervisor: the
 * startup ends with the right outcome, exported, and nothing it started is left running. (A
 * server that exits before it is ready is in {@link SupervisorFleetProcessTest}.) The cases run at
 * once: each is a supervisor of its own, and most of their time is a ready or stop timeout.
 */
@Execution(ExecutionMode.CONCURRENT)
class ServerFaultProcessTest {

	@RegisterExtension
	final Fleets fleets = new Fleets();

	/**
	 * hang: it listens and never answers (every probe times out); unhealthy: it answers 503. One
	 * fleet of both (one supervisor start for the two ways, each asserted on its own server).
	 */
	@Test
	void aServerThatListensButNeverGetsHealthyAbortsTheStartupAsTimeout() throws Exception {
		List<String> modes = List.of("hang", "unhealthy");
		try (JavaProcess supervisor = this.fleets.supervisor(faultyServer(0, "hang"))
			.args(faultyServer(1, "unhealthy"))
			.args("--telemetry.supervisor.ready-timeout=8s")
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitLog("Spawned 2 server(s)", TIMEOUT);
			List<ProcessHandle> started = startedProcesses(supervisor);

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			ReceivedSpan root = this.fleets.abortedRoot("timeout");
			assertThat(root.span().getStatus().getMessage()).contains("Not ready after 8000 ms: hang (log ",
					", unhealthy (log ");
			Map<String, ReceivedSpan> servers = byServer(this.fleets.receiver().spans(), "gym.startup.server");
			assertThat(servers).containsOnlyKeys(modes);
			for (String mode : modes) {
				assertThat(servers.get(mode).attribute("nemo.gym.startup.outcome")).as(mode).isEqualTo("timeout");
				// it was up and listening all along: the probes reached it
				assertThat(this.fleets.runDir().resolve(mode + ".log")).content().contains("listening on");
			}
			assertAllStopped(started, 2);
		}
	}

	@Test
	void aServerKilledMidStartAbortsTheStartupAsCrashedWithExitCode137() throws Exception {
		try (JavaProcess supervisor = this.fleets.supervisor(faultyServer(0, "hang"))
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitLog("Spawned 1 server(s)", TIMEOUT);
			List<ProcessHandle> started = startedProcesses(supervisor);

			ProcessHandle.of(pidOf(supervisor, "hang")).orElseThrow().destroyForcibly();

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			ReceivedSpan root = this.fleets.abortedRoot("crashed");
			assertThat(root.span().getStatus().getMessage()).contains("'hang' exited with code 137");
			assertAllStopped(started, 1);
		}
	}

	@Test
	void aServerWhosePortIsTakenCrashesAndTheReasonIsInTheOutcome() throws Exception {
		try (ServerSocket taken = new ServerSocket(0);
				JavaProcess supervisor = this.fleets
					.supervisor(server(0, "clash", "{java}", "-XX:TieredStopAtLevel=1", "-jar",
							SampleJars.server().toString(), "--server.port=" + taken.getLocalPort()))
					.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitLog("Spawned 1 server(s)", TIMEOUT);
			List<ProcessHandle> started = startedProcesses(supervisor);

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			ReceivedSpan root = this.fleets.abortedRoot("crashed");
			// the last lines of the server's own log say why
			assertThat(root.span().getStatus().getMessage()).contains("'clash' exited with code 1",
					"Port " + taken.getLocalPort() + " was already in use");
			assertThat(supervisor.log()).contains("The fleet did not start (crashed)");
			assertAllStopped(started, 1);
		}
	}

	@Test
	void aServerThatIgnoresSigtermIsKilledAfterTheStopTimeoutAndTheSupervisorSaysSo() throws Exception {
		try (JavaProcess supervisor = this.fleets
			.supervisor(server(0, "stubborn", "/bin/sh", "-c", "trap '' TERM; exec sleep 300"))
			.args("--telemetry.supervisor.ready-timeout=2s", "--telemetry.supervisor.stop-timeout=1s")
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitLog("Spawned 1 server(s)", TIMEOUT);
			List<ProcessHandle> started = startedProcesses(supervisor);

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			this.fleets.abortedRoot("timeout");
			assertThat(supervisor.log()).contains("1 process(es) still running 1000 ms after SIGTERM "
					+ "(telemetry.supervisor.stop-timeout) were killed: pid " + pidOf(supervisor, "stubborn"));
			assertAllStopped(started, 1);
		}
	}

	/** Server {@code index}, named after its {@code mode} of {@code FaultyServer}, listening on {@code {port}}. */
	private String[] faultyServer(int index, String mode) throws Exception {
		Path classes = Path.of(FaultyServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		return server(index, mode, "{java}", "-XX:TieredStopAtLevel=1", "-cp", classes.toString(),
				FaultyServer.class.getName(), mode, "{port}");
	}

}
