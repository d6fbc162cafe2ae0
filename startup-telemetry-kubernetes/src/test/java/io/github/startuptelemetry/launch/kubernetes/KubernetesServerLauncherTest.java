package io.github.startuptelemetry.launch.kubernetes;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
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
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

import io.github.startuptelemetry.contract.KubernetesLabels;
import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;

/**
 * The launcher against fabric8's mock API server (CRUD, over TLS, a real watch), the kubelet's part
 * played by the test writing the pod's status: what the launcher makes of each state. (With real
 * server processes under a test kubelet: {@code KubernetesFleetProcessTest}.)
 */
class KubernetesServerLauncherTest {

	private static final String NAMESPACE = "fleet";

	private static KubernetesMockServer server;

	private static KubernetesClient admin;

	private static String kubeconfig;

	@TempDir
	static Path config;

	@TempDir
	Path tmp;

	private KubernetesServerLauncher launcher;

	@BeforeAll
	static void apiServer() throws IOException {
		Logger.getLogger("io.fabric8.mockwebserver").setLevel(Level.WARNING);
		server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), new HashMap<>(),
				new KubernetesCrudDispatcher(), true);
		server.init(InetAddress.getLoopbackAddress(), 0);
		admin = server.createClient();
		Path file = config.resolve("kubeconfig");
		Files.writeString(file, """
				apiVersion: v1
				kind: Config
				clusters:
				  - name: mock
				    cluster:
				      server: https://127.0.0.1:%d
				      certificate-authority: %s
				users:
				  - name: supervisor
				    user:
				      token: supervisor-token
				contexts:
				  - name: mock
				    context: {cluster: mock, user: supervisor, namespace: %s}
				current-context: mock
				""".formatted(server.getPort(), server.getSelfSignedCertificate().certificatePath(), NAMESPACE));
		kubeconfig = System.getProperty("kubeconfig");
		System.setProperty("kubeconfig", file.toString());
	}

	@AfterAll
	static void stop() {
		if (kubeconfig != null) {
			System.setProperty("kubeconfig", kubeconfig);
		}
		else {
			System.clearProperty("kubeconfig");
		}
		admin.close();
		server.destroy();
	}

	@AfterEach
	void close() {
		if (this.launcher != null) {
			this.launcher.destroy();
		}
		admin.pods().inNamespace(NAMESPACE).delete();
		admin.configMaps().inNamespace(NAMESPACE).delete();
	}

	@Test
	void aServerIsAPodWatchedUntilItsContainerRunsThenItsHostAndStagesAreKnownAndStoppingDeletesIt() throws Exception {
		LaunchedServer launched = launch(properties(), request("model-0"));
		Pod pod = awaitPod();
		assertThat(launched.describe()).isEqualTo("pod " + pod.getMetadata().getName());
		assertThat(pod.getMetadata().getName()).startsWith("model-0-");
		assertThat(pod.getMetadata().getLabels()).containsEntry(KubernetesLabels.SUPERVISOR, "it")
			.containsEntry(KubernetesLabels.INSTANCE, this.launcher.settings().instance());
		assertThat(launched.host()).isNotDone();

		String created = pod.getMetadata().getCreationTimestamp();
		String started = Instant.parse(created).plusSeconds(2).toString();
		status(pod, (status) -> status.editOrNewStatus()
			.withPodIP("10.1.2.3")
			.addNewCondition()
			.withType("PodScheduled")
			.withStatus("True")
			.withLastTransitionTime(Instant.parse(created).plusSeconds(1).toString())
			.endCondition()
			.addNewContainerStatus()
			.withName("server")
			.withNewState()
			.withNewRunning()
			.withStartedAt(started)
			.endRunning()
			.endState()
			.endContainerStatus()
			.endStatus());

		assertThat(launched.host().get(30, TimeUnit.SECONDS)).isEqualTo("10.1.2.3");
		assertThat(launched.stages()).extracting((stage) -> stage.name()).containsExactly("pod_scheduling", "pod_setup");
		// the mock cannot select events by their object (the simulated API server of the process tests can): the
		// scheduling's end is the PodScheduled condition's
		assertThat(launched.stages().get(0).durationNs()).isEqualTo(1_000_000_000L);
		assertThat(launched.attributes()).containsEntry("k8s.pod.name", pod.getMetadata().getName())
			.containsEntry("k8s.namespace.name", NAMESPACE)
			.containsEntry("startup.k8s.pod_scheduling_ms", 1000.0)
			.containsEntry("startup.k8s.pod_setup_ms", 1000.0);
		assertThat(launched.onExit()).isNotDone();
		assertThat(launched.log()).content().contains("pod " + pod.getMetadata().getName() + "] container 'server' running");

		launched.terminate();
		launched.stopped().get(30, TimeUnit.SECONDS);
		assertThat(admin.pods().inNamespace(NAMESPACE).list().getItems()).isEmpty();
		assertThat(launched.onExit().get(30, TimeUnit.SECONDS).reason()).contains("was deleted");
	}

	@Test
	void aPodThatCannotBeScheduledWaitsForTheSchedulerAndFailsOnlyPastItsUnschedulableTimeout() throws Exception {
		KubernetesProperties properties = properties();
		properties.setUnschedulableTimeout(Duration.ofSeconds(2));
		LaunchedServer launched = launch(properties, request("model-0"));
		status(awaitPod(), (pod) -> pod.editOrNewStatus()
			.withPhase("Pending")
			.addNewCondition()
			.withType("PodScheduled")
			.withStatus("False")
			.withReason("Unschedulable")
			.withMessage("0/1 nodes are available: 1 Insufficient cpu.")
			.endCondition()
			.endStatus());
		LaunchedServer.ServerExit exit = launched.onExit().get(30, TimeUnit.SECONDS);
		assertThat(exit.code()).isEqualTo(-1);
		assertThat(exit.reason()).startsWith("could not be scheduled within 2.0 s (telemetry.supervisor.kubernetes"
				+ ".unschedulable-timeout; pod model-0-")
			.endsWith("Unschedulable: 0/1 nodes are available: 1 Insufficient cpu.)");
		assertThat(launched.host().get(1, TimeUnit.SECONDS)).isNull();
		assertThat(launched.logTail(5)).contains("waits for the scheduler", "could not be scheduled within");
		launched.kill();
		launched.stopped().get(30, TimeUnit.SECONDS);
	}

	@Test
	void whatAPodWaitsOnAndItsLastWarningsAreWhatATimeoutNames() throws Exception {
		LaunchedServer launched = launch(properties(), request("model-0"));
		Pod pod = awaitPod();
		admin.v1().events().inNamespace(NAMESPACE).resource(new io.fabric8.kubernetes.api.model.EventBuilder()
			.withNewMetadata().withName(pod.getMetadata().getName() + ".1").endMetadata()
			.withReason("FailedMount").withType("Warning").withCount(3)
			.withMessage("MountVolume.SetUp failed for volume \"models\" : secret \"models\" not found")
			.withNewInvolvedObject().withKind("Pod").withName(pod.getMetadata().getName())
			.withUid(pod.getMetadata().getUid()).endInvolvedObject()
			.build()).create();
		status(pod, (current) -> current.editOrNewStatus()
			.withPhase("Pending")
			.addNewContainerStatus().withName("server").withNewState().withNewWaiting().withReason("ContainerCreating")
			.endWaiting().endState().endContainerStatus()
			.endStatus());
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (!(launched.waitingOn().contains("FailedMount") && launched.waitingOn().contains("ContainerCreating"))
				&& System.nanoTime() < deadline) {
			// the supervisor's two watches see the pod and its event on their own threads
			TimeUnit.MILLISECONDS.sleep(50);
		}
		assertThat(launched.waitingOn()).isEqualTo("its container waits: ContainerCreating; last warnings: FailedMount ×3: "
				+ "MountVolume.SetUp failed for volume \"models\" : secret \"models\" not found");
		assertThat(launched.onExit()).isNotDone();
		launched.kill();
		launched.stopped().get(30, TimeUnit.SECONDS);
	}

	@Test
	void theClusterIsOpenedWhenTheSupervisorStartsWithItsLeaseAndTheOrphansOfProcessesThatAreGoneAreDeletedThen()
			throws Exception {
		admin.pods().inNamespace(NAMESPACE).resource(earlier("left-1", "it", "earlier0001", null)).create();
		admin.pods().inNamespace(NAMESPACE).resource(earlier("another-supervisors", "someone-else", "earlier0002", null)).create();
		Pod other = admin.pods().inNamespace(NAMESPACE).resource(new PodBuilder().withNewMetadata()
			.withName("other-supervisor")
			.endMetadata()
			.withNewSpec()
			.addNewContainer()
			.withName("supervisor")
			.withImage("supervisor:1")
			.endContainer()
			.endSpec()
			.build()).create();
		admin.pods().inNamespace(NAMESPACE).resource(earlier("owned-by-a-running-one", "it", "earlier0003", other)).create();
		this.launcher = new KubernetesServerLauncher(settings(properties()));
		assertThat(names()).contains("left-1");
		// when the supervisor starts and the fleet chose it: before any server is spawned
		assertThat(this.launcher.unavailable()).isNull();
		assertThat(admin.leases().inNamespace(NAMESPACE).withName("startup-telemetry-" + this.launcher.settings().instance())
			.get().getSpec().getHolderIdentity()).isEqualTo(this.launcher.settings().instance());
		// no lease, no owner: whatever their supervisor's name, the processes that made them are gone
		assertThat(names()).doesNotContain("left-1", "another-supervisors");
		this.launcher.launch(request("model-0"));
		awaitPod("model-0-");
		assertThat(names()).contains("owned-by-a-running-one", "other-supervisor")
			.anyMatch((name) -> name.startsWith("model-0-"));
		this.launcher.destroy();
		assertThat(admin.leases().inNamespace(NAMESPACE).list().getItems()).as("its lease, given up").isEmpty();
		this.launcher = null;
	}

	@Test
	void stoppingEveryServerIsOneDeleteByTheInstancesLabel() throws Exception {
		deletes();
		this.launcher = new KubernetesServerLauncher(settings(properties()));
		List<LaunchedServer> servers = new java.util.ArrayList<>();
		for (int i = 0; i < 5; i++) {
			servers.add(this.launcher.launch(request("model-" + i)));
		}
		for (int i = 0; i < 5; i++) {
			awaitPod("model-" + i + "-");
		}
		servers.forEach(LaunchedServer::terminate);
		for (LaunchedServer server : servers) {
			server.stopped().get(30, TimeUnit.SECONDS);
		}
		assertThat(names()).isEmpty();
		assertThat(deletes()).as("DELETE requests: one on the collection, by label").singleElement()
			.satisfies((path) -> assertThat(path).contains("/pods?").contains("labelSelector="));
	}

	@Test
	void stoppingSomeOfTheServersDeletesTheirPodsByNameAndLeavesTheOthers() throws Exception {
		this.launcher = new KubernetesServerLauncher(settings(properties()));
		LaunchedServer first = this.launcher.launch(request("model-0"));
		LaunchedServer second = this.launcher.launch(request("model-1"));
		awaitPod("model-0-");
		awaitPod("model-1-");
		deletes();
		first.terminate();
		first.stopped().get(30, TimeUnit.SECONDS);
		assertThat(names()).noneMatch((name) -> name.startsWith("model-0-")).anyMatch((name) -> name.startsWith("model-1-"));
		assertThat(deletes()).as("DELETE requests: one pod's, by name").singleElement()
			.satisfies((path) -> assertThat(path).contains("/pods/model-0-").doesNotContain("labelSelector="));
		second.terminate();
		second.stopped().get(30, TimeUnit.SECONDS);
		assertThat(names()).isEmpty();
	}

	@Test
	void aTemplateInAConfigMapIsReadOnceAndAMissingOneFailsTheLaunch() throws Exception {
		KubernetesProperties properties = properties();
		properties.setPodTemplateConfigMap("templates/model.yaml");
		assertThatIOException().isThrownBy(() -> launch(properties, request("model-0")))
			.withMessageContaining("pod-template-config-map=templates/model.yaml: ConfigMap fleet/templates does not exist");
		this.launcher.destroy();
		admin.configMaps().inNamespace(NAMESPACE).resource(new ConfigMapBuilder().withNewMetadata()
			.withName("templates")
			.endMetadata()
			.addToData("model.yaml", "spec:\n  nodeSelector:\n    gpu: \"true\"\n")
			.build()).create();
		launch(properties, request("model-0"));
		assertThat(awaitPod().getSpec().getNodeSelector()).containsEntry("gpu", "true");
	}

	@Test
	void aServerWithoutAnImageCannotBeLaunched() {
		KubernetesProperties properties = properties();
		properties.setImage(null);
		assertThatIOException().isThrownBy(() -> launch(properties, request("model-0")))
			.withMessageContaining("no image for server 'model-0'");
		assertThat(names()).isEmpty();
	}

	private LaunchedServer launch(KubernetesProperties properties, LaunchRequest request) throws IOException {
		this.launcher = new KubernetesServerLauncher(settings(properties));
		return this.launcher.launch(request);
	}

	private static KubernetesProperties properties() {
		KubernetesProperties properties = new KubernetesProperties();
		properties.setImage("model:1");
		properties.setSupervisorName("it");
		properties.setApiTimeout(Duration.ofSeconds(10));
		return properties;
	}

	private static KubernetesLauncherSettings settings(KubernetesProperties properties) {
		return new KubernetesLauncherSettings(properties, Map.of(), "it",
				KubernetesLauncherSettings.newInstance(), Duration.ofSeconds(7), true, "127.0.0.1");
	}

	private LaunchRequest request(String name) {
		return new LaunchRequest(name, "model", 0, 1, List.of("java", "-jar", "model.jar"), null, null,
				Map.of("TELEMETRY_SUPERVISOR_CALLBACK_URL", "http://127.0.0.1:4242"), this.tmp.resolve(name + ".log"));
	}

	private static Pod earlier(String name, String supervisor, String instance, Pod owner) {
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

	/** The one pod, once the launcher created it (it creates pods on threads of its own). */
	private static Pod awaitPod() throws InterruptedException {
		return awaitPod("");
	}

	private static Pod awaitPod(String prefix) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (System.nanoTime() < deadline) {
			List<Pod> pods = admin.pods().inNamespace(NAMESPACE).list().getItems().stream()
				.filter((pod) -> pod.getMetadata().getName().startsWith(prefix) && pod.getMetadata().getLabels()
					.containsKey(KubernetesLabels.INSTANCE) && !pod.getMetadata().getName().startsWith("owned"))
				.toList();
			if (!pods.isEmpty()) {
				return pods.get(0);
			}
			// created on the launcher's threads: poll the API, bounded by the deadline
			TimeUnit.MILLISECONDS.sleep(20);
		}
		throw new AssertionError("no pod " + prefix + "* created: " + names());
	}

	/** The paths of every DELETE request on pods the mock API server took since the test began. */
	private static List<String> deletes() throws InterruptedException {
		List<String> deletes = new java.util.ArrayList<>();
		for (io.fabric8.mockwebserver.http.RecordedRequest request = server.takeRequest(1, TimeUnit.MILLISECONDS);
				request != null; request = server.takeRequest(1, TimeUnit.MILLISECONDS)) {
			if ("DELETE".equals(request.getMethod()) && request.getPath().contains("/pods")) {
				deletes.add(request.getPath());
			}
		}
		return deletes;
	}

	private static List<String> names() {
		return admin.pods().inNamespace(NAMESPACE).list().getItems().stream().map((pod) -> pod.getMetadata().getName())
			.toList();
	}

	private static void status(Pod pod, java.util.function.UnaryOperator<PodBuilder> change) {
		admin.pods().inNamespace(NAMESPACE).withName(pod.getMetadata().getName())
			.editStatus((current) -> change.apply(new PodBuilder(current)).build());
	}

}
