package io.github.startuptelemetry.report.gate;

import io.github.startuptelemetry.report.JsonReport;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.report.render.HtmlReport;
import io.github.startuptelemetry.report.render.TestTimelines;

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

import io.github.startuptelemetry.report.gate.ReportTimes.ServerTimes;
import io.github.startuptelemetry.report.gate.Change.Cause;
import io.github.startuptelemetry.report.gate.Change.Kind;
import io.github.startuptelemetry.report.gate.Change.Verdict;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * The regression gate over synthetic reports (each unit's work and waiting known, the
 * contention chosen), the JSON reports it reads, and the standalone compare.
 */
class ReportComparisonTest {

	private static final long S = 1_000_000_000L;

	private static final long MS = 1_000_000L;

	private static final long T0 = 1_700_000_000L * S;

	private static final SyntheticServer MODEL = SyntheticServer.model("model-0");

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
	void aBeanThatGrewByASecondFailsAgainstABaselineFromAThreeTimesBusierMachine() {
		// the baseline's machine was 3× busier: every working unit 3× longer there
		ReportComparison working = compare(List.of(MODEL.run(3)), MODEL.with("bean3", 1000, 0).run(1));
		assertThat(working.culprits()).singleElement().satisfies((change) -> {
			assertThat(change.unit()).isEqualTo("bean bean3");
			assertThat(change.cause()).isEqualTo(Cause.WORK);
			assertThat(change.cpu().excessMs()).isCloseTo(1000, org.assertj.core.data.Offset.offset(1.0));
		});
		assertThat(working.speed().factor()).as("this run against the baseline's").isCloseTo(1 / 3.0,
				org.assertj.core.data.Offset.offset(0.01));
		assertThat(working.exitCode()).isEqualTo(3);
		// the same with a bean that waits a second longer (a remote call, a sleep)
		ReportComparison waiting = compare(List.of(MODEL.run(3)), MODEL.with("bean3", 0, 1000).run(1));
		assertThat(waiting.culprits()).singleElement().satisfies((change) -> {
			assertThat(change.unit()).isEqualTo("bean bean3");
			assertThat(change.cause()).isEqualTo(Cause.WAIT);
		});
		assertThat(waiting.summary()).isEqualTo("startup regressed: model-0 bean bean3 (waited +1.0 s) (1 regressed unit(s)"
				+ " in all), exit code 3");
		// 6 s more against a quiet baseline: its stage and the server grew beyond theirs by it too, and say so
		// rather than stand beside it (against the busier one their waiting is bounded only by their wall time
		// less their CPU time, which the load filled: the bean alone is named)
		ReportComparison more = compare(List.of(MODEL.run(1)), MODEL.with("bean3", 0, 6000).run(1));
		assertThat(more.regressions()).extracting(Change::unit)
			.containsExactlyInAnyOrder("bean bean3", "stage beans_instantiated", "spawn→ready");
		assertThat(more.culprits()).extracting(Change::unit).containsExactly("bean bean3");
		assertThat(change(more, "stage beans_instantiated").explainedBy()).containsExactly("bean bean3");
		assertThat(ComparisonText.line(change(more, "stage beans_instantiated"))).endsWith("; accounted for by bean bean3");
	}

	@Test
	void wallTimesDoubledWithTheSameCpuTimesIsContentionNotARegression() {
		ReportComparison comparison = compare(List.of(MODEL.run(1)), MODEL.run(2));
		assertThat(comparison.regressions()).isEmpty();
		assertThat(comparison.exitCode()).isZero();
		assertThat(comparison.speed().factor()).isCloseTo(2, org.assertj.core.data.Offset.offset(0.01));
		assertThat(comparison.speed().cpuFactor()).isEqualTo(1);
		assertThat(comparison.speedLine()).startsWith("speed factor ×2.00: a working thread took 2.0 s of wall time per"
				+ " CPU second")
			.contains("1.0 s in the baseline", "CPU time ×1.00", "the work is the baseline's, what changed is the load");
		assertThat(comparison.text()).endsWith("no regression");
	}

