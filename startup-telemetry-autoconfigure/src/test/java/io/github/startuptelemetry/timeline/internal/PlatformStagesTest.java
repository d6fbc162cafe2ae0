package io.github.startuptelemetry.timeline.internal;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

/** A platform's stages put ahead of a server's own: contiguous, clamped, the same for the server and its report. */
class PlatformStagesTest {

	private static final long S = 1_000_000_000L;

	private static final long T = 1_800_000_000L * S;

	private static final List<Stage> POD = List.of(new Stage("pod_scheduling", T, T + 1 * S),
			new Stage("pod_setup", T + 1 * S, T + 3 * S));

	@Test
	void spawnedTheFirstStageStartsAtTheSpawnAndTheEnvStageAtTheContainersStart() {
		List<Stage> own = List.of(new Stage("interpreter_start", T + S / 2, T + 4 * S),
				new Stage("main_start", T + 4 * S, T + 5 * S));
		assertThat(PlatformStages.ahead(own, POD)).containsExactly(new Stage("pod_scheduling", T + S / 2, T + 1 * S),
				new Stage("pod_setup", T + 1 * S, T + 3 * S), new Stage("interpreter_start", T + 3 * S, T + 4 * S),
				new Stage("main_start", T + 4 * S, T + 5 * S));
	}

	@Test
	void withASetupStepTheSetupRunsFromTheContainersStart() {
		List<Stage> own = List.of(new Stage("venv_setup", T, T + 4 * S), new Stage("interpreter_start", T + 4 * S, T + 5 * S));
		assertThat(PlatformStages.ahead(own, POD)).extracting(Stage::name)
			.containsExactly("pod_scheduling", "pod_setup", "venv_setup", "interpreter_start");
		assertThat(PlatformStages.ahead(own, POD).get(2)).isEqualTo(new Stage("venv_setup", T + 3 * S, T + 4 * S));
	}

	@Test
	void withoutEnvStagesInterpreterStartRunsFromTheContainersStartToTheJvms() {
		List<Stage> own = List.of(new Stage("main_start", T + 4 * S, T + 5 * S));
		assertThat(PlatformStages.ahead(own, POD)).containsExactly(new Stage("pod_scheduling", T, T + 1 * S),
				new Stage("pod_setup", T + 1 * S, T + 3 * S), new Stage("interpreter_start", T + 3 * S, T + 4 * S),
				new Stage("main_start", T + 4 * S, T + 5 * S));
	}

	@Test
	void aBoundaryAfterTheJvmsStartIsClampedToItSoTheStagesStayContiguous() {
		// the container's start in whole seconds, on another clock: after the JVM started
		List<Stage> pod = List.of(new Stage("pod_scheduling", T, T + 1 * S), new Stage("pod_setup", T + 1 * S, T + 9 * S));
		List<Stage> own = List.of(new Stage("interpreter_start", T, T + 4 * S), new Stage("main_start", T + 4 * S, T + 5 * S));
		List<Stage> merged = PlatformStages.ahead(own, pod);
		assertThat(merged.get(1)).isEqualTo(new Stage("pod_setup", T + 1 * S, T + 4 * S));
		assertThat(merged.get(2)).isEqualTo(new Stage("interpreter_start", T + 4 * S, T + 4 * S));
		for (int i = 1; i < merged.size(); i++) {
			assertThat(merged.get(i).startNs()).isEqualTo(merged.get(i - 1).endNs());
		}
	}

	@Test
	void aBoundaryBeforeTheSpawnIsClampedToIt() {
		// scheduled in whole seconds, floored to before the supervisor's create call
		List<Stage> own = List.of(new Stage("interpreter_start", T + S / 2, T + 4 * S));
		List<Stage> pod = List.of(new Stage("pod_scheduling", T, T), new Stage("pod_setup", T, T + 3 * S));
		assertThat(PlatformStages.ahead(own, pod)).startsWith(new Stage("pod_scheduling", T + S / 2, T + S / 2),
				new Stage("pod_setup", T + S / 2, T + 3 * S));
	}

	@Test
	void nothingChangesForAWorkerNoStagesOrStagesThatAreAlreadyThere() {
		List<Stage> worker = List.of(new Stage("worker_start", T, T + S));
		assertThat(PlatformStages.ahead(worker, POD)).isSameAs(worker);
		List<Stage> own = List.of(new Stage("main_start", T + 4 * S, T + 5 * S));
		assertThat(PlatformStages.ahead(own, List.of())).isSameAs(own);
		List<Stage> merged = PlatformStages.ahead(own, POD);
		assertThat(PlatformStages.ahead(merged, POD)).isSameAs(merged);
		assertThat(PlatformStages.ahead(List.of(), POD)).isEmpty();
	}

	@Test
	void aTimelineStartsAtItsFirstStage() {
		ServerTimeline timeline = new ServerTimeline("model-0", "model", false, 7, null, null, T + 4 * S, T + 5 * S,
				List.of(new Stage("main_start", T + 4 * S, T + 5 * S)), List.of(), List.of());
		ServerTimeline merged = PlatformStages.ahead(timeline, POD);
		assertThat(merged.startEpochNs()).isEqualTo(T);
		assertThat(merged.readyEpochNs()).isEqualTo(T + 5 * S);
		assertThat(merged.stages()).hasSize(4);
		assertThat(PlatformStages.ahead(timeline, List.of())).isSameAs(timeline);
	}

}
