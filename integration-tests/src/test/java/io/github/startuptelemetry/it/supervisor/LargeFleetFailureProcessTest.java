package io.github.startuptelemetry.it.supervisor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.OtlpReceiver.Request;

import static io.github.startuptelemetry.it.support.Fleets.TIMEOUT;
import static io.github.startuptelemetry.it.support.Fleets.assertAllStopped;
import static io.github.startuptelemetry.it.support.Fleets.byServer;
import static io.github.startuptelemetry.it.support.Fleets.count;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static io.github.startuptelemetry.it.support.Fleets.startedProcesses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failed startup of a few hundred servers under the real sample supervisor (issue 34; the scale
 * benchmark runs it at 600 and 10,000): the root and every server's span arrive, in requests a
 * Collector takes (its gRPC receiver's 4 MiB), each server's span saying why in its own bounded
 * words, the failure said once, and no line of the supervisor's log past 4 KB. The servers are
 * {@code sleep}s, so that a few hundred cost little more than their processes.
 */
class LargeFleetFailureProcessTest {

	private static final int SLEEPERS = 300;

	private static final long MAX_REQUEST_BYTES = 4L << 20;

	private static final int MAX_LINE_BYTES = 4096;

	@RegisterExtension
	final Fleets fleets = new Fleets();

	@Test
	void aFleetNotReadyAtTheTimeoutIsExportedWholeEachServerSayingWhyInBoundedRequestsAndLines() throws Exception {
		try (JavaProcess supervisor = this.fleets.supervisor(sleepers(0, SLEEPERS))
			.args("--telemetry.supervisor.ready-timeout=3s")
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitLog("Spawned " + SLEEPERS + " server(s)", TIMEOUT);
			List<ProcessHandle> started = startedProcesses(supervisor);

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			ReceivedSpan root = this.fleets.abortedRoot("timeout");
			assertThat(root.span().getStatus().getMessage())
				.startsWith("Not ready after 3000 ms: " + SLEEPERS + " servers: sleep-0 (log " + this.fleets.runDir())
				.endsWith(" and " + (SLEEPERS - 10) + " more (each one's span and the report name them all)");
			Map<String, ReceivedSpan> servers = byServer(this.fleets.receiver()
				.awaitSpans((all) -> count(all, "gym.startup.server") == SLEEPERS, TIMEOUT), "gym.startup.server");
			for (int i = 0; i < SLEEPERS; i++) {
				ReceivedSpan server = servers.get("sleep-" + i);
				assertThat(server.attribute("nemo.gym.startup.outcome")).isEqualTo("timeout");
				assertThat(server.isError()).isTrue();
				assertThat(server.span().getStatus().getMessage()).isEqualTo("not ready after 3000 ms; nothing in its log, "
						+ this.fleets.runDir().resolve("sleep-" + i + ".log"));
				assertThat(server.span().getEventsList()).as("the failure is the root's alone").isEmpty();
			}
			assertRequestsAndLinesBounded(supervisor);
			assertThat(supervisor.log()).contains("The fleet did not start (timeout): Not ready after 3000 ms: "
					+ SLEEPERS + " servers: sleep-0 (log ");
			assertAllStopped(started, SLEEPERS);
		}
	}

	@Test
	void aServerThatCrashesAmongHundredsSaysWhyOnItsOwnSpanAndTheOthersThatTheyWereStillStarting() throws Exception {
		int sleepers = SLEEPERS - 100;
		// a 10,000-character line, then the one that says why, then exit 3: once every server is spawned
		String crash = "while [ ! -e go ]; do sleep 0.05; done; head -c 10000 /dev/zero | tr '\\0' x; echo; "
				+ "echo boom; exit 3";
		try (JavaProcess supervisor = this.fleets.supervisor(server(0, "crasher", "/bin/sh", "-c", crash))
			.args(sleepers(1, sleepers))
			.args("--telemetry.supervisor.servers[0].working-dir=" + this.fleets.tmp())
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitLog("Spawned " + (sleepers + 1) + " server(s)", TIMEOUT);
			List<ProcessHandle> started = startedProcesses(supervisor);
			Files.writeString(this.fleets.tmp().resolve("go"), "");

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			ReceivedSpan root = this.fleets.abortedRoot("crashed");
			assertThat(root.span().getStatus().getMessage()).startsWith("Server 'crasher' exited with code 3")
				.contains("xxx … (")
				.endsWith(" more characters)\nboom")
				.hasSizeLessThan(2048);
			Map<String, ReceivedSpan> servers = byServer(this.fleets.receiver()
				.awaitSpans((all) -> count(all, "gym.startup.server") == sleepers + 1, TIMEOUT), "gym.startup.server");
			assertThat(servers.get("crasher").span().getStatus().getMessage())
				.startsWith("exited with code 3 before it was ready; last lines of "
						+ this.fleets.runDir().resolve("crasher.log") + ":\n")
				.endsWith("\nboom")
				.hasSizeLessThan(2048);
			for (int i = 0; i < sleepers; i++) {
				ReceivedSpan server = servers.get("sleep-" + i);
				assertThat(server.attribute("nemo.gym.startup.outcome")).isEqualTo("crashed");
				assertThat(server.span().getStatus().getMessage())
					.startsWith("still starting when the startup failed (crashed); nothing in its log, ");
			}
			assertRequestsAndLinesBounded(supervisor);
			assertAllStopped(started, sleepers);
		}
	}

	/** Every request within a Collector's gRPC limit, every line of the supervisor's log within 4 KB. */
	private void assertRequestsAndLinesBounded(JavaProcess supervisor) {
		assertThat(this.fleets.receiver().requests()).isNotEmpty()
			.allSatisfy((request) -> assertThat(request.bytes()).as(request.path()).isLessThanOrEqualTo(MAX_REQUEST_BYTES));
		assertThat(this.fleets.receiver().requests().stream().filter(Request::traces).count()).isPositive();
		assertThat(supervisor.log().lines()).allSatisfy((line) -> assertThat(line.getBytes(StandardCharsets.UTF_8).length)
			.as("a line of the supervisor's log: %.80s…", line)
			.isLessThanOrEqualTo(MAX_LINE_BYTES));
	}

	/** Server {@code index}: {@code count} replicas of {@code sleep 300}, probed where nothing listens. */
	private static String[] sleepers(int index, int count) {
		String prefix = "--telemetry.supervisor.servers[" + index + "].";
		return new String[] { prefix + "name=sleep", prefix + "replicas=" + count, prefix + "command[0]=sleep",
				prefix + "command[1]=300", prefix + "health-url=http://127.0.0.1:{port}/health" };
	}

}
