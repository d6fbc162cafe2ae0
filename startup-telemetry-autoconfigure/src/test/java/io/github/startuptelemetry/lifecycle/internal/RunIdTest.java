package io.github.startuptelemetry.lifecycle.internal;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RunIdTest {

	@Test
	void oursThenGymsThenSlurmsThenMinted() {
		Map<String, String> env = Map.of("NEMO_GYM_OTEL_RUN_ID", " gym ", "SLURM_JOB_ID", "99");
		assertThat(RunId.resolve("ours", env)).isEqualTo("ours");
		assertThat(RunId.resolve(" ", env)).isEqualTo("gym");
		assertThat(RunId.resolve(null, Map.of("SLURM_JOB_ID", "99"))).isEqualTo("99");
		assertThat(RunId.resolve(null, Map.of("NEMO_LENS_RUN_ID", "lens"))).matches("[0-9a-f]{12}");
		assertThat(RunId.resolve(null, Map.of())).isNotEqualTo(RunId.resolve(null, Map.of()));
	}

}
