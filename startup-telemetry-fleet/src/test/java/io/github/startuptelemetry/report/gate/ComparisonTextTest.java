package io.github.startuptelemetry.report.gate;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.report.gate.Change.Cause;
import io.github.startuptelemetry.report.gate.Change.Kind;
import io.github.startuptelemetry.report.gate.Change.Times;
import io.github.startuptelemetry.report.gate.Change.Verdict;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ComparisonText}: the gate's wording from the result values alone, without the method
 * that judged them (the whole path is in {@link ReportComparisonTest}).
 */
class ComparisonTextTest {

	private static final Change NEW_BEAN = new Change("model-0", Kind.BEAN, "modelLoader", Verdict.SLOWER, Cause.NEW,
			new Times(0, 455, 0, 200, Double.NaN), null, null, 0, List.of());

	private static final Change SAME_STAGE = new Change("model-0", Kind.STAGE, "context_refresh", Verdict.SAME,
			Cause.WALL, new Times(1000, 1010, 1000, 250, Double.NaN), null, null, 1, List.of());

	@Test
	void theHeadingSaysHowManyRunsAndWhatARegressionIs() {
		assertThat(ComparisonText.heading(1, Settings.DEFAULT)).isEqualTo("Compared with the baseline (1 run; a unit "
				+ "regresses beyond +25%, at least 200 ms, or 3× its baseline spread, in its work or its waiting, with "
				+ "the machine's load taken out)");
		assertThat(ComparisonText.heading(3, new Settings(RegressionThreshold.DEFAULT, Map.of(), 0, false)))
			.isEqualTo("Compared with the baseline (median of 3 runs; a unit regresses beyond +25%, at least 200 ms, "
					+ "in its work or its waiting)");
	}

	@Test
	void aChangeIsOneLineAndTheSummaryNamesTheCulprits() {
		assertThat(ComparisonText.line(NEW_BEAN)).startsWith("REGRESSED model-0 bean modelLoader new, 455 ms: in no "
				+ "baseline run");
		assertThat(ComparisonText.line(SAME_STAGE)).startsWith("same      model-0 stage context_refresh ")
			.contains(": the baseline run's;");
		assertThat(ComparisonText.summary(List.of(), List.of())).isEqualTo("no regression");
		assertThat(ComparisonText.summary(List.of(NEW_BEAN), List.of(NEW_BEAN)))
			.isEqualTo("startup regressed: model-0 bean modelLoader (new, 455 ms) (1 regressed unit(s) in all), exit code 3");
	}

	@Test
	void theTextIsTheHeadingTheTwoLinesEachNotableChangeAndTheSummary() {
		assertThat(ComparisonText.text("heading", "speed", "spread", Map.of("model-0", List.of(NEW_BEAN)), "summary"))
			.isEqualTo("heading:\n  speed\n  spread\n  " + ComparisonText.line(NEW_BEAN) + "\nsummary");
		assertThat(ComparisonText.text("heading", "speed", "spread", Map.of(), "no regression"))
			.isEqualTo("heading:\n  speed\n  spread\n  no server, stage, phase, step or slow bean changed beyond its "
					+ "allowance\nno regression");
	}

	@Test
	void aSingleBaselineRunHasNoSpread() {
		assertThat(ComparisonText.spreadLine(1, Settings.DEFAULT, List.of(SAME_STAGE)))
			.startsWith("baseline spread unknown with 1 run");
	}

}
