package io.github.startuptelemetry.report;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.github.startuptelemetry.report.JsonReport.ServerTimes;
import io.github.startuptelemetry.report.ReportComparison.Change;
import io.github.startuptelemetry.report.ReportComparison.Kind;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/** Comparing JSON reports: thresholds, medians, the gate, and the standalone compare. */
class ReportComparisonTest {

	private static final long S = 1_000_000_000L;

	private static final long MS = 1_000_000L;

	private static final long T0 = 1_700_000_000L * S;

	@TempDir
	Path tmp;

	@Test
	void aThresholdIsRelativeWithAnAbsoluteFloor() {
		RegressionThreshold threshold = RegressionThreshold.parse("25%,200ms");
		assertThat(threshold.slower(100, 290)).as("+190 ms, under the floor").isFalse();
		assertThat(threshold.slower(100, 310)).as("+210 ms").isTrue();
		assertThat(threshold.slower(4000, 4900)).as("+22%").isFalse();
		assertThat(threshold.slower(4000, 5100)).as("+27%").isTrue();
		assertThat(threshold.faster(4000, 2900)).isTrue();
		assertThat(RegressionThreshold.parse("10%")).isEqualTo(new RegressionThreshold(0.10, 200));
		assertThat(RegressionThreshold.parse("1.5s")).isEqualTo(new RegressionThreshold(0.25, 1500));
		assertThat(threshold).hasToString("+25%, at least 200 ms");
		assertThatIllegalArgumentException().isThrownBy(() -> RegressionThreshold.parse("fast"))
			.withMessageContaining("'fast' is neither a percentage nor a duration");
		assertThatIllegalArgumentException().isThrownBy(() -> RegressionThreshold.parse("-5%"));
	}

	@Test
	void theBaselineIsTheMedianAndOnlyServersAndStagesGate() {
		List<List<ServerTimes>> baselines = List.of(List.of(times(1000, 400, 300)), List.of(times(1200, 500, 350)),
				List.of(times(9000, 450, 320)));
		ReportComparison comparison = ReportComparison.compare(baselines, List.of(times(1300, 1400, 1300)),
				RegressionThreshold.DEFAULT, Map.of());

		assertThat(comparison.baselineRuns()).isEqualTo(3);
		Change server = comparison.changes().get(0);
		assertThat(server.kind()).isEqualTo(Kind.SERVER);
		assertThat(server.beforeMs()).as("the median ignores the outlier").isEqualTo(1200);
		assertThat(server.regression()).as("+100 ms").isFalse();
		assertThat(comparison.regressions()).extracting(Change::name).containsExactly("beans_instantiated");
		assertThat(comparison.changes()).filteredOn((change) -> change.kind() == Kind.BEAN)
			.singleElement()
			.satisfies((bean) -> {
				assertThat(bean.verdict()).isEqualTo(ReportComparison.Verdict.SLOWER);
				assertThat(bean.regression()).as("beans explain, they do not gate").isFalse();
			});
		assertThat(comparison.exitCode()).isEqualTo(3);
		assertThat(comparison.text()).contains("median of 3 runs", "REGRESSED m stage beans_instantiated 450 ms → 1.4 s (+950 ms, +211%)",
				"slower    m bean modelLoader 320 ms → 1.3 s", "exit code 3");
	}

	@Test
	void aStageOfItsOwnThresholdAndAnUnchangedStartupPass() {
		List<List<ServerTimes>> baselines = List.of(List.of(times(1000, 450, 320)));
		ReportComparison lenient = ReportComparison.compare(baselines, List.of(times(1000, 1400, 1200)),
				RegressionThreshold.DEFAULT, Map.of("beans_instantiated", RegressionThreshold.parse("300%")));
		assertThat(lenient.regressed()).isFalse();
		assertThat(lenient.notable()).as("its beans are judged by the stage's threshold too").isEmpty();
		assertThat(lenient.text()).contains("no regression");
		ReportComparison same = ReportComparison.compare(baselines, List.of(times(1010, 455, 322)),
				RegressionThreshold.DEFAULT, Map.of());
		assertThat(same.exitCode()).isZero();
		assertThat(same.text()).contains("no server, stage or slow bean changed beyond the threshold");
	}

	@Test
	void theStandaloneCompareReadsReportFilesAndExitsWithTheGatesCode() throws Exception {
		Path base = Files.writeString(this.tmp.resolve("base.json"), JsonReport.render(report(450, 320)));
		Path slow = Files.writeString(this.tmp.resolve("new.json"), JsonReport.render(report(2000, 1800)));
		Path broken = Files.writeString(this.tmp.resolve("broken.json"), "{\"schemaVersion\": 1, \"servers\": [");
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();

		assertThat(Compare.run(new String[] { base.toString(), slow.toString() }, print(out), print(err))).isEqualTo(3);
		assertThat(out.toString(StandardCharsets.UTF_8)).contains("REGRESSED model-0 stage beans_instantiated",
				"slower    model-0 bean modelLoader");
		assertThat(Compare.run(new String[] { base.toString(), base.toString() }, print(out), print(err))).isZero();
		assertThat(Compare.run(new String[] { "--max-regression=1000%", base.toString(), slow.toString() }, print(out),
				print(err)))
			.isZero();
		assertThat(Compare.run(new String[] { base.toString(), broken.toString() }, print(out), print(err))).isEqualTo(2);
		assertThat(err.toString(StandardCharsets.UTF_8)).contains(broken.toString(), "Not a JSON report");
		assertThat(Compare.run(new String[] { base.toString() }, print(out), print(err))).isEqualTo(2);
	}

	private static PrintStream print(ByteArrayOutputStream out) {
		return new PrintStream(out, true, StandardCharsets.UTF_8);
	}

	private static ServerTimes times(double spawnToReadyMs, double beansMs, double loaderMs) {
		return new ServerTimes("m", "ready", spawnToReadyMs, Map.of("main_start", 300.0, "beans_instantiated", beansMs),
				Map.of("modelLoader", loaderMs));
	}

	/** A real report, through the JSON document. */
	private static StartupReport report(long beansMs, long loaderMs) {
		StepTiming loader = TestTimelines.bean("modelLoader", "com.example.ModelLoader", T0 + S, T0 + S + loaderMs * MS,
				List.of());
		long ready = T0 + S + beansMs * MS;
		ServerReport server = ServerReport.of("model-0", "model", T0, ready, "ready")
			.withTimeline(TestTimelines.of(List.of(new Stage("main_start", T0, T0 + S),
					new Stage("beans_instantiated", T0 + S, ready)), ready, List.of(loader)));
		return new StartupReport(null, T0, ready, "ready", null, List.of(new Stage("wait_for_servers", T0, ready)),
				List.of(server));
	}

}
