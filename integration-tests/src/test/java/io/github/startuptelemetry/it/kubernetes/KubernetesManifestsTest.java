package io.github.startuptelemetry.it.kubernetes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a platform engineer applies to a real cluster (docs/kubernetes/, the Dockerfile, the kind
 * workflow), checked as far as a machine without a cluster or a Docker engine can: every document
 * parses into its Kubernetes type with no field the API would not know, the pods meet Pod Security
 * "restricted", the NetworkPolicies and the Service select the pods they mean, the supervisor is a
 * Job with its report on a volume, the Roles grant no wildcard; and the YAML and the workflow pass
 * their linters where those are installed (yamllint from Debian, action-validator from npm:
 * skipped, saying so, where they are not).
 */
class KubernetesManifestsTest {

	static final Path ROOT = SampleJars.repositoryRoot();

	static final Path EXAMPLE = ROOT.resolve("docs/kubernetes/example.yaml");

	static final Path WORKFLOW = ROOT.resolve(".github/workflows/kubernetes-kind.yml");

	static final Path KIND = ROOT.resolve("docs/kubernetes/kind.yaml");

	static final Path DOCKERFILE = ROOT.resolve("Dockerfile");

	@Test
	void everyDocumentOfTheExampleParsesAsItsKubernetesTypeWithNoUnknownField() throws IOException {
		List<HasMetadata> objects = objects(EXAMPLE);
		assertThat(objects).extracting(HasMetadata::getKind)
			.contains("Namespace", "ServiceAccount", "Role", "RoleBinding", "ConfigMap", "Service", "NetworkPolicy",
					"Job", "PersistentVolumeClaim");
		for (HasMetadata object : objects) {
			assertThat(unknownFields(object))
				.as(object.getKind() + " " + object.getMetadata().getName())
				.isEmpty();
		}
	}

	@Test
	void theNamespaceEnforcesPodSecurityRestrictedAndEveryPodMeetsIt() throws IOException {
		List<HasMetadata> objects = objects(EXAMPLE);
		Namespace namespace = only(objects, Namespace.class);
		assertThat(namespace.getMetadata().getLabels()).containsEntry("pod-security.kubernetes.io/enforce", "restricted");
		Job supervisor = only(objects, Job.class);
		assertRestricted("the supervisor's Job", supervisor.getSpec().getTemplate().getSpec());
		assertRestricted("a server pod (the ConfigMap's pod-template)", serverTemplate(objects).getSpec());
	}

