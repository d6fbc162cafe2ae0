package io.github.startuptelemetry.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.contract.StartupEnv;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.internal.ClockOffset;
import io.github.startuptelemetry.timeline.internal.JvmCounterReader;
import io.github.startuptelemetry.timeline.internal.SpawnHandOff;
import io.github.startuptelemetry.timeline.internal.WallClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server's timeline against a supervisor of the test's own, on loopback: the supervisor's clock
 * is read off the startup's thread, so that a supervisor slow to answer holds nothing up, and
 * its answer still places the stages before the JVM on this clock.
 */
class ServerStartupTimelineTest {

	/** The supervisor's clock runs this far behind the server's. */
	private static final long BEHIND_NS = TimeUnit.SECONDS.toNanos(5);

	@Test
	void aSupervisorSlowToAnswerTheClockHoldsTheStartupUpNotAtAllAndItsAnswerStillPlacesThePrelude() throws Exception {
		CountDownLatch answer = new CountDownLatch(1);
		try (ServerSocket supervisor = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			CompletableFuture<Boolean> answered = CompletableFuture.supplyAsync(() -> answerLater(supervisor, answer));
			long jvmStartNs = JvmCounterReader.jvmStartMillis() * 1_000_000L;
			// spawned 200 ms before this JVM started, stamped on the supervisor's clock
			long spawnOnSupervisorClock = jvmStartNs - TimeUnit.MILLISECONDS.toNanos(200) - BEHIND_NS;
			Map<String, String> env = Map.of(StartupEnv.SPAWN_NS, Long.toString(spawnOnSupervisorClock),
					TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL, "http://127.0.0.1:" + supervisor.getLocalPort(),
					TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_TOKEN, "s3cret",
					TelemetryEnv.TELEMETRY_STARTUP_SERVER_NAME, "model-0");

			ServerStartupTimeline timeline = ServerStartupTimeline.fromJvmStart(SpawnHandOff.from(env), false,
					WallClock.nowNs(), null, env);

			// the startup went on while the supervisor still held its answer (it used to wait up to a second for it)
			assertThat(answered).isNotDone();
			answer.countDown();
			assertThat(answered.get(60, TimeUnit.SECONDS)).isTrue();
			ClockOffset clock = timeline.clock();
			assertThat(clock).isNotNull();
			assertThat(clock.significant()).isTrue();
			assertThat(clock.offsetMs()).isBetween(5000 - clock.uncertaintyMs() - 1, 5000 + clock.uncertaintyMs() + 1);
			// placed on this clock: interpreter_start lasted the 200 ms, not 5.2 s
			Stage interpreterStart = timeline.stages().get(0);
			assertThat(interpreterStart.name()).isEqualTo(StageNames.INTERPRETER_START);
			assertThat(interpreterStart.endNs()).isEqualTo(jvmStartNs);
			assertThat(interpreterStart.durationMs()).isLessThan(200 + clock.uncertaintyMs() + 1);
			assertThat(timeline.startNs()).isEqualTo(interpreterStart.startNs());
			assertThat(timeline.stages().get(1).name()).isEqualTo(StageNames.MAIN_START);
			assertThat(timeline.stages().get(1).startNs()).isEqualTo(jvmStartNs);
		}
	}

	/** Accept the clock request, wait until the test lets it answer, then answer a clock {@link #BEHIND_NS} behind. */
	private static boolean answerLater(ServerSocket supervisor, CountDownLatch answer) {
		try (Socket socket = supervisor.accept()) {
			InputStream in = socket.getInputStream();
			StringBuilder head = new StringBuilder();
			while (!head.toString().endsWith("\r\n\r\n")) {
				int read = in.read();
				if (read < 0) {
					return false;
				}
				head.append((char) read);
			}
			if (!head.toString().startsWith("GET /clock?server=model-0 ") || !answer.await(60, TimeUnit.SECONDS)) {
				return false;
			}
			byte[] now = Long.toString(WallClock.nowNs() - BEHIND_NS).getBytes(StandardCharsets.US_ASCII);
			OutputStream out = socket.getOutputStream();
			out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + now.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			out.write(now);
			out.flush();
			return true;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
