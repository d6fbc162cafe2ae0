package io.github.startuptelemetry.lifecycle;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.lifecycle.internal.ProcessResourceAttributes.Identity;
import io.github.startuptelemetry.lifecycle.internal.ProcessResourceAttributes;

class ProcessResourceAttributesTest {

	private final List<String> ignored = new ArrayList<>();

	@Test
	void configurationWinsOverTheLaunchersEnv() {
		Map<String, String> attributes = ProcessResourceAttributes.resolve(
				new Identity(1, 4, 0, "model", "run-7", Map.of()),
				Map.of("RANK", "3", "WORLD_SIZE", "8", "LOCAL_RANK", "2"), 42, this.ignored::add);
		assertThat(attributes).containsExactly(Map.entry("nv.dl.rank", "1"), Map.entry("nv.dl.world_size", "4"),
				Map.entry("nv.dl.local_rank", "0"), Map.entry("rl.worker_group", "model"),
				Map.entry("nemo.run.id", "run-7"), Map.entry("nv.dl.run_id", "run-7"),
				Map.entry("service.instance.id", "run-7-rank1"), Map.entry("process.pid", "42"));
	}

	@Test
	void rankDefaultsToTheLaunchersEnv() {
		Map<String, String> attributes = ProcessResourceAttributes.resolve(identity(Map.of()),
				Map.of("RANK", " 3 ", "WORLD_SIZE", "8", "LOCAL_RANK", "2"), 42, this.ignored::add);
		assertThat(attributes).containsEntry("nv.dl.rank", "3")
			.containsEntry("nv.dl.world_size", "8")
			.containsEntry("nv.dl.local_rank", "2");
		assertThat(this.ignored).isEmpty();
	}

	@Test
	void unusableEnvValuesAreIgnoredAndNamed() {
		Map<String, String> attributes = ProcessResourceAttributes.resolve(identity(Map.of()),
				Map.of("RANK", "first", "WORLD_SIZE", "-1", "LOCAL_RANK", "x"), 42, this.ignored::add);
		assertThat(attributes).containsOnly(Map.entry("nv.dl.rank", "0"), Map.entry("nv.dl.world_size", "1"),
				Map.entry("process.pid", "42"));
		assertThat(this.ignored).containsExactlyInAnyOrder("RANK", "WORLD_SIZE", "LOCAL_RANK");
	}

	@Test
	void withoutRankSettingsAProcessIsRankZeroOfOneAsInGym() {
		Map<String, String> attributes = ProcessResourceAttributes.resolve(identity(Map.of()), Map.of(), 42,
				this.ignored::add);
		assertThat(attributes).containsOnly(Map.entry("nv.dl.rank", "0"), Map.entry("nv.dl.world_size", "1"),
				Map.entry("process.pid", "42"));
		assertThat(this.ignored).isEmpty();
	}

	@Test
	void aNegativeSettingLeavesItsAttributeOut() {
		Map<String, String> attributes = ProcessResourceAttributes.resolve(
				new Identity(-1, -1, -1, null, null, Map.of()), Map.of("RANK", "3"), 42, this.ignored::add);
		assertThat(attributes).containsOnlyKeys("process.pid");
	}

	@Test
	void extraAttributesWinOverEverything() {
		Map<String, String> attributes = ProcessResourceAttributes.resolve(
				identity(Map.of("nv.dl.rank", "custom", "team", "rl")), Map.of("RANK", "3"), 42, this.ignored::add);
		assertThat(attributes).containsEntry("nv.dl.rank", "custom").containsEntry("team", "rl");
	}

	private static Identity identity(Map<String, String> extras) {
		return new Identity(null, null, null, null, null, extras);
	}

}
