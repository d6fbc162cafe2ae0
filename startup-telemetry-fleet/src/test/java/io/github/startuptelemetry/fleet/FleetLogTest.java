package io.github.startuptelemetry.fleet;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link FleetLog}: the run's classes log under the category users already configure. */
class FleetLogTest {

	@Test
	void theCategoryIsTheRunsClassName() {
		assertThat(FleetLog.CATEGORY).isEqualTo(FleetRun.class.getName());
	}

}
