package io.github.startuptelemetry.report.gate;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.report.gate.ReportTimes.ServerTimes;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RegressionJudge} on its own: what it finds is what {@link ReportComparison} carries, for
 * the servers the baseline has.
 */
class RegressionJudgeTest {

	@Test
	void itJudgesOnlyTheServersTheBaselineHasAndTheComparisonCarriesItsFindings() {
		List<List<ServerTimes>> baselines = List.of(List.of(new ServerTimes("model-0", "ready", 1000.0,
				java.util.Map.of("load", 800.0), java.util.Map.of())));
		List<ServerTimes> current = List.of(
				new ServerTimes("model-0", "ready", 1600.0, java.util.Map.of("load", 1400.0), java.util.Map.of()),
				new ServerTimes("other", "ready", 100.0, java.util.Map.of(), java.util.Map.of()));
		RegressionJudge.Judgement judged = RegressionJudge.judge(baselines, current, Settings.DEFAULT);
		assertThat(judged.serverSpeeds()).containsOnlyKeys("model-0");
		assertThat(judged.changes()).extracting(Change::unit).containsExactly("spawn→ready", "stage load");
		assertThat(judged.changes()).allMatch(Change::regression);
		ReportComparison comparison = ReportComparison.compare(baselines, current, Settings.DEFAULT);
		assertThat(comparison.changes()).isEqualTo(judged.changes());
		assertThat(comparison.serverSpeeds()).isEqualTo(judged.serverSpeeds());
		assertThat(comparison.baselineRuns()).isEqualTo(1);
	}

}
