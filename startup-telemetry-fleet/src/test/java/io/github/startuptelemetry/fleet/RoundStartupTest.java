package io.github.startuptelemetry.fleet;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.contract.StartupEnv;
import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.report.StartupReport;

import static org.assertj.core.api.Assertions.assertThat;

/** A compare round's start: recorded for its report, exported nowhere, no trace for its servers. */
class RoundStartupTest {

	@Test
	void serversGetTheSpawnTimeAndTheSettingsButNoTraceparentAndTheReportHasTheirSpawnToReady() {
		RoundStartup round = new RoundStartup((name, type, rank, worldSize) -> Map.of("TELEMETRY_SETTING_FOR_TEST", name));
		round.beginTrace();

		Map<String, String> env = round.serverEnv("a", "model", 0, 2);
		round.serverEnv("b", "model", 1, 2);
		long spawned = Long.parseLong(env.get(StartupEnv.SPAWN_NS));
		round.serverReady("a", "callback", Double.NaN, Double.NaN, spawned + 3_000_000_000L);
		round.serverReady("b", "probe", Double.NaN, Double.NaN, WallClock.nowNs());
		round.serverReady("a", "probe", Double.NaN, Double.NaN, WallClock.nowNs());
		round.finish();

		assertThat(env).containsEntry("TELEMETRY_SETTING_FOR_TEST", "a")
			.doesNotContainKeys(StartupEnv.TRACEPARENT, StartupEnv.OTEL_TRACEPARENT);
		StartupReport report = round.report().orElseThrow();
		assertThat(report.outcome()).isEqualTo(StartupOutcome.READY);
		assertThat(report.traceId()).isNull();
		assertThat(report.servers()).extracting((server) -> server.name()).containsExactly("a", "b");
		// the first ready counts; a ready instant in the future counts as now
		assertThat(report.servers().get(0).spawnToEndNs()).isLessThanOrEqualTo(3_000_000_000L);
		assertThat(report.servers().get(0).ready()).isTrue();
	}

	@Test
	void anAbortedRoundSaysSoAndItsServersThatWereNotReadyTakeItsOutcome() {
		RoundStartup round = new RoundStartup(null);
		round.serverEnv("a", "model", 0, 1);
		round.abort(StartupOutcome.CRASHED, new IllegalStateException("a crashed"));

		StartupReport report = round.report().orElseThrow();
		assertThat(report.ready()).isFalse();
		assertThat(report.error()).isEqualTo("a crashed");
		assertThat(report.servers().get(0).outcome()).isEqualTo(StartupOutcome.CRASHED);
	}

}
