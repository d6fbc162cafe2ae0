package io.github.startuptelemetry.contract;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StageNamesTest {

	/** A stage added to the contract has its place in the run order, which the reports sort by. */
	@Test
	void theRunOrderHasEveryStageOnce() throws IllegalAccessException {
		List<String> stages = new ArrayList<>();
		for (Field field : StageNames.class.getDeclaredFields()) {
			if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
				stages.add((String) field.get(null));
			}
		}
		assertThat(StageNames.RUN_ORDER).containsExactlyInAnyOrderElementsOf(stages).doesNotHaveDuplicates();
	}

}
