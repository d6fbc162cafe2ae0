package io.github.startuptelemetry.it.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Fleets.count;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static io.github.startuptelemetry.it.support.Spans.only;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A non-JVM server under our supervisor: a Python stand-in for a NeMo Gym server
 * ({@code gym-standin/gym_standin.py}, standard library only) that reads the env the way Gym's
 * code does ({@code NEMO_GYM_OTEL_*}, {@code OTEL_*}, {@code NEMO_GYM_CONFIG_PATH}, the startup
 * stamps) and posts OTLP/HTTP JSON. The env we hand it is enough: its telemetry is on, it speaks
 * HTTP to our HTTP collector, it keeps its own name, shares the fleet's run id, and its startup
 * hangs under the supervisor's span for it, in one trace.
 */
class PythonChildProcessTest {

	private static final Duration TIMEOUT = Fleets.TIMEOUT;

	@RegisterExtension
	final Fleets fleets = new Fleets();

	@Test
	void aGymStyleChildJoinsTheTrace() throws Exception {
		String script = Path.of(getClass().getResource("/gym-standin/gym_standin.py").toURI()).toString();
		try (JavaProcess supervisor = this.fleets
			.supervisor(server(0, "pyserver", "python3", script, "{port}"))
			.args("--telemetry.supervisor.exit-when-ready=true")
			.workingDir(SampleJars.repositoryRoot())
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			List<ReceivedSpan> spans = this.fleets.receiver().awaitSpans(
					(all) -> count(all, "gym.startup") == 1 && count(all, "gym.server.startup") == 1, TIMEOUT);
			ReceivedSpan root = only(spans, "gym.startup");
			ReceivedSpan spawn = only(spans, "gym.startup.server");
			ReceivedSpan server = only(spans, "gym.server.startup");
			assertThat(server.traceId()).isEqualTo(root.traceId());
			assertThat(server.parentSpanId()).isEqualTo(spawn.spanId());
			assertThat(server.serviceName()).isEqualTo("pyserver");
			assertThat(server.attribute("nemo.gym.server.name")).isEqualTo("pyserver");
			assertThat(server.resourceAttribute("nemo.run.id")).isNotBlank()
				.isEqualTo(root.resourceAttribute("nemo.run.id"));
			assertThat(spans).filteredOn((s) -> s.parentSpanId().equals(server.spanId()))
				.extracting((s) -> s.attribute("nemo.gym.startup.stage"))
				.contains("venv_setup", "interpreter_start", "load_config", "uvicorn_startup");
			assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
		}
	}

}
