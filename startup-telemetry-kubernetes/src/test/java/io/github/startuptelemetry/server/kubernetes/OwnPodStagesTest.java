package io.github.startuptelemetry.server.kubernetes;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.kubernetes.internal.PodTimes;
import io.github.startuptelemetry.timeline.internal.PlatformStages;
import io.github.startuptelemetry.timeline.Stage;

/**
 * A server reading its own pod (fabric8's mock API server, over TLS): its pod's stages ahead of
 * its own, or, whatever stands in the way, its own as they are and why at debug level.
 */
@ExtendWith(OutputCaptureExtension.class)
class OwnPodStagesTest {

	private static final String NAMESPACE = "fleet";

	private static final String POD = "model-0-abcde";

	/** A first TLS handshake with a fresh mock on a 2-core box shared with other builds can take longer than 5 s. */
	private static final java.time.Duration LOADED_BOX = java.time.Duration.ofSeconds(60);

	private static final Map<String, String> PROPERTIES = Map.of("kubernetes.auth.tryKubeConfig", "false",
			"kubernetes.auth.tryServiceAccount", "false", "kubernetes.auth.token", "server-token");

	@TempDir
	Path tmp;

	private KubernetesMockServer server;

	private final Map<String, String> saved = new HashMap<>();

	@AfterEach
	void stop() {
		this.saved.forEach((key, value) -> {
			if (value != null) {
				System.setProperty(key, value);
			}
			else {
				System.clearProperty(key);
			}
		});
		if (this.server != null) {
			this.server.destroy();
		}
	}

	@Test
	void thePodsStagesComeAheadOfTheServersOwn() throws Exception {
		start(true);
		Instant created;
		try (KubernetesClient admin = this.server.createClient()) {
			Pod pod = admin.pods().inNamespace(NAMESPACE).resource(pod()).create();
			// the API server stamps the creation, in whole seconds
			created = Instant.parse(pod.getMetadata().getCreationTimestamp());
			admin.pods().inNamespace(NAMESPACE).withName(POD).editStatus((current) -> new PodBuilder(current)
				.withNewStatus()
				.addNewCondition()
				.withType("PodScheduled")
				.withStatus("True")
				.withLastTransitionTime(created.plusSeconds(1).toString())
				.endCondition()
				.addNewContainerStatus()
				.withName("server")
				.withNewState()
				.withNewRunning()
				.withStartedAt(created.plusSeconds(3).toString())
				.endRunning()
				.endState()
				.endContainerStatus()
				.endStatus()
				.build());
			admin.v1().events().inNamespace(NAMESPACE).resource(new EventBuilder().withNewMetadata()
				.withName(POD + ".1")
				.endMetadata()
				.withReason("Scheduled")
				.withEventTime(new MicroTime(created.plusMillis(700).toString()))
				.withNewInvolvedObject()
				.withKind("Pod")
				.withName(POD)
				.withUid(pod.getMetadata().getUid())
				.endInvolvedObject()
				.build()).create();
		}
		long jvm = ns(created.plusSeconds(4));
		List<Stage> own = List.of(new Stage("main_start", jvm, jvm + 1_000_000_000L));
		PlatformStages stages = new OwnPodStages(inPod(), LOADED_BOX, () -> null).read(own);
		assertThat(stages.stages()).extracting(Stage::name)
			.containsExactly("pod_scheduling", "pod_setup", "interpreter_start", "main_start");
		// the mock cannot select events by their object (the simulated API server of the process tests can): the
		// scheduling's end is the PodScheduled condition's, in whole seconds
		assertThat(stages.stages().get(0)).isEqualTo(new Stage("pod_scheduling", ns(created), ns(created.plusSeconds(1))));
		assertThat(stages.stages().get(2)).isEqualTo(new Stage("interpreter_start", ns(created.plusSeconds(3)), jvm));
		assertThat(stages.rootAttributes()).containsEntry("k8s.pod.name", POD)
			.containsEntry("k8s.namespace.name", NAMESPACE)
			.containsEntry("k8s.container.name", "server");
	}

	@Test
	void withoutPermissionToReadItsPodItReportsItsOwnStagesAndSaysWhyOnceAtInfo(CapturedOutput output) throws Exception {
		start(false);
		List<Stage> own = List.of(new Stage("main_start", 1, 2));
		OwnPodStages stages = new OwnPodStages(inPod(), LOADED_BOX);
		assertThat(stages.read(own).stages()).isSameAs(own);
		assertThat(stages.read(own).stages()).isSameAs(own);
		String said = "INFO io.github.startuptelemetry.server.kubernetes.OwnPodStages -- Pod stages left out, the JVM's "
				+ "stages are reported as they are: the service account may not get pod fleet/" + POD + " (403 Forbidden";
		assertThat(output.getAll()).contains(said, "grant it get on pods");
		assertThat(output.getAll().split(java.util.regex.Pattern.quote(said), -1)).as("said once").hasSize(2);
	}