	@Test
	void aUniformSlowdownInCpuTimeIsARegressionThatSaysSoNotHiddenByTheSpeedFactor() {
		// class-data sharing off, say: every unit's work 40% more, on the same machine
		ReportComparison comparison = compare(List.of(MODEL.run(1), MODEL.run(1), MODEL.run(1)),
				MODEL.cpuTimes(1.4).run(1));
		assertThat(comparison.culprits()).singleElement().satisfies((change) -> {
			assertThat(change.kind()).isEqualTo(Kind.UNIFORM);
			assertThat(change.cause()).isEqualTo(Cause.UNIFORM);
			assertThat(ComparisonText.line(change)).startsWith("REGRESSED model-0 uniformly CPU time ×1.40 in its stages, phases and beans"
					+ " alike (median of ")
				.contains("not the machine's load");
		});
		assertThat(comparison.speed().factor()).as("the load did not change").isCloseTo(1, org.assertj.core.data.Offset.offset(0.01));
		assertThat(comparison.summary()).startsWith("startup regressed: model-0 uniformly (CPU time ×1.40)");
		assertThat(comparison.exitCode()).isEqualTo(3);
		// and under a busier machine as well: the speed factor takes the load out, not the work
		ReportComparison busier = compare(List.of(MODEL.run(1)), MODEL.cpuTimes(1.4).run(2.5));
		assertThat(busier.culprits()).extracting(Change::kind).containsExactly(Kind.UNIFORM);
	}

	@Test
	void aUnitNoisyInTheBaselineNeedsALargerChangeThanASteadyOne() {
		// bean7 waits 0 to 300 ms between the baseline runs (a remote call), bean6 never
		List<List<ServerTimes>> baselines = List.of(List.of(MODEL.run(1)), List.of(MODEL.with("bean7", 0, 150).run(1)),
				List.of(MODEL.with("bean7", 0, 300).run(1)));
		ServerTimes current = MODEL.with("bean6", 0, 250).with("bean7", 0, 400).run(1);
		ReportComparison comparison = ReportComparison.compare(baselines, List.of(current), Settings.DEFAULT);
		assertThat(comparison.regressions()).extracting(Change::unit).contains("bean bean6").doesNotContain("bean bean7");
		Change noisy = change(comparison, "bean bean7");
		assertThat(noisy.verdict()).isEqualTo(Verdict.SAME);
		assertThat(noisy.waiting().allowedMs()).as("3 × its spread (range / 1.693 of 3 runs)")
			.isGreaterThan(250)
			.isCloseTo(3 * 300 / 1.693, org.assertj.core.data.Offset.offset(1.0));
		assertThat(change(comparison, "bean bean6").waiting().allowedMs()).as("the floor").isEqualTo(200);
		assertThat(comparison.spreadLine()).contains("range/1.693", "widest model-0 bean bean7");
		// without the spread, both are beyond the floor
		ReportComparison floorOnly = ReportComparison.compare(baselines, List.of(current),
				new Settings(RegressionThreshold.DEFAULT, Map.of(), 0, true));
		assertThat(floorOnly.regressions()).extracting(Change::unit).contains("bean bean6", "bean bean7");
	}

	@Test
	void aWaitingUnitIsNotScaledByTheSpeedFactor() {
		// 3× busier now: a working unit may take 3× its time, the model loader (a sleep) may not
		ReportComparison same = compare(List.of(MODEL.run(1)), MODEL.run(3));
		assertThat(same.regressions()).isEmpty();
		Change loader = change(same, "bean modelLoader");
		assertThat(loader.expectedMs()).as("its waiting, and its 10 ms of work at 3×").isCloseTo(1530,
				org.assertj.core.data.Offset.offset(1.0));
		ReportComparison slower = compare(List.of(MODEL.run(1)), MODEL.with("modelLoader", 0, 700).run(3));
		assertThat(slower.culprits()).singleElement().satisfies((change) -> {
			assertThat(change.unit()).isEqualTo("bean modelLoader");
			assertThat(change.cause()).isEqualTo(Cause.WAIT);
			// the floor grows with the load: 200 ms at ×3
			assertThat(ComparisonText.line(change)).startsWith("REGRESSED model-0 bean modelLoader 1.5 s → 2.2 s: the baseline run's"
					+ " (10 ms CPU, 1.5 s waiting); CPU time 10 ms against 10 ms expected")
				.contains("waited at least 2.2 s against 1.5 s (+700 ms, allowed ±600 ms)");
		});
		// scaled as if it worked, 1.5 s × 3 would have hidden it
		assertThat(change(slower, "bean modelLoader").afterMs()).isLessThan(1500 * 3);
	}

