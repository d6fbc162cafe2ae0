package io.github.startuptelemetry.it.kubernetes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
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
 * timestamp fields; what the real components retry, it retries.
 */
class SimulatedControlPlaneTest {

	static SimulatedApiServer api;

	static TestKubelet kubelet;

	static KubernetesClient admin;

	@BeforeAll
	static void cluster() throws Exception {
		api = SimulatedApiServer.start(SampleJars.repositoryRoot().resolve("docs/kubernetes/example.yaml"));
		kubelet = TestKubelet.start(api, Files.createTempDirectory("simulated-pods-"));
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

	/** An event's reason, type and the start of its message, as a real cluster's and the simulation's compare. */
	static String shape(Event event) {
		String message = event.getMessage();
		int cut = message.indexOf('"');
		return event.getReason() + " " + event.getType() + " " + ((cut > 0) ? message.substring(0, cut) : message);
	}

	private static Pod create(String name, String image, String cpu) {
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
					new io.fabric8.kubernetes.api.model.Quantity(cpu)).endResources().endContainer().endSpec();
		}
		return admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).resource(pod.build()).create();
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
