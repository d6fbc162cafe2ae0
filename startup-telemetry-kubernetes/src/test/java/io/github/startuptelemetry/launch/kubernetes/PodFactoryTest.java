package io.github.startuptelemetry.launch.kubernetes;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

import io.github.startuptelemetry.launch.LaunchRequest;

/** The pod a server becomes: template, settings and the launcher's own parts. */
class PodFactoryTest {

	private static final String TEMPLATE = """
			metadata:
			  labels:
			    team: ml
			  annotations:
			    owner: ml-platform
			spec:
			  restartPolicy: OnFailure
			  nodeSelector:
			    gpu: "true"
			  containers:
			    - name: sidecar
			      image: proxy:1
			    - name: server
			      image: model:1
			      env:
			        - name: FROM_TEMPLATE
			          value: kept
			        - name: SHARED
			          value: template
			        - name: OTEL_EXPORTER_OTLP_HEADERS
			          valueFrom:
			            secretKeyRef: {name: collector, key: headers}
			        - name: TELEMETRY_SUPERVISOR_CALLBACK_TOKEN
			          valueFrom:
			            secretKeyRef: {name: stale, key: token}
			      resources:
			        limits:
			          memory: 2Gi
			""";

	@Test
	void aServerPodIsItsTemplateWithTheServersContainerAndTheLaunchersLabels() throws IOException {
		KubernetesProperties properties = new KubernetesProperties();
		properties.setPodTemplate(TEMPLATE);
		properties.getLabels().put("fleet", "a");
		properties.getAnnotations().put("note", "hi");
		properties.getEnv().put("SHARED", "settings");
		properties.getEnv().put("PRICE", "$5 $(HOME)");
		properties.getResources().getRequests().put("cpu", "500m");
		OwnerReference owner = new OwnerReferenceBuilder().withApiVersion("v1").withKind("Pod").withName("sup")
			.withUid("u").build();
		Pod pod = factory(properties, owner, "10.0.0.7").pod(request(null, Map.of("SHARED", "request",
				"TELEMETRY_SUPERVISOR_CALLBACK_URL", "http://sup-host:4242", "OTEL_RESOURCE_ATTRIBUTES", "nemo.run.id=r1",
				"OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20secret", "TELEMETRY_SUPERVISOR_CALLBACK_TOKEN", "run")),
				"model-0-abcde");

		assertThat(pod.getMetadata().getName()).isEqualTo("model-0-abcde");
		assertThat(pod.getMetadata().getNamespace()).isEqualTo("fleet");
		assertThat(pod.getMetadata().getLabels()).containsEntry("team", "ml")
			.containsEntry("fleet", "a")
			.containsEntry("app.kubernetes.io/managed-by", "startup-telemetry")
			.containsEntry("startuptelemetry.github.io/supervisor", "sample-supervisor")
			.containsEntry("startuptelemetry.github.io/instance", "abcde12345")
			.containsEntry("startuptelemetry.github.io/server", "model-0");
		assertThat(pod.getMetadata().getAnnotations()).containsEntry("owner", "ml-platform")
			.containsEntry("note", "hi")
			.containsEntry("kubectl.kubernetes.io/default-container", "server");
		assertThat(pod.getMetadata().getOwnerReferences()).containsExactly(owner);
		assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("OnFailure");
		assertThat(pod.getSpec().getNodeSelector()).containsEntry("gpu", "true");
		assertThat(pod.getSpec().getContainers()).extracting(Container::getName).containsExactly("sidecar", "server");
		Container server = pod.getSpec().getContainers().get(1);
		assertThat(server.getImage()).isEqualTo("model:1");
		assertThat(server.getCommand()).containsExactly("java", "-jar", "server.jar", "--price=$$1");
		assertThat(server.getArgs()).isEmpty();
		assertThat(server.getResources().getLimits()).containsEntry("memory", new Quantity("2Gi"));
		assertThat(server.getResources().getRequests()).containsEntry("cpu", new Quantity("500m"));

		Map<String, EnvVar> env = new LinkedHashMap<>();
		server.getEnv().forEach((variable) -> env.put(variable.getName(), variable));
		assertThat(env.get("FROM_TEMPLATE").getValue()).isEqualTo("kept");
		assertThat(env.get("SHARED").getValue()).isEqualTo("request");
		assertThat(env.get("PRICE").getValue()).isEqualTo("$$5 $$(HOME)");
		assertThat(env.get("TELEMETRY_SUPERVISOR_CALLBACK_URL").getValue()).isEqualTo("http://10.0.0.7:4242");
		// a credential the template keeps in a Secret stays there; the run's own values are the supervisor's
		assertThat(env.get("OTEL_EXPORTER_OTLP_HEADERS").getValue()).isNull();
		assertThat(env.get("OTEL_EXPORTER_OTLP_HEADERS").getValueFrom().getSecretKeyRef().getName()).isEqualTo("collector");
		assertThat(env.get("TELEMETRY_SUPERVISOR_CALLBACK_TOKEN").getValue()).isEqualTo("run");
		assertThat(env.get("TELEMETRY_SUPERVISOR_CALLBACK_TOKEN").getValueFrom()).isNull();
		assertThat(env.get("OTEL_RESOURCE_ATTRIBUTES_POD_NAME").getValueFrom().getFieldRef().getFieldPath())
			.isEqualTo("metadata.name");
		assertThat(env.get("OTEL_RESOURCE_ATTRIBUTES_POD_UID").getValueFrom().getFieldRef().getFieldPath())
			.isEqualTo("metadata.uid");
		assertThat(env.get("OTEL_RESOURCE_ATTRIBUTES_NODE_NAME").getValueFrom().getFieldRef().getFieldPath())
			.isEqualTo("spec.nodeName");
		assertThat(env.get("OTEL_RESOURCE_ATTRIBUTES").getValue()).isEqualTo("nemo.run.id=r1,k8s.namespace.name=fleet,"
				+ "k8s.container.name=server,k8s.pod.name=$(OTEL_RESOURCE_ATTRIBUTES_POD_NAME),"
				+ "k8s.pod.uid=$(OTEL_RESOURCE_ATTRIBUTES_POD_UID),k8s.node.name=$(OTEL_RESOURCE_ATTRIBUTES_NODE_NAME)");
		// a $(VAR) resolves only against the variables before it
		List<String> names = List.copyOf(env.keySet());
		assertThat(names.indexOf("OTEL_RESOURCE_ATTRIBUTES")).isEqualTo(names.size() - 1);
	}