	/**
	 * A server whose {@code OTEL_RESOURCE_ATTRIBUTES} names a container its pod does not have (its
	 * supervisor's, inherited) says so and reads its pod's own container; its container's start
	 * comes from {@code /proc} when it agrees with the status.
	 */
	@Test
	void aContainerNameFromElsewhereIsSaidAndTheContainersProcessGivesItsStart(CapturedOutput output) throws Exception {
		start(true);
		Instant created;
		try (KubernetesClient admin = this.server.createClient()) {
			Pod pod = admin.pods().inNamespace(NAMESPACE).resource(pod()).create();
			created = Instant.parse(pod.getMetadata().getCreationTimestamp());
			admin.pods().inNamespace(NAMESPACE).withName(POD).editStatus((current) -> new PodBuilder(current)
				.withNewStatus()
				.addNewCondition().withType("PodScheduled").withStatus("True")
				.withLastTransitionTime(created.plusSeconds(1).toString()).endCondition()
				.addNewContainerStatus().withName("server").withNewState().withNewRunning()
				.withStartedAt(created.plusSeconds(3).toString()).endRunning().endState().endContainerStatus()
				.endStatus()
				.build());
		}
		long jvm = ns(created.plusSeconds(4));
		// PID 1 started 3.42 s after the creation: within the second its status says (3 s)
		long process = ns(created.plusMillis(3420));
		Supplier<PodTimes.Boundary> proc = () -> PodTimes.Boundary.containerProcess(process, 10.0);
		Map<String, String> env = new HashMap<>(inPod());
		env.put("OTEL_RESOURCE_ATTRIBUTES", "k8s.container.name=supervisor,k8s.pod.name=startup-supervisor-0");
		PlatformStages stages = new OwnPodStages(env, LOADED_BOX, proc)
			.read(List.of(new Stage("main_start", jvm, jvm + 1_000_000_000L)));
		assertThat(output.getAll()).contains("k8s.container.name=supervisor (OTEL_RESOURCE_ATTRIBUTES) is no container of "
				+ "pod " + POD + " (its containers: server): its stages are read for container 'server'");
		assertThat(stages.stages().get(1)).isEqualTo(new Stage("pod_setup", ns(created.plusSeconds(1)), process));
		assertThat(stages.spanAttributes("pod_setup")).containsEntry("startup.k8s.end_source", "container_process")
			.containsEntry("startup.k8s.end_resolution_ms", 10.0)
			.containsEntry("startup.k8s.start_source", "pod_condition")
			.containsEntry("startup.k8s.same_clock", false)
			.containsEntry("startup.k8s.clamped_ms", 0.0);
		assertThat(stages.spanAttributes("interpreter_start")).containsEntry("startup.k8s.start_source", "container_process")
			.containsEntry("startup.k8s.end_source", "process")
			.containsEntry("startup.k8s.same_clock", true);
	}

	@Test
	void outsideAPodOrForAPodThatIsGoneItsOwnStagesStay() throws Exception {
		start(true);
		List<Stage> own = List.of(new Stage("main_start", 1, 2));
		assertThat(new OwnPodStages(Map.of(), LOADED_BOX).read(own).stages()).isSameAs(own);
		assertThat(new OwnPodStages(inPod(), LOADED_BOX).read(own).stages()).isSameAs(own);
	}

	/** The mock API server; without {@code allowed}, its RBAC forbids every request, as for a service account with no Role. */
	private void start(boolean allowed) {
		KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
		Dispatcher dispatcher = allowed ? crud : new Dispatcher() {

			@Override
			public MockResponse dispatch(RecordedRequest request) {
				Status forbidden = new StatusBuilder().withStatus("Failure").withReason("Forbidden").withCode(403)
					.withMessage("pods \"" + POD + "\" is forbidden: User \"system:serviceaccount:fleet:default\" cannot "
							+ "get resource \"pods\" in API group \"\" in the namespace \"fleet\"")
					.build();
				return new MockResponse().setResponseCode(403).setBody(Serialization.asJson(forbidden));
			}

		};
		this.server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(),
				new HashMap<>(), dispatcher, true);
		this.server.init(InetAddress.getLoopbackAddress(), 0);
		Map<String, String> properties = new LinkedHashMap<>(PROPERTIES);
		properties.put("kubernetes.master", "https://127.0.0.1:" + this.server.getPort());
		properties.put("kubernetes.certs.ca.file", this.server.getSelfSignedCertificate().certificatePath());
		properties.forEach((key, value) -> {
			this.saved.put(key, System.getProperty(key));
			System.setProperty(key, value);
		});
	}

	/** A pod's env: the API server, the mounted service account, its name, the container the launcher named. */
	private Map<String, String> inPod() throws Exception {
		Path token = Files.writeString(this.tmp.resolve("token"), "server-token");
		Path namespace = Files.writeString(this.tmp.resolve("namespace"), NAMESPACE + "\n");
		return Map.of("KUBERNETES_SERVICE_HOST", "127.0.0.1", "KUBERNETES_SERVICE_PORT",
				Integer.toString(this.server.getPort()), "KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN", token.toString(),
				"KUBENAMESPACE", namespace.toString(), "HOSTNAME", POD, "OTEL_RESOURCE_ATTRIBUTES",
				"nemo.run.id=r,k8s.container.name=server");
	}

	private static Pod pod() {
		return new PodBuilder().withNewMetadata()
			.withName(POD)
			.endMetadata()
			.withNewSpec()
			.withNodeName("node-1")
			.addNewContainer()
			.withName("server")
			.withImage("model:1")
			.endContainer()
			.endSpec()
			.build();
	}

	private static long ns(Instant instant) {
		return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
	}

}
