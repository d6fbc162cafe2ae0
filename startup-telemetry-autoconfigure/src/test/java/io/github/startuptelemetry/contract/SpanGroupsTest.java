package io.github.startuptelemetry.contract;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SpanGroupsTest {

	@Test
	void startupIsInGymsDefaultAndAllButNotPerRollout() {
		assertThat(SpanGroups.enabled(null, "startup")).isTrue();
		assertThat(SpanGroups.enabled(" ", "startup")).isTrue();
		assertThat(SpanGroups.enabled("default", "startup")).isTrue();
		assertThat(SpanGroups.enabled("ALL", "startup")).isTrue();
		assertThat(SpanGroups.enabled("per_rollout", "startup")).isFalse();
		assertThat(SpanGroups.enabled("server, rollout", "startup")).isFalse();
		assertThat(SpanGroups.enabled("per_rollout, Startup", "startup")).isTrue();
	}

	@Test
	void unknownNamesAreDropped() {
		assertThat(SpanGroups.resolve("nonsense,job")).containsExactly("job");
		assertThat(SpanGroups.resolve("nonsense")).isEmpty();
	}

}
