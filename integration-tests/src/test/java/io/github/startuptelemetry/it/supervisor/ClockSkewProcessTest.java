package io.github.startuptelemetry.it.supervisor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Fleets.count;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static io.github.startuptelemetry.it.support.Spans.stages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real clock skew: two sample servers run under Debian's libfaketime (preloaded, wall
 * clock only: {@code FAKETIME_DONT_FAKE_MONOTONIC=1}), one 5 s ahead of the supervisor, one 5 s
 * behind, in one supervisor run. {@code FAKETIME_FORCE_MONOTONIC_FIX=0}: with libfaketime
 * 0.9.10's glibc work-around on, the JVM's timed waits end late and a sample server took 84 s
 * to start instead of 5. Their callbacks measure the offset; with it the stages that
 * cross the process boundary ({@code venv_setup}, {@code interpreter_start}, measured from the
 * supervisor's stamps) are placed, not dropped (behind) nor stretched by the shift (ahead).
 */
class ClockSkewProcessTest {

	private static final long SHIFT_MS = 5000;

	/**
	 * What the offset may miss the shift by beyond its stated uncertainty. libfaketime's
	 * {@code +5s} is an exact, constant offset and Cristian's method bounds the error by half the
	 * round trip when both clocks are read inside it, so in theory nothing; the slack covers the
	 * wall clock's resolution and libfaketime's own arithmetic (its offsets are applied to
	 * {@code clock_gettime} in nanoseconds, but a JVM's first clock read may be cached across a
	 * tick): 2 ms, the same tolerance the server grants its own millisecond JVM start time.
	 */
	private static final double SLACK_MS = 2;

	@RegisterExtension
	final Fleets fleets = new Fleets();

	@Test
	void serversOnShiftedClocksStillReportTheirEarlyStagesAndTheOffset() throws Exception {
		Path libfaketime = libfaketime();
		assumeTrue(libfaketime != null, "libfaketime (Debian package faketime) is not installed");
		String jar = SampleJars.repositoryRoot().resolve("sample-server/target/sample-server.jar").toString();
		try (JavaProcess supervisor = this.fleets.supervisor("--telemetry.supervisor.exit-when-ready=true")
			.args(shifted(0, "ahead", "+5s", jar, libfaketime))
			.args(shifted(1, "behind", "-5s", jar, libfaketime))
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(Fleets.TIMEOUT)).as(supervisor.log()).isZero();
			List<ReceivedSpan> spans = this.fleets.receiver().awaitSpans(
					(all) -> count(all, "gym.startup") == 1 && count(all, "gym.server.startup") == 2, Fleets.TIMEOUT);
			Map<String, ReceivedSpan> supervised = byServer(spans, "gym.startup.server");
			Map<String, ReceivedSpan> roots = byServer(spans, "gym.server.startup");
			assertThat(supervised).containsOnlyKeys("ahead", "behind");
			for (Map.Entry<String, Long> expected : Map.of("ahead", SHIFT_MS, "behind", -SHIFT_MS).entrySet()) {
				String name = expected.getKey();
				ReceivedSpan server = supervised.get(name);
				assertThat(server.attribute("startup.readiness.source")).as(name).isEqualTo("callback");
				double offset = Double.parseDouble(server.attribute("startup.clock.offset_ms"));
				double uncertainty = Double.parseDouble(server.attribute("startup.clock.uncertainty_ms"));
				assertThat(uncertainty).as(name).isNotNegative();
				assertThat(Math.abs(offset - expected.getValue())).as("%s: offset %s ms +- %s ms", name, offset, uncertainty)
					.isLessThanOrEqualTo(uncertainty + SLACK_MS);
				Map<String, ReceivedSpan> stages = new HashMap<>();
				stages(spans, roots.get(name)).forEach((stage) -> stages.put(stage.attribute("nemo.gym.startup.stage"), stage));
				assertThat(stages).as(name).containsKeys("venv_setup", "interpreter_start");
				assertThat(roots.get(name).attribute("nemo.gym.startup.ignored_env")).as(name).isNull();
				for (String early : List.of("venv_setup", "interpreter_start")) {
					long ns = stages.get(early).endNs() - stages.get(early).startNs();
					// uncorrected, "ahead" would carry the whole shift here (it did: 5042 ms)
					assertThat(ns).as("%s %s", name, early).isNotNegative().isLessThan(SHIFT_MS * 1_000_000L);
				}
			}
			assertThat(probeLagCells(supervisor.log())).hasSize(2).allSatisfy((cell) -> assertThat(cell).doesNotStartWith("-"));
		}
	}

	/**
	 * libfaketime preloaded into the server's JVM alone (after the launch shell's own stamps), not
	 * through the {@code faketime} wrapper: the wrapper keeps a semaphore and a shared-memory file
	 * per process in /dev/shm that a SIGTERM leaves behind, and a later process with the same pid
	 * then fails on them ({@code sem_open: File exists}).
	 */
	private static String[] shifted(int index, String name, String shift, String jar, Path libfaketime) {
		return Stream.concat(
				Stream.of(server(index, name, "env", "LD_PRELOAD=" + libfaketime, "FAKETIME=" + shift, "{java}",
						"-XX:TieredStopAtLevel=1", "-jar", jar,
						"--server.port={port}", "--spring.application.name={name}")),
				Stream.of("--telemetry.supervisor.servers[" + index + "].env.FAKETIME_DONT_FAKE_MONOTONIC=1",
						"--telemetry.supervisor.servers[" + index + "].env.FAKETIME_FORCE_MONOTONIC_FIX=0"))
			.toArray(String[]::new);
	}

	private static Map<String, ReceivedSpan> byServer(List<ReceivedSpan> spans, String name) {
		Map<String, ReceivedSpan> byServer = new HashMap<>();
		spans.stream()
			.filter((span) -> span.name().equals(name))
			.forEach((span) -> byServer.put(span.attribute("nemo.gym.server.name"), span));
		return byServer;
	}

	/** The console table's probe-lag cell of each server row (the column before the outcome). */
	private static List<String> probeLagCells(String log) {
		return log.lines()
			.filter((line) -> Pattern.compile("^\\s*(ahead|behind)\\s").matcher(line).find())
			.map((line) -> line.trim().split("\\s{2,}"))
			.filter((cells) -> cells.length > 3)
			.map((cells) -> cells[cells.length - 2])
			.toList();
	}

	/** Debian's libfaketime, wherever its package put it; {@code null} without it. */
	private static Path libfaketime() throws java.io.IOException {
		for (Path lib : List.of(Path.of("/usr/lib"), Path.of("/usr/local/lib"))) {
			if (!Files.isDirectory(lib)) {
				continue;
			}
			try (Stream<Path> found = Files.find(lib, 3,
					(path, attributes) -> path.getFileName().toString().equals("libfaketime.so.1"))) {
				Path first = found.findFirst().orElse(null);
				if (first != null) {
					return first;
				}
			}
		}
		return null;
	}

}