	@Test
	void theSameStartupPassesAndEachVerdictSaysWhatItWasJudgedAgainst() {
		List<List<ServerTimes>> baselines = List.of(List.of(MODEL.run(1.2)), List.of(MODEL.run(1)),
				List.of(MODEL.run(1.1)));
		ReportComparison same = ReportComparison.compare(baselines, List.of(MODEL.run(1.05)), Settings.DEFAULT);
		assertThat(same.exitCode()).isZero();
		assertThat(same.text()).startsWith("Compared with the baseline (median of 3 runs; a unit regresses beyond +25%, at"
				+ " least 200 ms, or 3× its baseline spread, in its work or its waiting, with the machine's load taken out):")
			.contains("no server, stage, phase, step or slow bean changed beyond its allowance")
			.endsWith("no regression");
		ReportComparison slower = ReportComparison.compare(baselines, List.of(MODEL.with("bean5", 300, 0).run(1.05)),
				Settings.DEFAULT);
		assertThat(ComparisonText.line(change(slower, "bean bean5"))).startsWith("REGRESSED model-0 bean bean5 ")
			.contains("baseline median of 3 runs ±", "(185 ms CPU, ", "CPU time 485 ms against 185 ms expected (+300 ms,"
					+ " +162%, allowed ±200 ms)");
	}

	@Test
	void aStagesCpuTimeIsJudgedBeyondItsJitAndGcTimeWhichTheLoadMovesBetweenStages() {
		// a quieter run: the JIT's threads got more of application_ready's wall time (300 → 700 ms of CPU)
		ServerTimes baseline = stage(MODEL.run(2), "application_ready", 600, 300);
		ReportComparison jit = compare(List.of(baseline), stage(MODEL.run(1), "application_ready", 1000, 700));
		assertThat(jit.regressions()).isEmpty();
		// 700 ms more of other threads' work beside its main thread (a quieter run did more of an exporter's
		// work within it), the stage no longer: no regression of the startup
		ReportComparison beside = compare(List.of(baseline), stage(MODEL.run(1), "application_ready", 1300, 300));
		assertThat(beside.regressions()).as(beside.text()).isEmpty();
		// its own work grew by 700 ms, and it took that much longer: at least 1 s of its own against all of the 600 ms then
		ReportComparison own = compare(List.of(baseline),
				stage(MODEL.with("application_ready", 700, 0).run(1), "application_ready", 1300, 300));
		assertThat(own.culprits()).singleElement().satisfies((change) -> {
			assertThat(change.unit()).isEqualTo("stage application_ready");
			assertThat(change.cause()).isEqualTo(Cause.WORK);
			assertThat(ComparisonText.line(change)).contains("CPU time beyond the JIT's and GC's 1.0 s against 600 ms expected");
		});
	}

	@Test
	void aStagesWaitingIsBoundedByItsWallTimeLessItsCpuTimeWhichALoadedBaselineHides() {
		// a baseline under load (3×), a quieter run (1.3×) whose main_start met more than its beans
		// did (its JVM started while the fleet's other JVMs did): 1.0 s more wall time than its work
		// at the beans' contention explains; the baseline's 4.5 s main_start may have waited 3 s of it
		// (a Spring phase alike: seconds long, early, busier than the beans)
		ServerTimes quieter = MODEL.run(1.3, Map.of("main_start", 1.5, "spring.context.config-classes.parse", 1.5));
		ReportComparison hidden = compare(List.of(MODEL.run(3)), quieter);
		assertThat(hidden.regressions()).as(hidden.text()).isEmpty();
		// a quiet baseline bounds it tightly: main_start waiting 1 s longer is caught
		ReportComparison waited = compare(List.of(MODEL.run(1)), MODEL.with("main_start", 0, 1000).run(1));
		assertThat(waited.culprits()).singleElement().satisfies((change) -> {
			assertThat(change.unit()).isEqualTo("stage main_start");
			assertThat(change.cause()).isEqualTo(Cause.WAIT);
		});
	}

