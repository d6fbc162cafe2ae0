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

	/**
	 * A real pod (kind, containerd, 2024) with an init container, a sidecar and
	 * PodReadyToStartContainers: its sandbox and its init containers nested in pod_setup, each span
	 * saying where its boundaries came from.
	 */
	@Test
	void aRealPodsSandboxAndInitContainersAreNestedInItsSetup() {
		Pod pod = KubernetesFixtures.pod("f-running-ready-init-sidecar.json");
		PodTimes times = PodTimes.of(pod, List.of(), null);
		long created = ns("2024-08-24T01:54:32Z");
		assertThat(times.stages()).containsExactly(new Stage("pod_scheduling", created, created),
				new Stage("pod_setup", created, ns("2024-08-24T01:54:38Z")));
		List<Stage> own = List.of(new Stage("main_start", ns("2024-08-24T01:54:38.300Z"), ns("2024-08-24T01:54:39Z")));
		PlatformStages merged = times.ahead(own);
		assertThat(merged.nested()).extracting((nested) -> nested.stage())
			.containsExactly(new Stage("pod_sandbox", created, ns("2024-08-24T01:54:36Z")),
					new Stage("init_containers", ns("2024-08-24T01:54:36Z"), ns("2024-08-24T01:54:38Z")));
		assertThat(merged.nested().get(0).attributes()).containsEntry("startup.k8s.start_source", "pod_condition")
			.containsEntry("startup.k8s.end_source", "pod_condition")
			.containsEntry("startup.k8s.start_resolution_ms", 1000.0);
		assertThat(merged.spanAttributes("pod_scheduling")).containsEntry("startup.k8s.start_source", "pod_creation")
			.containsEntry("startup.k8s.end_source", "pod_condition")
			.containsEntry("startup.k8s.same_clock", true);
		assertThat(merged.spanAttributes("pod_setup")).containsEntry("startup.k8s.end_source", "container_status")
			.containsEntry("startup.k8s.same_clock", false);
	}

	/** Real events: a 2020-2022 Pulled message (a full Go duration) and the scheduler's microsecond time. */
	@Test
	void realEventsGiveTheSchedulersMicrosecondsAndTheImagePull() {
		List<Event> events = KubernetesFixtures.events("g-startup-events-minikube-2023.json");
		String uid = events.get(0).getInvolvedObject().getUid();
		String container = events.stream().filter((e) -> "Pulled".equals(e.getReason())).findFirst().orElseThrow()
			.getInvolvedObject().getFieldPath().replaceAll(".*\\{(.*)}", "$1");
		Pod pod = new PodBuilder(pod("2023-07-10T05:31:40Z", "2023-07-10T05:31:45Z")).editMetadata().withUid(uid)
			.withCreationTimestamp("2023-07-10T05:31:39Z").endMetadata()
			.editStatus().editFirstContainerStatus().withName(container).endContainerStatus().endStatus()
			.build();
		PodTimes times = PodTimes.of(pod, events, container);
		assertThat(times.stages().get(0).endNs()).isEqualTo(ns("2023-07-10T05:31:39.694297Z"));
		assertThat(times.attributes()).containsEntry("startup.k8s.image_pull_ms", 4783.086211);
		// the oldest format states no duration: no pull to tell
		assertThat(PulledMessage.parse(KubernetesFixtures.events("g-pulled-event-2019-no-duration-k9s.json").get(0)
			.getMessage())).isNull();
	}

	/** What the supervisor says of a pod starts at its own create call: as the server's spans do. */
	@Test
	void theSupervisorsFiguresStartAtItsSpawnNotAtTheCreationsWholeSecond() {
		Pod pod = pod("2026-03-01T10:00:01Z", "2026-03-01T10:00:04Z");
		long spawn = CREATED_NS - 700_000_000L;
		PodTimes times = PodTimes.of(pod, List.of(scheduled("uid-1", "2026-03-01T10:00:00.250125Z")), "server", spawn, null);
		assertThat(times.attributes()).containsEntry("startup.k8s.pod_scheduling_ms", 950.125);
		List<Stage> own = List.of(new Stage("interpreter_start", spawn, CREATED_NS + 5 * S),
				new Stage("main_start", CREATED_NS + 5 * S, CREATED_NS + 6 * S));
		assertThat(times.ahead(own).stages().get(0).durationMs()).isEqualTo(950.125);
	}

	/** Real FailedScheduling events (a series of 3) and a pod's pull back-offs: what it waited on, by stage. */
	@Test
	void whatAPodWaitedOnComesFromItsEvents() {
		Map<String, String> scheduling = PodWaits.fromEvents(KubernetesFixtures.events("a-failedscheduling-events.json"));
		assertThat(scheduling.get("pod_scheduling")).startsWith("FailedScheduling ×4: ");
		Map<String, String> pulls = PodWaits.fromEvents(KubernetesFixtures.events("b-image-pull-events.json"));
		assertThat(pulls.get("pod_setup")).startsWith("Failed ×").contains("; BackOff ×5: Back-off pulling image");
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
