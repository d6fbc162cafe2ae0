package io.github.startuptelemetry.report.render;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.contract.StageNames;

class StageColorsTest {

	@Test
	void stagesSortInTheContractsRunOrderAnyOtherNameAfterThem() {
		List<String> names = new ArrayList<>(List.of("zzz_custom", StageNames.WAIT_FOR_SERVERS,
				StageNames.APPLICATION_READY, StageNames.MAIN_START, StageNames.VENV_SETUP));
		names.sort(StageColors.runOrder());
		assertThat(names).containsExactly(StageNames.VENV_SETUP, StageNames.MAIN_START, StageNames.APPLICATION_READY,
				StageNames.WAIT_FOR_SERVERS, "zzz_custom");
	}

	@Test
	void everyStageOfTheContractHasAFixedColourAndOthersOneFromTheirName() {
		for (String stage : StageNames.RUN_ORDER) {
			assertThat(StageColors.of(stage)).as(stage).matches("#[0-9a-f]{6}");
		}
		assertThat(StageColors.of(StageNames.BEANS_INSTANTIATED)).isEqualTo("#f28e2b");
		assertThat(StageColors.of("zzz_custom")).isEqualTo(StageColors.of("zzz_custom")).matches("#[0-9a-f]{6}");
	}

}
