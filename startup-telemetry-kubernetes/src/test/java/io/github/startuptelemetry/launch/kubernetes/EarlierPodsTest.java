package io.github.startuptelemetry.launch.kubernetes;

import java.net.InetAddress;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.contract.KubernetesLabels;

/**
 * The clean-up at start against fabric8's mock API server: it deletes the pods of supervisor
 * instances that are gone (their lease expired or missing, their owner pod failed or gone), and
 * never those of an instance that still runs, whatever its supervisor's name.
 */
class EarlierPodsTest {

	private static final String NAMESPACE = "fleet";

	private static KubernetesMockServer server;

	private static KubernetesClient client;

	@BeforeAll
	static void apiServer() {
		Logger.getLogger("io.fabric8.mockwebserver").setLevel(Level.WARNING);
		server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), new HashMap<>(),
				new KubernetesCrudDispatcher(), true);
		server.init(InetAddress.getLoopbackAddress(), 0);
		client = server.createClient();
	}

	@AfterAll
	static void stop() {
		client.close();
		server.destroy();
	}

	@AfterEach
	void clean() {
		client.pods().inNamespace(NAMESPACE).delete();
		client.leases().inNamespace(NAMESPACE).delete();
	}

	@Test
	void twoRunsOfTheSameSupervisorNameNeverDeleteEachOthersPods() {
		lease("running001", ZonedDateTime.now(ZoneOffset.UTC));
		create(server("model-0-runni", "sample-supervisor", "running001", null));
		EarlierPods.cleanUp(client, new ApiRequests(4), NAMESPACE, "myself0001", null, 1);
		assertThat(names()).containsExactly("model-0-runni");
	}

	@Test
	void thePodsOfAnInstanceWhoseOwnerPodFailedAreDeleted() {
		// an evicted supervisor pod stays in phase Failed: the garbage collector never deletes its servers
		Pod evicted = create(new PodBuilder().withNewMetadata()
			.withName("startup-supervisor-7d9f")
			.endMetadata()
			.withNewSpec()
			.addNewContainer()
			.withName("supervisor")
			.withImage("supervisor:1")
			.endContainer()
			.endSpec()
			.build());
		client.pods().inNamespace(NAMESPACE).withName(evicted.getMetadata().getName()).editStatus((pod) -> new PodBuilder(pod)
			.withNewStatus()
			.withPhase("Failed")
			.withReason("Evicted")
			.withMessage("The node was low on resource: memory.")
			.endStatus()
			.build());
		create(server("model-0-evict", "sample-supervisor", "evicted001", evicted));
		List<String> deleted = EarlierPods.cleanUp(client, new ApiRequests(4), NAMESPACE, "myself0001", null, 1).deleted();
		assertThat(deleted).containsExactly("model-0-evict");
	}

	@Test
	void thePodsOfAnInstanceWithoutALeaseOrWhoseLeaseRanOutAreDeleted() {
		lease("expired001", ZonedDateTime.now(ZoneOffset.UTC).minusMinutes(5));
		create(server("model-0-expir", "sample-supervisor", "expired001", null));
		create(server("model-0-nolea", "another-supervisor", "noleases01", null));
		EarlierPods.Sweep sweep = EarlierPods.cleanUp(client, new ApiRequests(4), NAMESPACE, "myself0001", null, 1);
		assertThat(sweep.deleted()).containsExactlyInAnyOrder("model-0-expir", "model-0-nolea");
		assertThat(sweep.alive()).isEmpty();
		assertThat(client.leases().inNamespace(NAMESPACE).withName("startup-telemetry-expired001").get())
			.as("the lease of a process that is gone goes with its pods").isNull();
	}

	@Test
	void anInstanceWhoseLeaseWasCurrentIsCheckedAgainAndDeletedOnlyWhenItWasNotRenewed() {
		lease("renewing01", ZonedDateTime.now(ZoneOffset.UTC));
		lease("stopped001", ZonedDateTime.now(ZoneOffset.UTC));
		create(server("model-0-renew", "sample-supervisor", "renewing01", null));
		create(server("model-0-stopp", "sample-supervisor", "stopped001", null));
		EarlierPods.Sweep sweep = EarlierPods.cleanUp(client, new ApiRequests(4), NAMESPACE, "myself0001", null, 1);
		assertThat(sweep.deleted()).isEmpty();
		assertThat(sweep.alive()).extracting(EarlierPods.LiveInstance::instance)
			.containsExactlyInAnyOrder("renewing01", "stopped001");
		client.leases().inNamespace(NAMESPACE).withName("startup-telemetry-renewing01").edit((lease) -> new LeaseBuilder(lease)
			.editSpec().withRenewTime(ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS)).endSpec().build());
		for (EarlierPods.LiveInstance live : sweep.alive()) {
			EarlierPods.recheck(client, new ApiRequests(4), NAMESPACE, live, 1);
		}
		assertThat(names()).containsExactly("model-0-renew");
	}

	@Test
	void theEarlierProcessOfThisSupervisorsOwnPodIsGone() {
		Pod self = create(new PodBuilder().withNewMetadata()
			.withName("startup-supervisor-0")
			.endMetadata()
			.withNewSpec()
			.addNewContainer()
			.withName("supervisor")
			.withImage("supervisor:1")
			.endContainer()
			.endSpec()
			.build());
		// its lease still current: the process died a moment ago, and this one restarted in its pod
		lease("earlier001", ZonedDateTime.now(ZoneOffset.UTC));
		create(server("model-0-earli", "sample-supervisor", "earlier001", self));
		assertThat(EarlierPods.cleanUp(client, new ApiRequests(4), NAMESPACE, "myself0001", self, 1).deleted())
			.containsExactly("model-0-earli");
	}

	private static void lease(String instance, ZonedDateTime renewed) {
		client.leases().inNamespace(NAMESPACE).resource(new LeaseBuilder().withNewMetadata()
			.withName("startup-telemetry-" + instance)
			.addToLabels(KubernetesLabels.MANAGED_BY, KubernetesLabels.MANAGED_BY_VALUE)
			.addToLabels(KubernetesLabels.INSTANCE, instance)
			.endMetadata()
			.withNewSpec()
			.withHolderIdentity(instance)
			.withLeaseDurationSeconds(30)
			.withRenewTime(renewed.truncatedTo(ChronoUnit.MICROS))
			.withAcquireTime(renewed.truncatedTo(ChronoUnit.MICROS))
			.endSpec()
			.build()).create();
	}

	private static Pod server(String name, String supervisor, String instance, Pod owner) {
		PodBuilder pod = new PodBuilder().withNewMetadata()
			.withName(name)
			.addToLabels(KubernetesLabels.MANAGED_BY, KubernetesLabels.MANAGED_BY_VALUE)
			.addToLabels(KubernetesLabels.SUPERVISOR, supervisor)
			.addToLabels(KubernetesLabels.INSTANCE, instance)
			.endMetadata()
			.withNewSpec()
			.addNewContainer()
			.withName("server")
			.withImage("model:1")
			.endContainer()
			.endSpec();
		if (owner != null) {
			pod.editMetadata()
				.addNewOwnerReference()
				.withApiVersion("v1")
				.withKind("Pod")
				.withName(owner.getMetadata().getName())
				.withUid(owner.getMetadata().getUid())
				.endOwnerReference()
				.endMetadata();
		}
		return pod.build();
	}

	private static Pod create(Pod pod) {
		return client.pods().inNamespace(NAMESPACE).resource(pod).create();
	}

	private static List<String> names() {
		return client.pods().inNamespace(NAMESPACE).list().getItems().stream().map((pod) -> pod.getMetadata().getName())
			.sorted()
			.toList();
	}

}