	@Test
	void withoutATemplateAPodHasOneContainerNeverRestartedAndTheServersOwnSettingsWin() throws IOException {
		KubernetesProperties properties = new KubernetesProperties();
		properties.setImage("fleet:1");
		properties.setServiceAccountName("servers");
		PodSettings model = new PodSettings();
		model.setImage("model:2");
		model.setImagePullPolicy("Never");
		model.getLabels().put("kind", "model");
		properties.getServers().put("model", model);
		Pod pod = factory(properties, null, null).pod(request(null, Map.of()), "model-0-abcde");
		assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
		assertThat(pod.getSpec().getServiceAccountName()).isEqualTo("servers");
		assertThat(pod.getMetadata().getOwnerReferences()).isEmpty();
		assertThat(pod.getMetadata().getLabels()).containsEntry("kind", "model");
		assertThat(pod.getSpec().getContainers()).singleElement().satisfies((container) -> {
			assertThat(container.getName()).isEqualTo("server");
			assertThat(container.getImage()).isEqualTo("model:2");
			assertThat(container.getImagePullPolicy()).isEqualTo("Never");
		});
		Pod other = factory(properties, null, null).pod(new LaunchRequest("resources", "resources", 0, 1,
				List.of("java"), null, null, Map.of(), Path.of("resources.log")), "resources-abcde");
		assertThat(other.getSpec().getContainers().get(0).getImage()).isEqualTo("fleet:1");
	}

	@Test
	void aSetupStepRunsThroughTheLaunchShellWithoutItsGuard() throws IOException {
		KubernetesProperties properties = new KubernetesProperties();
		properties.setImage("model:1");
		Pod pod = factory(properties, null, null).pod(request(". /venv/bin/activate", Map.of()), "model-0-abcde");
		List<String> command = pod.getSpec().getContainers().get(0).getCommand();
		assertThat(command.subList(0, 2)).containsExactly("/bin/sh", "-c");
		assertThat(command.get(2)).contains("NEMO_GYM_STARTUP_SETUP_DONE_NS=$$(date +%s%N)")
			.doesNotContain("startup-telemetry-guard");
		assertThat(command.subList(3, command.size())).containsExactly("startup-telemetry-launch",
				". /venv/bin/activate", "java", "-jar", "server.jar", "--price=$$1");
	}

	@Test
	void noImageAnywhereSaysWhatToSet() {
		KubernetesProperties properties = new KubernetesProperties();
		assertThatIOException().isThrownBy(() -> factory(properties, null, null).pod(request(null, Map.of()), "m"))
			.withMessage("no image for server 'model-0': set telemetry.supervisor.kubernetes.image (or "
					+ ".servers.model-0.image), or name one in the pod template");
	}

	@Test
	void labelValuesAndCallbackHosts() {
		assertThat(PodFactory.labelValue("Model_1.a")).isEqualTo("Model_1.a");
		assertThat(PodFactory.labelValue("-a b-")).isEqualTo("a-b");
		assertThat(PodFactory.labelValue("x".repeat(70))).hasSize(63);
		assertThat(PodFactory.onHost("http://127.0.0.1:4242", "fd00::1")).isEqualTo("http://[fd00::1]:4242");
		assertThat(PodFactory.onHost("http://127.0.0.1:4242", "supervisor.fleet.svc")).isEqualTo(
				"http://supervisor.fleet.svc:4242");
	}

