package io.github.startuptelemetry.kubernetes.internal;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.timeline.internal.PlatformStages;
import io.github.startuptelemetry.timeline.Stage;

/** A pod's stages from its status and events, as the server and its supervisor both read them. */
class PodTimesTest {

	private static final String CREATED = "2026-03-01T10:00:00Z";

	private static final long CREATED_NS = ns(CREATED);

	private static final long S = 1_000_000_000L;

	@Test
	void conditionsAloneGiveWholeSecondStages() {
		PodTimes times = PodTimes.of(pod("2026-03-01T10:00:01Z", "2026-03-01T10:00:04Z"), List.of(), "server");
		assertThat(times.started()).isTrue();
		assertThat(times.stages()).containsExactly(new Stage("pod_scheduling", CREATED_NS, CREATED_NS + S),
				new Stage("pod_setup", CREATED_NS + S, CREATED_NS + 4 * S));
		assertThat(times.attributes()).containsEntry("k8s.pod.name", "model-0-abcde")
			.containsEntry("k8s.pod.uid", "uid-1")
			.containsEntry("k8s.namespace.name", "fleet")
			.containsEntry("k8s.node.name", "node-1")
			.containsEntry("k8s.container.name", "server")
			.containsEntry("startup.k8s.pod_scheduling_ms", 1000.0)
			.containsEntry("startup.k8s.pod_setup_ms", 3000.0)
			.containsEntry("startup.k8s.precision_ms", 1000.0)
			.doesNotContainKey("startup.k8s.image_pull_ms");
	}

	@Test
	void theSchedulersEventGivesMicrosecondsAndThePulledEventTheImagePull() {
		Pod pod = pod("2026-03-01T10:00:01Z", "2026-03-01T10:00:04Z");
		List<Event> events = List.of(scheduled("uid-1", "2026-03-01T10:00:00.250125Z"),
				pulled("uid-1", "server", "2026-03-01T10:00:03Z",
						"Successfully pulled image \"m\" in 1.5s (2s including waiting). Image size: 1 bytes."),
				scheduled("uid-2", "2026-03-01T09:00:00.000001Z"));
		PodTimes times = PodTimes.of(pod, events, "server");
		assertThat(times.stages().get(0)).isEqualTo(new Stage("pod_scheduling", CREATED_NS, CREATED_NS + 250_125_000L));
		assertThat(times.attributes()).containsEntry("startup.k8s.image_pull_ms", 2000.0);

		List<Stage> own = List.of(new Stage("interpreter_start", CREATED_NS + 100_000_000L, CREATED_NS + 5 * S),
				new Stage("main_start", CREATED_NS + 5 * S, CREATED_NS + 6 * S));
		PlatformStages merged = times.ahead(own);
		assertThat(merged.stages()).extracting(Stage::name)
			.containsExactly("pod_scheduling", "pod_setup", "interpreter_start", "main_start");
		// spawned: from the supervisor's stamp (nanoseconds) to the scheduler's event (microseconds)
		assertThat(merged.spanAttributes("pod_scheduling")).containsEntry("startup.k8s.precision_ms", 0.001);
		assertThat(merged.spanAttributes("pod_setup")).containsEntry("startup.k8s.precision_ms", 1000.0);
		assertThat(merged.spanAttributes("interpreter_start")).containsEntry("startup.k8s.precision_ms", 1000.0);
		assertThat(merged.spanAttributes("main_start")).isEmpty();
		assertThat(merged.nested()).singleElement().satisfies((pull) -> {
			assertThat(pull.parent()).isEqualTo("pod_setup");
			assertThat(pull.stage()).isEqualTo(new Stage("image_pull", CREATED_NS + S, CREATED_NS + 3 * S));
			assertThat(pull.attributes()).containsEntry("startup.k8s.precision_ms", 1000.0)
				.containsEntry("startup.k8s.image_pull.waiting_ms", 500.0);
		});
		assertThat(merged.rootAttributes()).containsEntry("k8s.pod.uid", "uid-1");
	}

	@Test
	void withoutASpawnThePodsCreationStartsItInWholeSeconds() {
		PodTimes times = PodTimes.of(pod("2026-03-01T10:00:01Z", "2026-03-01T10:00:04Z"), List.of(), "server");
		PlatformStages merged = times.ahead(List.of(new Stage("main_start", CREATED_NS + 5 * S, CREATED_NS + 6 * S)));
		assertThat(merged.stages().get(0).startNs()).isEqualTo(CREATED_NS);
		assertThat(merged.spanAttributes("pod_scheduling")).containsEntry("startup.k8s.precision_ms", 1000.0);
		assertThat(merged.nested()).isEmpty();
	}

