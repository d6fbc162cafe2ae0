package io.github.startuptelemetry.timeline;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.contract.StageNames;

import static org.assertj.core.api.Assertions.assertThat;

class ServerTimelineTest {

	private static final long MS = 1_000_000L;

	private static final JvmCounters MAIN = new JvmCounters(30 * MS, 2, 1, 5, 100);

	private static final JvmCounters BEANS = new JvmCounters(70 * MS, 3, 2, 7, 400);

	private final ServerTimeline timeline = new ServerTimeline("api", null, false, 42, "trace", "span", 0, 200 * MS,
			List.of(new Stage("spawned", 0, 50 * MS), new Stage(StageNames.MAIN_START, 50 * MS, 100 * MS, MAIN),
					new Stage(StageNames.BEANS_INSTANTIATED, 100 * MS, 200 * MS, BEANS)),
			List.of(), List.of(new StepTiming("spring.beans.instantiate", "slow", null, 120 * MS, 150 * MS, 30 * MS,
					List.of())));

	@Test
	void jvmTotalAddsUpTheStagesThatHaveCounters() {
		assertThat(this.timeline.jvmTotal()).contains(MAIN.plus(BEANS));
	}

	@Test
	void jvmTotalIsEmptyWithoutCounters() {
		ServerTimeline old = new ServerTimeline("api", null, false, 42, null, null, 0, 10 * MS,
				List.of(new Stage("spawned", 0, 10 * MS)), List.of(), List.of());
		assertThat(old.jvmTotal()).isEmpty();
		assertThat(old.unattributedNs()).isEmpty();
		assertThat(old.summary()).doesNotContain("jvm:");
	}

	@Test
	void unattributedIsWhatNoStepCovers() {
		assertThat(this.timeline.unattributedNs()).hasValue(70 * MS);
	}

	@Test
	void countedWallLeavesOutStagesBeforeTheJvm() {
		assertThat(this.timeline.countedWallNs()).isEqualTo(150 * MS);
	}

	@Test
	void summaryNamesEveryStageTheCountersAndTheTrace() {
		assertThat(this.timeline.summary()).isEqualTo("Startup of 'api' took 200 ms: spawned=50ms main_start=50ms "
				+ "beans_instantiated=100ms jvm: " + MAIN.plus(BEANS).compact() + " [trace trace]");
	}

}