	@Test
	void aRunThatStalledLetsAnyUnitWaitAsMuchLongerAsItsWorkingUnitsDid() {
		// 3 of its 25 working units stalled 300 ms (its cores taken away for a while): the stall is 300 ms
		SyntheticServer stalled = MODEL.with("bean1", 0, 300).with("bean9", 0, 300).with("bean17", 0, 300);
		ReportComparison small = compare(List.of(MODEL.run(1)), stalled.with("modelLoader", 0, 280).run(1));
		assertThat(small.stallMs()).isEqualTo(300);
		assertThat(small.regressions()).isEmpty();
		assertThat(small.speedLine()).contains("stalls: 1 in 20 of the units that only worked in the baseline waited 300 ms"
				+ " or more beyond it, which any unit may on top of its allowance");
		ReportComparison large = compare(List.of(MODEL.run(1)), stalled.with("modelLoader", 0, 800).run(1));
		assertThat(large.culprits()).extracting(Change::unit).containsExactly("bean modelLoader");
	}

	@Test
	void aStageOfItsOwnThresholdAppliesToItsBeansToo() {
		ReportComparison lenient = ReportComparison.compare(List.of(List.of(MODEL.run(1))),
				List.of(MODEL.with("bean3", 0, 700).run(1)), new Settings(RegressionThreshold.DEFAULT,
						Map.of("beans_instantiated", RegressionThreshold.parse("300%,2s")), 3, true));
		assertThat(lenient.regressed()).as(lenient.text()).isFalse();
	}

	@Test
	void aUnitInNoBaselineRunIsJudgedAgainstTheFloor() {
		SyntheticServer withNewBean = MODEL.with("bean0", 0, 0);
		ServerTimes baseline = MODEL.run(1);
		ServerTimes current = SyntheticServerNewBean.add(withNewBean.run(1), "newService", 450, 5);
		ReportComparison comparison = compare(List.of(baseline), current);
		assertThat(comparison.culprits()).singleElement().satisfies((change) -> {
			assertThat(change.unit()).isEqualTo("bean newService");
			assertThat(change.cause()).isEqualTo(Cause.NEW);
			assertThat(ComparisonText.detail(change)).startsWith("new, 455 ms (CPU time 450 ms");
		});
	}

	@Test
	void anOlderReportWithoutCpuTimesIsJudgedByWallTimeAlone() {
		ServerTimes before = new ServerTimes("m", "ready", 1000.0, Map.of("main_start", 300.0, "beans_instantiated", 450.0),
				Map.of("modelLoader", 320.0));
		ServerTimes after = new ServerTimes("m", "ready", 1300.0, Map.of("main_start", 300.0, "beans_instantiated", 1400.0),
				Map.of("modelLoader", 1300.0));
		ReportComparison comparison = compare(List.of(before), after);
		assertThat(comparison.speedLine()).startsWith("speed factor unknown: no beans or steps with CPU times");
		assertThat(comparison.regressions()).extracting(Change::unit)
			.containsExactlyInAnyOrder("spawn→ready", "stage beans_instantiated", "bean modelLoader");
		assertThat(comparison.culprits()).extracting(Change::unit).containsExactly("bean modelLoader");
		assertThat(change(comparison, "bean modelLoader").cause()).isEqualTo(Cause.WALL);
	}