	@Test
	void aPullLongerThanTheSetupIsClampedIntoIt() {
		Pod pod = pod("2026-03-01T10:00:01Z", "2026-03-01T10:00:04Z");
		PodTimes times = PodTimes.of(pod, List.of(pulled("uid-1", "server", "2026-03-01T10:00:05Z",
				"Successfully pulled image \"m\" in 30s (30s including waiting)")), "server");
		PlatformStages merged = times.ahead(List.of(new Stage("main_start", CREATED_NS + 5 * S, CREATED_NS + 6 * S)));
		assertThat(merged.nested().get(0).stage()).isEqualTo(new Stage("image_pull", CREATED_NS + S, CREATED_NS + 4 * S));
	}

	@Test
	void anotherContainersPullAndAnImageAlreadyPresentAreNoImagePull() {
		Pod pod = pod("2026-03-01T10:00:01Z", "2026-03-01T10:00:04Z");
		PodTimes times = PodTimes.of(pod,
				List.of(pulled("uid-1", "sidecar", "2026-03-01T10:00:03Z", "Successfully pulled image \"s\" in 1s"),
						pulled("uid-1", "server", "2026-03-01T10:00:03Z",
								"Container image \"m\" already present on machine")),
				"server");
		assertThat(times.attributes()).doesNotContainKey("startup.k8s.image_pull_ms");
	}

	@Test
	void beforeTheContainerRunsThereAreNoStagesAndTheOwnStagesStayAsTheyAre() {
		Pod pending = new PodBuilder(pod("2026-03-01T10:00:01Z", null)).editStatus().withContainerStatuses().endStatus()
			.build();
		PodTimes times = PodTimes.of(pending, List.of(), null);
		assertThat(times.started()).isFalse();
		assertThat(times.stages()).isEmpty();
		List<Stage> own = List.of(new Stage("main_start", CREATED_NS, CREATED_NS + S));
		assertThat(times.ahead(own).stages()).isSameAs(own);
		assertThat(times.attributes()).containsOnlyKeys("k8s.pod.name", "k8s.pod.uid", "k8s.namespace.name",
				"k8s.node.name", "k8s.container.name");
	}

	@Test
	void theServersContainerIsTheNamedOneElseTheDefaultOneElseTheFirst() {
		Pod pod = new PodBuilder(pod("2026-03-01T10:00:01Z", "2026-03-01T10:00:04Z")).editSpec()
			.addNewContainer()
			.withName("sidecar")
			.endContainer()
			.endSpec()
			.build();
		assertThat(PodTimes.container(pod, null)).isEqualTo("server");
		assertThat(PodTimes.container(pod, "sidecar")).isEqualTo("sidecar");
		Pod annotated = new PodBuilder(pod).editMetadata()
			.addToAnnotations(Map.of(PodTimes.DEFAULT_CONTAINER_ANNOTATION, "sidecar"))
			.endMetadata()
			.build();
		assertThat(PodTimes.container(annotated, null)).isEqualTo("sidecar");
		// a container with no status (it never started) has no start
		assertThat(PodTimes.of(annotated, List.of(), null).started()).isFalse();
	}

	static Pod pod(String scheduled, String started) {
		PodBuilder pod = new PodBuilder().withNewMetadata()
			.withName("model-0-abcde")
			.withNamespace("fleet")
			.withUid("uid-1")
			.withCreationTimestamp(CREATED)
			.endMetadata()
			.withNewSpec()
			.withNodeName("node-1")
			.addNewContainer()
			.withName("server")
			.withImage("model:1")
			.endContainer()
			.endSpec();
		PodBuilder withStatus = pod.withNewStatus()
			.addNewCondition()
			.withType("PodScheduled")
			.withStatus("True")
			.withLastTransitionTime(scheduled)
			.endCondition()
			.addNewContainerStatus()
			.withName("server")
			.withNewState()
			.withNewRunning()
			.withStartedAt(started)
			.endRunning()
			.endState()
			.endContainerStatus()
			.endStatus();
		return withStatus.build();
	}

	static Event scheduled(String uid, String eventTime) {
		return new EventBuilder().withReason("Scheduled")
			.withEventTime(new MicroTime(eventTime))
			.withNewInvolvedObject()
			.withKind("Pod")
			.withUid(uid)
			.endInvolvedObject()
			.build();
	}

	static Event pulled(String uid, String container, String time, String message) {
		return new EventBuilder().withReason("Pulled")
			.withFirstTimestamp(time)
			.withLastTimestamp(time)
			.withMessage(message)
			.withNewInvolvedObject()
			.withKind("Pod")
			.withUid(uid)
			.withFieldPath("spec.containers{" + container + "}")
			.endInvolvedObject()
			.build();
	}

	static long ns(String time) {
		Instant instant = Instant.parse(time);
		return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
	}

}