	/**
	 * A supervisor in a pod the OpenTelemetry Operator injected (its service name, its pod's
	 * {@code k8s.*} and instance id in its environment, which its servers inherit): none of it
	 * reaches a server's pod, which names itself.
	 */
	@Test
	void aServerPodNeverCarriesTheSupervisorsIdentity() throws IOException {
		KubernetesProperties properties = new KubernetesProperties();
		properties.setImage("model:1");
		String supervisorAttributes = "k8s.container.name=supervisor,k8s.namespace.name=fleet,"
				+ "k8s.pod.name=startup-supervisor-7d9f,k8s.pod.uid=sup-uid,k8s.node.name=node-9,"
				+ "service.instance.id=fleet.startup-supervisor-7d9f.supervisor,service.name=startup-supervisor,"
				+ "deployment.environment=prod";
		Map<String, String> inherited = Map.of("OTEL_SERVICE_NAME", "startup-supervisor", "OTEL_RESOURCE_ATTRIBUTES",
				supervisorAttributes, "OTEL_RESOURCE_ATTRIBUTES_POD_NAME", "startup-supervisor-7d9f");
		Pod pod = factory(properties, null, null, inherited).pod(request(null, inherited), "model-0-abcde");
		Map<String, EnvVar> env = new LinkedHashMap<>();
		pod.getSpec().getContainers().get(0).getEnv().forEach((variable) -> env.put(variable.getName(), variable));
		assertThat(env.get("OTEL_SERVICE_NAME").getValue()).isEqualTo("model-0");
		assertThat(env.get("NEMO_GYM_OTEL_SERVICE_NAME_PER_SERVER").getValue()).isEqualTo("false");
		assertThat(env.get("OTEL_RESOURCE_ATTRIBUTES_POD_NAME").getValueFrom().getFieldRef().getFieldPath())
			.isEqualTo("metadata.name");
		assertThat(env.get("OTEL_RESOURCE_ATTRIBUTES").getValue()).isEqualTo("deployment.environment=prod,"
				+ "nv.dl.rank=0,nv.dl.world_size=2,rl.worker_group=model,k8s.namespace.name=fleet,k8s.container.name=server,"
				+ "k8s.pod.name=$(OTEL_RESOURCE_ATTRIBUTES_POD_NAME),k8s.pod.uid=$(OTEL_RESOURCE_ATTRIBUTES_POD_UID),"
				+ "k8s.node.name=$(OTEL_RESOURCE_ATTRIBUTES_NODE_NAME)");
	}

	@Test
	void whatALocalServerWouldInheritOfTheSupervisorsTelemetryAPodIsHandedWithoutItsIdentity() throws IOException {
		KubernetesProperties properties = new KubernetesProperties();
		properties.setImage("model:1");
		// the supervisor leaves out of the request what a local server inherits: a pod inherits nothing
		Map<String, String> supervisorEnv = Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel-collector.observability:4318",
				"OTEL_SERVICE_NAME", "startup-supervisor", "OTEL_RESOURCE_ATTRIBUTES",
				"k8s.pod.name=startup-supervisor-7d9f,service.instance.id=sup,deployment.environment=prod",
				"OTEL_RESOURCE_ATTRIBUTES_POD_NAME", "startup-supervisor-7d9f", "TELEMETRY_RANK", "3",
				"TELEMETRY_SUPERVISOR_CALLBACK_URL", "http://elsewhere:1", "PATH", "/usr/bin");
		Pod pod = factory(properties, null, null, supervisorEnv).pod(request(null, Map.of("TELEMETRY_RANK", "0")),
				"model-0-abcde");
		Map<String, EnvVar> env = new LinkedHashMap<>();
		pod.getSpec().getContainers().get(0).getEnv().forEach((variable) -> env.put(variable.getName(), variable));
		assertThat(env.get("OTEL_EXPORTER_OTLP_ENDPOINT").getValue()).isEqualTo("http://otel-collector.observability:4318");
		assertThat(env.get("OTEL_SERVICE_NAME").getValue()).isEqualTo("model-0");
		assertThat(env.get("TELEMETRY_RANK").getValue()).isEqualTo("0");
		assertThat(env.get("OTEL_RESOURCE_ATTRIBUTES").getValue()).startsWith("deployment.environment=prod,")
			.doesNotContain("startup-supervisor-7d9f", "service.instance.id");
		assertThat(env.get("OTEL_RESOURCE_ATTRIBUTES_POD_NAME").getValueFrom().getFieldRef().getFieldPath())
			.isEqualTo("metadata.name");
		assertThat(env).doesNotContainKeys("TELEMETRY_SUPERVISOR_CALLBACK_URL", "PATH");
	}

	private static PodFactory factory(KubernetesProperties properties, OwnerReference owner, String callbackHost,
			Map<String, String> supervisorEnv) {
		return new PodFactory(properties, "fleet", "sample-supervisor", "abcde12345", owner, callbackHost,
				(reference) -> {
					throw new AssertionError("no ConfigMap here");
				}, supervisorEnv, null);
	}

	private static PodFactory factory(KubernetesProperties properties, OwnerReference owner, String callbackHost) {
		return factory(properties, owner, callbackHost, Map.of());
	}

	private static LaunchRequest request(String setup, Map<String, String> env) {
		return new LaunchRequest("model-0", "model", 0, 2, List.of("java", "-jar", "server.jar", "--price=$1"), setup,
				null, env, Path.of("model-0.log"));
	}

}
