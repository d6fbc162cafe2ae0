package io.github.startuptelemetry.it.kubernetes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.kubernetes.SimulatedApiServer;
import io.github.startuptelemetry.it.support.kubernetes.TestKubelet;
import io.github.startuptelemetry.it.support.kubernetes.RealDocuments;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulated control plane held to what real clusters wrote (k8s-fixtures, from public
 * repositories): the events it writes have the real ones' reasons, types, message shapes and
 * timestamp fields; what the real components retry, it retries (the scheduler until an autoscaler
 * adds a node, the kubelet's image pulls and container configuration); an evicted pod stays
 * Failed, and the garbage collector deletes only the dependants of owners that are gone.
 */
class SimulatedControlPlaneTest {

	static SimulatedApiServer api;

	static TestKubelet kubelet;

	static KubernetesClient admin;

	@BeforeAll
	static void cluster() throws Exception {
		api = SimulatedApiServer.start(SampleJars.repositoryRoot().resolve("docs/kubernetes/example.yaml"));
		// the real back-offs (10 s and more), shortened: what is tested is that they happen
		kubelet = TestKubelet.start(api, Files.createTempDirectory("simulated-pods-"))
			.imageBackOff(Duration.ofMillis(500))
			.syncPeriod(Duration.ofMillis(500));
		admin = api.admin();
	}

	@AfterAll
	static void shutDown() {
		admin.close();
		kubelet.close();
		api.close();
	}

	@Test
	void theSchedulersFailedSchedulingEventIsShapedAsARealOneAndRepeatsAsASeries() throws Exception {
		Pod pod = create("unschedulable", "sleep:1", "64");
		Event real = RealDocuments.events("a-failedscheduling-events.json").get(0);
		Event event = awaitEvent(pod, (e) -> "FailedScheduling".equals(e.getReason()) && e.getSeries() != null
				&& e.getSeries().getCount() >= 2);
		assertThat(event.getType()).isEqualTo(real.getType());
		assertThat(event.getAction()).isEqualTo(real.getAction());
		assertThat(event.getReportingComponent()).isEqualTo(real.getReportingComponent());
		assertThat(event.getReportingInstance()).startsWith("default-scheduler-");
		assertThat(event.getFirstTimestamp()).isNull();
		assertThat(event.getLastTimestamp()).isNull();
		assertThat(event.getCount()).isNull();
		assertThat(event.getEventTime().getTime()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z");
		assertThat(event.getSeries().getLastObservedTime().getTime()).matches(".*\\.\\d{6}Z");
		assertThat(event.getMessage()).matches("0/\\d+ nodes are available: .*\\. preemption: 0/\\d+ nodes are available: .*");
		delete(pod);
	}

	@Test
	void aMissingImageIsPulledAgainAfterEachBackOffWithTheKubeletsEvents() throws Exception {
		Pod pod = create("no-image", "startup-telemetry/missing:1", null);
		List<String> real = RealDocuments.events("b-image-pull-events.json").stream()
			.filter((e) -> !"Scheduled".equals(e.getReason()))
			.map(SimulatedControlPlaneTest::shape)
			.distinct()
			.toList();
		awaitEvent(pod, (e) -> "Pulling".equals(e.getReason()) && e.getCount() != null && e.getCount() >= 2);
		List<String> simulated = events(pod).stream().filter((e) -> !"Scheduled".equals(e.getReason()))
			.map(SimulatedControlPlaneTest::shape)
			.distinct()
			.toList();
		assertThat(simulated).containsExactlyInAnyOrderElementsOf(real);
		for (Event event : events(pod)) {
			if (!"Scheduled".equals(event.getReason())) {
				// the kubelet's legacy events: counted, in whole seconds, no eventTime
				assertThat(event.getEventTime()).as(event.getReason()).isNull();
				assertThat(event.getFirstTimestamp()).matches(".*:\\d\\dZ");
				assertThat(event.getSource().getComponent()).isEqualTo("kubelet");
			}
		}
		delete(pod);
	}

	@Test
	void anUnschedulablePodIsScheduledOnceTheAutoscalerAddsANode() throws Exception {
		kubelet.scheduler().autoscale(Duration.ofSeconds(1), Map.of("cpu", new Quantity("16"), "memory", new Quantity("32Gi")));
		try {
			Pod pod = create("autoscaled", "sleep:1", "6");
			awaitEvent(pod, (e) -> "FailedScheduling".equals(e.getReason()));
			awaitEvent(pod, (e) -> "TriggeredScaleUp".equals(e.getReason()));
			Event scheduled = awaitEvent(pod, (e) -> "Scheduled".equals(e.getReason()));
			assertThat(scheduled.getMessage()).matches("Successfully assigned startup-fleet/autoscaled to autoscaled-\\d+");
			Pod running = awaitPod(pod, (p) -> "Running".equals(p.getStatus().getPhase()));
			assertThat(condition(running, "PodScheduled").getStatus()).isEqualTo("True");
			delete(pod);
		}
		finally {
			kubelet.scheduler().autoscale(null, null);
		}
	}

	@Test
	void anImageTheRegistryGetsLaterIsPulledAfterItsBackOff() throws Exception {
		Pod pod = create("late-image", "startup-telemetry/late:1", null);
		awaitPod(pod, (p) -> waitingReason(p).equals("ImagePullBackOff"));
		kubelet.registry("startup-telemetry/late:1", Duration.ofMillis(50));
		awaitPod(pod, (p) -> "Running".equals(p.getStatus().getPhase()));
		assertThat(events(pod)).anySatisfy((e) -> assertThat(e.getMessage()).startsWith("Successfully pulled image"));
		delete(pod);
	}

	@Test
	void aMissingSecretIsACreateContainerConfigErrorUntilItExists() throws Exception {
		Pod pod = admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).resource(new PodBuilder().withNewMetadata()
			.withName("needs-secret")
			.endMetadata()
			.withNewSpec()
			.withRestartPolicy("Never")
			.addNewContainer()
			.withName("server")
			.withImage("sleep:1")
			.withCommand("sleep", "60")
			.addNewEnv()
			.withName("DB_PASSWORD")
			.withNewValueFrom()
			.withNewSecretKeyRef()
			.withName("db")
			.withKey("password")
			.endSecretKeyRef()
			.endValueFrom()
			.endEnv()
			.endContainer()
			.endSpec()
			.build()).create();
		kubelet.registry("sleep:1", Duration.ZERO);
		Pod waiting = awaitPod(pod, (p) -> waitingReason(p).equals("CreateContainerConfigError"));
		assertThat(waiting.getStatus().getContainerStatuses().get(0).getState().getWaiting().getMessage())
			.isEqualTo("secret \"db\" not found");
		admin.secrets().inNamespace(SimulatedApiServer.NAMESPACE).resource(new SecretBuilder().withNewMetadata()
			.withName("db")
			.endMetadata()
			.addToStringData("password", "s3cret")
			.build()).create();
		awaitPod(pod, (p) -> "Running".equals(p.getStatus().getPhase()));
		delete(pod);
		admin.secrets().inNamespace(SimulatedApiServer.NAMESPACE).withName("db").delete();
	}

	/**
	 * An evicted pod stays, Failed, as fixture d (a real one) does, with the newer kubelets'
	 * DisruptionTarget: the garbage collector leaves the pods it owns; once it is deleted, they go.
	 */
	@Test
	void anEvictedPodStaysFailedAndOnlyItsDeletionMakesTheCollectorDeleteItsDependants() throws Exception {
		kubelet.registry("sleep:1", Duration.ZERO);
		Pod owner = create("owner", "sleep:1", null);
		awaitPod(owner, (p) -> "Running".equals(p.getStatus().getPhase()));
		Pod dependant = admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).resource(new PodBuilder(pod("dependant",
				"sleep:1", null)).editMetadata().addNewOwnerReference().withApiVersion("v1").withKind("Pod")
			.withName("owner").withUid(owner.getMetadata().getUid()).endOwnerReference().endMetadata().build()).create();
		kubelet.evict("owner", "memory");
		Pod evicted = awaitPod(owner, (p) -> "Failed".equals(p.getStatus().getPhase()));
		Pod real = RealDocuments.pod("d-evicted-pod.json");
		assertThat(evicted.getStatus().getReason()).isEqualTo(real.getStatus().getReason());
		assertThat(evicted.getStatus().getMessage()).startsWith("The node was low on resource: memory.").endsWith(" ");
		assertThat(condition(evicted, "DisruptionTarget").getReason()).isEqualTo("TerminationByKubelet");
		assertThat(events(owner)).anySatisfy((e) -> assertThat(e.getReason()).isEqualTo("Evicted"));
		// the collector acts on deletions only: a Failed owner is still an owner
		assertThat(admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName("dependant").get()).isNotNull();
		admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName("owner").delete();
		assertThat(kubelet.awaitNoPods(Duration.ofSeconds(30))).as("the dependant, deleted by the collector").isEmpty();
		assertThat(dependant.getMetadata().getUid()).isNotBlank();
	}

	@Test
	void aPreemptedPodCarriesDisruptionTargetAndIsDeleted() throws Exception {
		kubelet.registry("sleep:1", Duration.ZERO);
		Pod pod = create("victim", "sleep:1", null);
		awaitPod(pod, (p) -> "Running".equals(p.getStatus().getPhase()));
		kubelet.preempt("victim");
		Event preempted = awaitEvent(pod, (e) -> "Preempted".equals(e.getReason()));
		assertThat(preempted.getAction()).isEqualTo("Preempting");
		assertThat(preempted.getMessage()).matches("Preempted by pod [0-9a-f-]+ on node test-node");
		assertThat(kubelet.awaitNoPods(Duration.ofSeconds(30))).isEmpty();
	}

	private static String waitingReason(Pod pod) {
		return (pod.getStatus() != null && !pod.getStatus().getContainerStatuses().isEmpty()
				&& pod.getStatus().getContainerStatuses().get(0).getState().getWaiting() != null)
						? String.valueOf(pod.getStatus().getContainerStatuses().get(0).getState().getWaiting().getReason())
						: "";
	}

	private static PodCondition condition(Pod pod, String type) {
		return pod.getStatus().getConditions().stream().filter((c) -> c.getType().equals(type)).findFirst().orElseThrow();
	}

	private static Pod awaitPod(Pod pod, Predicate<Pod> wanted) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		Pod current = null;
		while (System.nanoTime() < deadline) {
			current = admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(pod.getMetadata().getName()).get();
			if (current != null && current.getStatus() != null && wanted.test(current)) {
				return current;
			}
			// the simulated scheduler and kubelet write on their own threads: poll the API, bounded by the deadline
			TimeUnit.MILLISECONDS.sleep(100);
		}
		throw new AssertionError("pod " + pod.getMetadata().getName() + " not so within 60 s: " + current);
	}

	/** An event's reason, type and the start of its message, as a real cluster's and the simulation's compare. */
	static String shape(Event event) {
		String message = event.getMessage();
		int cut = message.indexOf('"');
		return event.getReason() + " " + event.getType() + " " + ((cut > 0) ? message.substring(0, cut) : message);
	}

	private static Pod create(String name, String image, String cpu) {
		return admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).resource(pod(name, image, cpu)).create();
	}

	private static Pod pod(String name, String image, String cpu) {
		PodBuilder pod = new PodBuilder().withNewMetadata()
			.withName(name)
			.endMetadata()
			.withNewSpec()
			.withRestartPolicy("Never")
			.addNewContainer()
			.withName("server")
			.withImage(image)
			.withCommand("sleep", "60")
			.endContainer()
			.endSpec();
		if (cpu != null) {
			pod.editSpec().editFirstContainer().withNewResources().addToRequests("cpu",
					new Quantity(cpu)).endResources().endContainer().endSpec();
		}
		return pod.build();
	}

	private static void delete(Pod pod) throws InterruptedException {
		admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(pod.getMetadata().getName()).delete();
		assertThat(kubelet.awaitNoPods(Duration.ofSeconds(30))).isEmpty();
	}

	private static List<Event> events(Pod pod) {
		return admin.v1().events().inNamespace(SimulatedApiServer.NAMESPACE).list().getItems().stream()
			.filter((e) -> pod.getMetadata().getUid().equals(e.getInvolvedObject().getUid()))
			.toList();
	}

	private static Event awaitEvent(Pod pod, Predicate<Event> wanted) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (System.nanoTime() < deadline) {
			for (Event event : events(pod)) {
				if (wanted.test(event)) {
					return event;
				}
			}
			// the simulated scheduler and kubelet write on their own threads: poll the API, bounded by the deadline
			TimeUnit.MILLISECONDS.sleep(200);
		}
		throw new AssertionError("no such event of pod " + pod.getMetadata().getName() + " within 60 s: "
				+ events(pod).stream().map(SimulatedControlPlaneTest::shape).toList());
	}

}
