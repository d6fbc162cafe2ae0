package io.github.startuptelemetry.launch.kubernetes;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;

import io.fabric8.kubernetes.api.model.Event;
import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.kubernetes.internal.KubernetesFixtures;

import static org.assertj.core.api.Assertions.assertThat;

/** When real clusters' events were last seen, which orders a pod's last warnings. */
class PodEventsTest {

	@Test
	void aKubeletsRepeatedEventIsAsNewAsItsLastTimestampNotItsCreation() {
		// a missing image's events (k8s-fixtures/b-image-pull-events.json): the Failed events were all created at
		// 05:34:46, the back-off's "Error: ImagePullBackOff" was seen last, at 05:36:25
		List<Event> events = KubernetesFixtures.events("b-image-pull-events.json");
		Event newest = events.stream()
			.filter((event) -> "Warning".equals(event.getType()))
			.max(Comparator.comparing(PodEvents::lastSeen))
			.orElseThrow();
		assertThat(newest.getMessage()).isEqualTo("Error: ImagePullBackOff");
		assertThat(PodEvents.lastSeen(newest)).isEqualTo(Instant.parse("2023-07-11T05:36:25Z"));
	}

	@Test
	void aSchedulersEventInASeriesIsAsNewAsItsLastObservationInMicroseconds() {
		// k8s-fixtures/a-failedscheduling-events.json: created 04:25:44, its series last observed 15 minutes later
		Event repeated = KubernetesFixtures.events("a-failedscheduling-events.json").get(0);
		assertThat(PodEvents.lastSeen(repeated)).isEqualTo(Instant.parse("2023-07-11T04:40:44.264058Z"));
		Event once = KubernetesFixtures.events("a-failedscheduling-events.json").get(1);
		assertThat(PodEvents.lastSeen(once)).isEqualTo(Instant.parse("2023-07-11T04:43:08.570490Z"));
	}

}