	@Test
	void theSupervisorIsAJobWithItsReportOnAVolumeAndItsRootFileSystemReadOnly() throws IOException {
		List<HasMetadata> objects = objects(EXAMPLE);
		Job job = only(objects, Job.class);
		assertThat(job.getSpec().getBackoffLimit()).isNotNull();
		assertThat(job.getSpec().getTtlSecondsAfterFinished()).isNotNull();
		PodSpec pod = job.getSpec().getTemplate().getSpec();
		assertThat(pod.getRestartPolicy()).isIn("Never", "OnFailure");
		Container supervisor = pod.getContainers().get(0);
		assertThat(supervisor.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
		Map<String, Object> application = application(objects);
		String html = (String) at(application, "telemetry", "supervisor", "report", "html");
		String json = (String) at(application, "telemetry", "supervisor", "report", "json");
		String runDir = (String) at(application, "telemetry", "supervisor", "run-dir");
		for (String file : List.of(html, json, runDir)) {
			assertThat(supervisor.getVolumeMounts()).as(file + " is on a mounted volume")
				.anyMatch((mount) -> file.startsWith(mount.getMountPath() + "/"));
		}
		VolumeMount reports = supervisor.getVolumeMounts().stream().filter((mount) -> html.startsWith(mount.getMountPath()))
			.findFirst().orElseThrow();
		Volume volume = pod.getVolumes().stream().filter((v) -> v.getName().equals(reports.getName())).findFirst()
			.orElseThrow();
		assertThat(volume.getPersistentVolumeClaim()).as("the report outlives the pod").isNotNull();
		assertThat(supervisor.getVolumeMounts()).as("the JVM's /tmp, writable").anyMatch((m) -> m.getMountPath().equals("/tmp"));
	}

	@Test
	void theCallbackHasAFixedPortBehindAServiceAndTheNetworkPoliciesLetOnlyTheFleetIn() throws IOException {
		List<HasMetadata> objects = objects(EXAMPLE);
		Map<String, Object> application = application(objects);
		int port = ((Number) at(application, "telemetry", "supervisor", "callback", "port")).intValue();
		Service service = only(objects, Service.class);
		assertThat(service.getSpec().getPorts()).anySatisfy((p) -> assertThat(p.getPort()).isEqualTo(port));
		Map<String, String> supervisorLabels = only(objects, Job.class).getSpec().getTemplate().getMetadata().getLabels();
		assertThat(supervisorLabels).containsAllEntriesOf(service.getSpec().getSelector());
		assertThat(at(application, "telemetry", "supervisor", "kubernetes", "callback-host"))
			.isEqualTo(service.getMetadata().getName() + "." + service.getMetadata().getNamespace() + ".svc");
		Map<String, String> serverLabels = new java.util.HashMap<>(serverTemplate(objects).getMetadata().getLabels());
		// the launcher's own label, on every server pod
		serverLabels.put("app.kubernetes.io/managed-by", "startup-telemetry");
		List<NetworkPolicy> policies = all(objects, NetworkPolicy.class);
		assertThat(policies).as("a policy that selects the supervisor, letting the servers reach its callback port")
			.anySatisfy((policy) -> {
				assertThat(supervisorLabels).containsAllEntriesOf(policy.getSpec().getPodSelector().getMatchLabels());
				assertThat(policy.getSpec().getIngress()).anySatisfy((rule) -> {
					assertThat(rule.getPorts()).anySatisfy((p) -> assertThat(p.getPort().getIntVal()).isEqualTo(port));
					assertThat(rule.getFrom()).anySatisfy((from) -> assertThat(serverLabels)
						.containsAllEntriesOf(from.getPodSelector().getMatchLabels()));
				});
			});
		assertThat(policies).as("a policy that selects the servers, letting only the supervisor probe them")
			.anySatisfy((policy) -> {
				assertThat(serverLabels).containsAllEntriesOf(policy.getSpec().getPodSelector().getMatchLabels());
				assertThat(policy.getSpec().getIngress()).allSatisfy((rule) -> assertThat(rule.getFrom())
					.allSatisfy((from) -> assertThat(supervisorLabels)
						.containsAllEntriesOf(from.getPodSelector().getMatchLabels())));
			});
	}

	@Test
	void theRolesGrantNoWildcardAndTheSupervisorDeletesItsPodsByLabelAndHoldsALease() throws IOException {
		List<Role> roles = all(objects(EXAMPLE), Role.class);
		for (Role role : roles) {
			for (PolicyRule rule : role.getRules()) {
				assertThat(rule.getVerbs()).as(role.getMetadata().getName()).doesNotContain("*");
				assertThat(rule.getResources()).as(role.getMetadata().getName()).doesNotContain("*");
			}
		}
		Role supervisor = roles.stream().filter((r) -> r.getMetadata().getName().equals("startup-supervisor")).findFirst()
			.orElseThrow();
		assertThat(grants(supervisor, "pods")).contains("deletecollection");
		assertThat(grants(supervisor, "leases")).contains("create", "get", "update", "delete");
	}

	@Test
	void theImageIsBuiltFromTheLayeredJarAndRunsAsANumericNonRootUser() throws IOException {
		String dockerfile = Files.readString(DOCKERFILE);
		assertThat(dockerfile).contains("-Djarmode=tools", "extract --layers --launcher")
			.containsPattern("(?m)^USER [0-9]+(:[0-9]+)?$")
			.contains("org.springframework.boot.loader.launch.JarLauncher");
	}

	@Test
	void theKindWorkflowRunsTheExampleWithATaintedNodeThatBecomesSchedulable() throws IOException {
		Map<String, Object> workflow = yaml(WORKFLOW).get(0);
		String text = Files.readString(WORKFLOW);
		assertThat(workflow).containsKeys("name", "jobs");
		assertThat(text).contains("helm/kind-action@", KIND.getFileName().toString(), "kind load docker-image",
				"kubectl taint nodes");
		Map<String, Object> kind = yaml(KIND).get(0);
		assertThat(kind).containsEntry("kind", "Cluster");
		assertThat(Files.readString(KIND)).contains("register-with-taints");
	}

	@Test
	void theYamlPassesYamllintWhereItIsInstalled() throws Exception {
		Assumptions.assumeTrue(onPath("yamllint"), "yamllint is not installed (Debian: apt-get install yamllint)");
		List<String> command = new ArrayList<>(List.of("yamllint", "-c", ROOT.resolve(".yamllint.yml").toString()));
		yamlFiles().forEach((file) -> command.add(file.toString()));
		assertThat(run(command)).isEmpty();
	}

	@Test
	void theWorkflowPassesActionValidatorWhereItIsInstalled() throws Exception {
		Assumptions.assumeTrue(onPath("action-validator"),
				"action-validator is not installed (npm: @action-validator/cli)");
		assertThat(run(List.of("action-validator", WORKFLOW.toString()))).isEmpty();
	}

	private static void assertRestricted(String what, PodSpec pod) {
		assertThat(pod.getSecurityContext()).as(what).isNotNull();
		assertThat(pod.getSecurityContext().getRunAsNonRoot()).as(what + ": runAsNonRoot").isTrue();
		assertThat(pod.getSecurityContext().getSeccompProfile().getType()).as(what + ": seccomp").isEqualTo("RuntimeDefault");
		for (Container container : Stream.concat(pod.getContainers().stream(), pod.getInitContainers().stream()).toList()) {
			assertThat(container.getSecurityContext()).as(what + ": " + container.getName()).isNotNull();
			assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).as(what).isFalse();
			assertThat(container.getSecurityContext().getCapabilities().getDrop()).as(what).contains("ALL");
		}
		Set<String> allowed = Set.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim",
				"projected", "secret");
		for (Volume volume : pod.getVolumes()) {
			Map<String, Object> fields = Serialization.jsonMapper().convertValue(volume, Map.class);
			assertThat(allowed).as(what + ": volume " + volume.getName()).containsAll(
					fields.keySet().stream().filter((key) -> !key.equals("name")).toList());
		}
	}

	/** The fields of {@code object} its types did not know (fabric8 keeps them as additional properties). */
	private static List<String> unknownFields(HasMetadata object) {
		List<String> unknown = new ArrayList<>();
		collectAdditional(object, "", unknown);
		return unknown;
	}

	private static void collectAdditional(Object value, String path, List<String> unknown) {
		if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
			return;
		}
		if (value instanceof Iterable<?> items) {
			int i = 0;
			for (Object item : items) {
				collectAdditional(item, path + "[" + i++ + "]", unknown);
			}
			return;
		}
		if (value instanceof Map<?, ?> map) {
			map.forEach((key, item) -> collectAdditional(item, path + "." + key, unknown));
			return;
		}
		if (!value.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
			return;
		}
		for (java.lang.reflect.Method method : value.getClass().getMethods()) {
			if (method.getParameterCount() != 0 || !method.getName().startsWith("get") || method.getDeclaringClass() == Object.class) {
				continue;
			}
			try {
				Object field = method.invoke(value);
				if (method.getName().equals("getAdditionalProperties")) {
					if (field instanceof Map<?, ?> extra && !extra.isEmpty()) {
						unknown.add(path + " " + extra.keySet());
					}
				}
				else {
					collectAdditional(field, path + "." + method.getName().substring(3), unknown);
				}
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException(ex);
			}
		}
	}

	private static Set<String> grants(Role role, String resource) {
		Set<String> verbs = new java.util.TreeSet<>();
		role.getRules().stream().filter((rule) -> rule.getResources().contains(resource))
			.forEach((rule) -> verbs.addAll(rule.getVerbs()));
		return verbs;
	}

	static List<HasMetadata> objects(Path file) throws IOException {
		List<HasMetadata> objects = new ArrayList<>();
		for (String document : Files.readString(file).split("(?m)^---\\s*$")) {
			if (document.lines().anyMatch((line) -> line.startsWith("kind:"))) {
				objects.add(Serialization.unmarshal(document, HasMetadata.class));
			}
		}
		return objects;
	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> application(List<HasMetadata> objects) {
		ConfigMap config = all(objects, ConfigMap.class).stream()
			.filter((map) -> map.getData().containsKey("application.yml"))
			.findFirst()
			.orElseThrow();
		return (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions())).load(config.getData()
			.get("application.yml"));
	}

	static Pod serverTemplate(List<HasMetadata> objects) {
		String template = (String) at(application(objects), "telemetry", "supervisor", "kubernetes", "pod-template");
		return Serialization.unmarshal("apiVersion: v1\nkind: Pod\n" + template, Pod.class);
	}

	@SuppressWarnings("unchecked")
	static Object at(Map<String, Object> map, String... path) {
		Object value = map;
		for (String key : path) {
			value = ((Map<String, Object>) value).get(key);
			if (value == null) {
				throw new AssertionError("no " + String.join(".", path));
			}
		}
		return value;
	}

	static <T> T only(List<HasMetadata> objects, Class<T> type) {
		List<T> all = all(objects, type);
		assertThat(all).as(type.getSimpleName()).hasSize(1);
		return all.get(0);
	}

	static <T> List<T> all(List<HasMetadata> objects, Class<T> type) {
		return objects.stream().filter(type::isInstance).map(type::cast).toList();
	}

	@SuppressWarnings("unchecked")
	static List<Map<String, Object>> yaml(Path file) throws IOException {
		List<Map<String, Object>> documents = new ArrayList<>();
		for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(file))) {
			documents.add((Map<String, Object>) document);
		}
		return documents;
	}

	static List<Path> yamlFiles() throws IOException {
		List<Path> files = new ArrayList<>();
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs/kubernetes"))) {
			docs.filter((file) -> file.toString().endsWith(".yaml")).sorted().forEach(files::add);
		}
		try (Stream<Path> workflows = Files.list(ROOT.resolve(".github/workflows"))) {
			workflows.filter((file) -> file.toString().endsWith(".yml")).sorted().forEach(files::add);
		}
		return files;
	}

	static boolean onPath(String program) {
		return Stream.of(System.getenv("PATH").split(":")).anyMatch((dir) -> Files.isExecutable(Path.of(dir, program)));
	}

	/** Its output when it failed, empty when it passed. */
	static String run(List<String> command) throws Exception {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		return (process.exitValue() == 0) ? "" : output;
	}

}