	@Test
	void aJsonReportReadsAsUnitsWithTheirCpuTimesAndNesting() {
		StepTiming loader = new StepTiming("spring.beans.instantiate", "modelLoader", "x.ModelLoader", T0 + S,
				T0 + S + 1500 * MS, 1500 * MS, List.of(), 12 * MS);
		StepTiming phase = new StepTiming("startup.singletons", null, null, T0 + S, T0 + 2 * S, 0, List.of(loader));
		long ready = T0 + 2 * S;
		ServerReport server = ServerReport.of("model-0", "model", T0, ready, "ready")
			.withTimeline(TestTimelines.of(List.of(new Stage("main_start", T0, T0 + S, new JvmCounters(800 * MS, 0, 0, 0, 0)),
					new Stage("beans_instantiated", T0 + S, ready, new JvmCounters(200 * MS, 0, 0, 0, 0))), ready,
					List.of(phase)));
		StartupReport report = new StartupReport(null, T0, ready, "ready", null,
				List.of(new Stage("wait_for_servers", T0, ready)), List.of(server));
		ServerTimes times = ReportTimes.readTimes(JsonReport.render(report)).get(0);
		assertThat(times.units()).extracting(ReportTimes.UnitTimes::key)
			.containsExactly("server spawn→ready", "stage main_start", "stage beans_instantiated",
					"phase startup.singletons", "bean modelLoader");
		assertThat(times.units().get(0).cpuMs()).as("its stages' CPU time").isEqualTo(1000);
		assertThat(times.units().get(3).cpuMs()).as("across threads: unknown").isNull();
		assertThat(times.units().get(4)).satisfies((unit) -> {
			assertThat(unit.cpuMs()).isEqualTo(12);
			assertThat(unit.parent()).isEqualTo("phase startup.singletons");
		});
	}

