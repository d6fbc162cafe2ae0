package io.github.startuptelemetry.timeline.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.Stage;

class StageTimelineTest {

	@Test
	void eachMarkClosesTheStageBegunAtThePreviousOne() {
		StageTimeline timeline = new StageTimeline(1_000);
		timeline.mark("a", 1_500);
		timeline.mark("b", 4_000);
		assertThat(timeline.stages()).containsExactly(new Stage("a", 1_000, 1_500), new Stage("b", 1_500, 4_000));
		assertThat(timeline.endNs()).isEqualTo(4_000);
		assertThat(timeline.lastStageName()).isEqualTo("b");
	}

	@Test
	void onceCountingEachMarkedStageGetsTheCountersChangeAndAddedStagesNone() {
		java.util.Iterator<JvmCounters> reads = java.util.List
			.of(new JvmCounters(50_000_000, 5, 1, 20, 1_000), new JvmCounters(80_000_000, 5, 1, 25, 1_600))
			.iterator();
		StageTimeline timeline = new StageTimeline(0);
		timeline.add("venv_setup", 0, 100);
		timeline.countJvm(reads::next, JvmCounters.ZERO);
		timeline.mark("main_start", 200);
		timeline.mark("environment_prepared", 300);
		assertThat(timeline.stages()).extracting(Stage::jvm)
			.containsExactly(null, new JvmCounters(50_000_000, 5, 1, 20, 1_000),
					new JvmCounters(30_000_000, 0, 0, 5, 600));
	}

	@Test
	void anUnavailableCounterStaysUnavailableAndTotalsSkipNothingElse() {
		JvmCounters a = new JvmCounters(JvmCounters.UNAVAILABLE, 10, 2, 5, 100);
		JvmCounters b = new JvmCounters(JvmCounters.UNAVAILABLE, 30, 3, 4, 150);
		assertThat(b.since(a)).isEqualTo(new JvmCounters(JvmCounters.UNAVAILABLE, 20, 1, 0, 50));
		assertThat(a.plus(b).compact()).isEqualTo("gc=5/40ms jit=9ms classes=250");
	}

	@Test
	void theRealReaderCountsClassesAndNeverGoesBackwards() {
		JvmCounters first = JvmCounterReader.read();
		JvmCounters second = JvmCounterReader.read();
		assertThat(first.classesLoaded()).isPositive();
		assertThat(second.since(first).classesLoaded()).isNotNegative();
		assertThat(second.cpuNs()).isGreaterThanOrEqualTo(first.cpuNs());
		assertThat(second.gcCount()).isGreaterThanOrEqualTo(0);
	}

	@Test
	void repeatedNameAddsASecondStage() {
		StageTimeline timeline = new StageTimeline(0);
		timeline.mark("load", 10);
		timeline.mark("load", 30);
		assertThat(timeline.stages()).extracting(Stage::name).containsExactly("load", "load");
		assertThat(timeline.stages()).extracting(Stage::durationNs).containsExactly(10L, 20L);
	}

	@Test
	void addRecordsAStageMeasuredElsewhereAndMovesTheCursor() {
		StageTimeline timeline = new StageTimeline(100);
		timeline.add("venv_setup", 100, 300);
		timeline.mark("next", 450);
		assertThat(timeline.stages()).containsExactly(new Stage("venv_setup", 100, 300), new Stage("next", 300, 450));
	}

	@Test
	void aMarkBeforeTheCursorIsClampedToAnEmptyStage() {
		StageTimeline timeline = new StageTimeline(1_000);
		timeline.mark("a", 2_000);
		timeline.mark("clock went back", 1_500);
		assertThat(timeline.stages().get(1)).isEqualTo(new Stage("clock went back", 2_000, 2_000));
	}

	@Test
	void anOverlappingAddStartsWhereThePreviousStageEnded() {
		StageTimeline timeline = new StageTimeline(0);
		timeline.mark("a", 100);
		timeline.add("b", 50, 80);
		assertThat(timeline.stages().get(1)).isEqualTo(new Stage("b", 100, 100));
		assertThat(timeline.endNs()).isEqualTo(100);
	}

	@Test
	void markWithoutATimeUsesTheWallClock() {
		long before = WallClock.nowNs();
		StageTimeline timeline = new StageTimeline();
		timeline.mark("now");
		long after = WallClock.nowNs();
		Stage stage = timeline.stages().get(0);
		assertThat(stage.startNs()).isBetween(before, after);
		assertThat(stage.endNs()).isBetween(stage.startNs(), after);
	}

	@Test
	void emptyTimelineEndsWhereItStarts() {
		StageTimeline timeline = new StageTimeline(42);
		assertThat(timeline.stages()).isEmpty();
		assertThat(timeline.endNs()).isEqualTo(42);
		assertThat(timeline.lastStageName()).isNull();
	}

	@Test
	void stagesIsASnapshot() {
		StageTimeline timeline = new StageTimeline(0);
		timeline.mark("a", 1);
		var snapshot = timeline.stages();
		timeline.mark("b", 2);
		assertThat(snapshot).hasSize(1);
	}

	@Test
	void stageRejectsNegativeDuration() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Stage("x", 10, 9)).withMessageContaining("'x'");
		assertThat(new Stage("x", 1_000_000, 3_500_000).durationMs()).isEqualTo(2.5);
	}

}