	@Test
	void theJsonReportCarriesTheVerdictWhatMovedAndWhatItWasJudgedAgainst() {
		ReportComparison comparison = compare(List.of(MODEL.run(1)), MODEL.with("modelLoader", 0, 1000).run(1));
		Map<String, Object> json = ComparisonJson.comparison(comparison);
		assertThat(json).containsEntry("baselineRuns", 1)
			.containsEntry("regressed", true)
			.containsEntry("exitCode", 3)
			.containsEntry("summary", comparison.summary())
			.containsEntry("spreadMultiplier", 3.0)
			.containsEntry("speedCorrection", true);
		assertThat(json.get("speed")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
			.containsKeys("factor", "contention", "usualContention", "cpuFactor", "servers");
		assertThat(json.get("changes")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
			.singleElement()
			.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
			.containsEntry("server", "model-0")
			.containsEntry("kind", "bean")
			.containsEntry("unit", "bean modelLoader")
			.containsEntry("verdict", "slower")
			.containsEntry("cause", "wait")
			.containsEntry("culprit", true)
			.containsKeys("wall", "cpu", "waiting", "text");
		// a spread unknown with one run is null, not NaN
		assertThat(io.github.startuptelemetry.internal.JsonText.compact(json)).doesNotContain("NaN")
			.contains("\"spreadMs\":null");
	}

	@Test
	void theHtmlBeforeAfterViewNamesTheCulpritAndShowsTheSpeedFactorAndTheSpread() {
		ReportComparison comparison = ReportComparison.compare(
				List.of(List.of(MODEL.run(1)), List.of(MODEL.run(1.1)), List.of(MODEL.run(1.2))),
				List.of(MODEL.with("modelLoader", 0, 1000).run(2)), Settings.DEFAULT);
		org.jsoup.nodes.Document page = org.jsoup.Jsoup.parse(HtmlReport.render(report(450, 320), comparison));
		org.jsoup.nodes.Element section = page.selectFirst("section.compare");
		assertThat(section.attr("data-regressed")).isEqualTo("true");
		assertThat(section.select("p.verdict").text()).isEqualTo("Regressed: model-0 bean modelLoader.");
		assertThat(section.select("p.speed").text()).startsWith("speed factor ×1.8");
		assertThat(section.select("p.spread").text()).startsWith("baseline spread (range/1.693");
		assertThat(section.select("tr.change.regressed").eachAttr("data-name")).containsExactly("modelLoader");
		assertThat(section.select("tr.change.regressed").attr("data-kind")).isEqualTo("bean");
		assertThat(section.select("tr.change[data-kind=server]").eachAttr("data-server")).containsExactly("model-0");
	}

	@Test
	void theStandaloneCompareReadsReportFilesTakesTheGatesOptionsAndExitsWithItsCode() throws Exception {
		Path base = Files.writeString(this.tmp.resolve("base.json"), JsonReport.render(report(450, 320)));
		Path slow = Files.writeString(this.tmp.resolve("new.json"), JsonReport.render(report(2000, 1800)));
		Path broken = Files.writeString(this.tmp.resolve("broken.json"), "{\"schemaVersion\": 1, \"servers\": [");
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();

		assertThat(Compare.run(new String[] { base.toString(), slow.toString() }, print(out), print(err))).isEqualTo(3);
		assertThat(out.toString(StandardCharsets.UTF_8)).contains("REGRESSED model-0 bean modelLoader",
				"startup regressed: model-0 bean modelLoader");
		assertThat(Compare.run(new String[] { base.toString(), base.toString() }, print(out), print(err))).isZero();
		assertThat(Compare.run(new String[] { "--max-regression=1000%,5s", base.toString(), slow.toString() },
				print(out), print(err)))
			.isZero();
		assertThat(Compare.run(new String[] { "--spread-multiplier=2", "--speed-correction=false", base.toString(),
				slow.toString() }, print(out), print(err)))
			.isEqualTo(3);
		assertThat(Compare.run(new String[] { "--spread-multiplier=many", base.toString(), slow.toString() }, print(out),
				print(err)))
			.isEqualTo(2);
		assertThat(err.toString(StandardCharsets.UTF_8)).contains("--spread-multiplier=many");
		assertThat(Compare.run(new String[] { base.toString(), broken.toString() }, print(out), print(err))).isEqualTo(2);
		assertThat(err.toString(StandardCharsets.UTF_8)).contains(broken.toString(), "Not a JSON report");
		assertThat(Compare.run(new String[] { base.toString() }, print(out), print(err))).isEqualTo(2);
	}

	private static ReportComparison compare(List<ServerTimes> baseline, ServerTimes current) {
		return ReportComparison.compare(baseline.stream().map(List::of).toList(), List.of(current), Settings.DEFAULT);
	}

	private static Change change(ReportComparison comparison, String unit) {
		return comparison.changes().stream().filter((change) -> change.unit().equals(unit)).findFirst().orElseThrow();
	}

	private static PrintStream print(ByteArrayOutputStream out) {
		return new PrintStream(out, true, StandardCharsets.UTF_8);
	}

	/** A real report, through the JSON document: a model loader inside beans_instantiated, no CPU times. */
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

	/** The server with one stage's CPU time and its JIT and GC time set. */
	private static ServerTimes stage(ServerTimes server, String stage, double cpuMs, double backgroundMs) {
		List<ReportTimes.UnitTimes> units = server.units().stream()
			.map((unit) -> unit.key().equals("stage " + stage) ? new ReportTimes.UnitTimes(Kind.STAGE, stage,
					unit.parent(), unit.wallMs(), cpuMs, backgroundMs) : unit)
			.toList();
		return new ServerTimes(server.name(), server.outcome(), server.spawnToReadyMs(), server.stages(), server.beans(),
				units);
	}

	/** Adds a bean the baseline never had. */
	private static final class SyntheticServerNewBean {

		static ServerTimes add(ServerTimes server, String bean, double cpuMs, double waitMs) {
			List<ReportTimes.UnitTimes> units = new java.util.ArrayList<>(server.units());
			units.add(new ReportTimes.UnitTimes(Kind.BEAN, bean, "stage beans_instantiated", cpuMs + waitMs, cpuMs));
			return new ServerTimes(server.name(), server.outcome(), server.spawnToReadyMs(), server.stages(),
					server.beans(), units);
		}

	}

}
