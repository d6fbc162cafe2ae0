package io.github.startuptelemetry.it.kubernetes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.kubernetes.SimulatedApiServer;
import io.github.startuptelemetry.it.support.kubernetes.TestKubelet;

import static io.github.startuptelemetry.it.support.Fleets.TIMEOUT;
import static io.github.startuptelemetry.it.support.Fleets.byServer;
import static io.github.startuptelemetry.it.support.Fleets.count;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static io.github.startuptelemetry.it.support.Spans.assertContiguous;
import static io.github.startuptelemetry.it.support.Spans.only;
import static io.github.startuptelemetry.it.support.Spans.stages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code kubernetes} launcher against the simulated control plane ({@link SimulatedApiServer}:
 * fabric8's mock API server with the docs' RBAC; {@link TestKubelet}: a scheduler and a kubelet
 * running each pod as a real local process): the sample supervisor, outside the cluster with a
 * kubeconfig as an operator runs it (and once in it, as a pod), starts real sample-server JVMs as
 * pods. The failure cases, which are about the launcher's reading of a pod, not about a server or
 * a supervisor JVM, run the starter's supervisor in this JVM ({@link InProcessSupervisor}) with a
 * small command as the container (a CI budget: a supervisor JVM each cost 15-20 s on a loaded
 * box). Every test ends with no pod left; the class ends checking that the supervisor and the
 * servers used exactly what the docs' Roles grant them.
 */
@ExtendWith(OutputCaptureExtension.class)
class KubernetesFleetProcessTest {

	static final String IMAGE = "startup-telemetry/sample-server:test";

	static final Duration PODS_GONE = Duration.ofSeconds(30);

	/** A fleet of real JVMs on a 2-core box shared with other builds: generous, never waited out when all goes well. */
	static final Duration FLEET_TIMEOUT = Duration.ofMinutes(5);

	static SimulatedApiServer api;

	static TestKubelet kubelet;

	static Path cluster;

	@RegisterExtension
	final Fleets fleets = new Fleets();

	@BeforeAll
	static void cluster() throws Exception {
		cluster = Files.createTempDirectory("simulated-cluster-");
		api = SimulatedApiServer.start(SampleJars.repositoryRoot().resolve("docs/kubernetes/example.yaml"));
		kubelet = TestKubelet.start(api, cluster.resolve("pods")).registry(IMAGE, Duration.ofMillis(300));
	}

	/** How many of this class's tests ran: the Roles' every verb is needed by all of them together. */
	static final java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();

	@org.junit.jupiter.api.AfterEach
	void counted() {
		ran.incrementAndGet();
	}

	/**
	 * The supervisor and the servers did nothing the docs' Roles do not grant (only the server
	 * without a Role was denied), and, when the whole class ran, used every verb they grant: the
	 * example's RBAC is exactly what is needed.
	 */
	@AfterAll
	static void exactlyTheVerbsTheDocsGrantWereNeeded() {
		try {
			assertThat(api.denied()).as("requests the docs' RBAC denied").allSatisfy(
					(denied) -> assertThat(denied).contains("system:serviceaccount:startup-fleet:no-rbac"));
			assertThat(api.granted("startup-supervisor")).as("what the supervisor did, against its Role")
				.containsAll(api.used("startup-supervisor"));
			assertThat(api.granted("startup-server")).as("what a server did, against its Role")
				.containsAll(api.used("startup-server"));
			long tests = java.util.Arrays.stream(KubernetesFleetProcessTest.class.getDeclaredMethods())
				.filter((method) -> method.isAnnotationPresent(Test.class))
				.count();
			if (ran.get() == tests) {
				// but one: a single pod's delete, for a stop of only some servers, which no test here reaches (a
				// whole fleet is stopped with one deletecollection)
				java.util.Set<String> reached = new java.util.TreeSet<>(api.granted("startup-supervisor"));
				reached.remove("delete pods");
				assertThat(api.used("startup-supervisor")).as("the supervisor's Role, each verb used")
					.isEqualTo(reached);
				assertThat(api.used("startup-server")).as("the servers' Role, each verb used")
					.isEqualTo(api.granted("startup-server"));
			}
		}
		finally {
			shutDown();
		}
	}

	static void shutDown() {
		if (kubelet != null) {
			kubelet.close();
		}
		if (api != null) {
			api.close();
		}
	}

	/**
	 * One run, asserted many ways (a fleet of real JVMs is the class's dearest part): the sample
	 * fleet, its {@code resources} server under a service account that may not read its pod (one
	 * JVM fewer than a fourth server for it: the replicas of {@code model} have their pod's stages).
	 */
	@Test
	void theSampleFleetAsPodsIsOneTraceWithThePodStagesAheadOfTheJvmStagesOnEveryServerButOneWithoutRbac()
			throws Exception {
		// pulled by every pod (the node has the image from earlier tests): each has its image_pull
		List<String> args = new ArrayList<>(List.of("--telemetry.supervisor.kubernetes.image-pull-policy=Always"));
		args.addAll(List.of(sampleServer(0, "model", 2)));
		args.addAll(List.of(sampleServer(1, "resources", 1)));
		args.add("--telemetry.supervisor.kubernetes.servers.resources.service-account-name=no-rbac");
		// each server's one read of its pod, given the time a 2-core box shared with other builds may need
		// (the default 5 s is for a cluster), and saying at debug level why it could not
		args.add("--telemetry.supervisor.kubernetes.env.TELEMETRY_STARTUP_KUBERNETES_TIMEOUT=60s");
		args.add("--telemetry.supervisor.kubernetes.env.LOGGING_LEVEL_IO_GITHUB_STARTUPTELEMETRY_SERVER_KUBERNETES=debug");
		try (JavaProcess supervisor = supervisor(args.toArray(String[]::new))
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			// each server reads its pod once it is ready, then exports its spans: the supervisor keeps the
			// fleet up until all have (the one without RBAC once it said why it could not read it)
			List<ReceivedSpan> spans = this.fleets.receiver().awaitSpans((all) -> count(all, "gym.startup") == 1
					&& count(all, "gym.server.startup.application_ready") == 3, FLEET_TIMEOUT);
			assertThat(count(spans, "gym.server.startup.pod_setup")).as("servers with their pod's stages")
				.isEqualTo(2);
			ReceivedSpan root = only(spans, "gym.startup");
			assertThat(root.attribute("nemo.gym.startup.outcome")).isEqualTo("ready");
			assertThat(spans).filteredOn((s) -> s.name().startsWith("gym."))
				.allSatisfy((span) -> assertThat(span.traceId()).isEqualTo(root.traceId()));
			Map<String, ReceivedSpan> steps = byServer(spans, "gym.startup.server");
			Map<String, ReceivedSpan> servers = byServer(spans, "gym.server.startup");
			assertThat(steps).containsOnlyKeys("model-0", "model-1", "resources");
			assertThat(servers).containsOnlyKeys("model-0", "model-1", "resources");
			assertWithoutRbac(supervisor, spans, steps.get("resources"), servers.get("resources"));
			for (String name : List.of("model-0", "model-1")) {
				ReceivedSpan step = steps.get(name);
				ReceivedSpan server = servers.get(name);
				assertThat(step.parentSpanId()).isEqualTo(root.spanId());
				assertThat(server.parentSpanId()).as(name).isEqualTo(step.spanId());
				// the supervisor's span names the pod itself: a collector tags spans by the pod that sent them
				String pod = step.attribute("k8s.pod.name");
				assertThat(pod).startsWith(name + "-");
				assertThat(step.attribute("k8s.pod.uid")).isNotBlank();
				assertThat(step.attribute("k8s.namespace.name")).isEqualTo(SimulatedApiServer.NAMESPACE);
				assertThat(step.attribute("k8s.node.name")).isEqualTo(TestKubelet.NODE);
				assertThat(step.attribute("k8s.container.name")).isEqualTo("server");
				assertThat(Double.parseDouble(step.attribute("startup.k8s.pod_scheduling_ms"))).isNotNegative();
				assertThat(Double.parseDouble(step.attribute("startup.k8s.pod_setup_ms"))).isNotNegative();
				assertThat(Double.parseDouble(step.attribute("startup.k8s.image_pull_ms"))).isNotNegative();
				// the server's own spans: its pod's stages, then its JVM's, contiguous
				List<ReceivedSpan> serverStages = stages(spans, server);
				assertContiguous(serverStages, server);
				assertThat(serverStages).extracting((s) -> s.attribute("nemo.gym.startup.stage"))
					.startsWith("pod_scheduling", "pod_setup", "interpreter_start", "main_start")
					.endsWith("application_ready");
				assertThat(serverStages.get(0).startNs()).as("the pod's creation is its spawn").isEqualTo(step.startNs());
				// the supervisor's figure and the server's span: one interval, from its spawn to the scheduler's event
				assertThat(Double.parseDouble(step.attribute("startup.k8s.pod_scheduling_ms")))
					.isCloseTo((serverStages.get(0).endNs() - serverStages.get(0).startNs()) / 1e6,
							org.assertj.core.data.Offset.offset(0.002));
				// where each boundary came from, on which clock (the simulated pods run on the host: PID 1 is not
				// theirs, so the container's start is its status's whole second)
				assertThat(serverStages.get(0).attribute("startup.k8s.start_source")).isEqualTo("supervisor_spawn");
				assertThat(serverStages.get(0).attribute("startup.k8s.end_source")).isEqualTo("scheduled_event");
				assertThat(serverStages.get(0).attribute("startup.k8s.same_clock")).isEqualTo("false");
				assertThat(serverStages.get(1).attribute("startup.k8s.end_source")).isEqualTo("container_status");
				assertThat(serverStages.get(2).attribute("startup.k8s.end_source")).isEqualTo("process");
				assertThat(Double.parseDouble(serverStages.get(2).attribute("startup.k8s.clamped_ms"))).isNotNegative();
				// the scheduler's microsecond event against the supervisor's stamp; the container's start in seconds
				assertThat(serverStages.get(0).attribute("startup.k8s.precision_ms")).isEqualTo("0.001");
				assertThat(serverStages.get(1).attribute("startup.k8s.precision_ms")).isEqualTo("1000.0");
				assertThat(serverStages.get(2).attribute("startup.k8s.precision_ms")).isEqualTo("1000.0");
				assertThat(serverStages.get(3).attribute("startup.k8s.precision_ms")).isNull();
				ReceivedSpan pull = spans.stream()
					.filter((s) -> s.name().equals("gym.server.startup.image_pull")
							&& s.parentSpanId().equals(serverStages.get(1).spanId()))
					.findFirst()
					.orElseThrow(() -> new AssertionError("no image_pull in the pod_setup of " + name));
				assertThat(pull.startNs()).isBetween(serverStages.get(1).startNs(), serverStages.get(1).endNs());
				assertThat(pull.endNs()).isBetween(pull.startNs(), serverStages.get(1).endNs());
				// and its own names: on its root span from its pod, on its resource from the Downward API
				assertThat(server.attribute("k8s.pod.name")).isEqualTo(pod);
				assertThat(server.resourceAttribute("k8s.pod.name")).isEqualTo(pod);
				assertThat(server.resourceAttribute("k8s.node.name")).isEqualTo(TestKubelet.NODE);
				assertThat(server.resourceAttribute("k8s.pod.uid")).isEqualTo(step.attribute("k8s.pod.uid"));
			}
			String report = supervisor.log().substring(supervisor.log().indexOf("Startup report"));
			// the pod's stages are columns like the JVM's (their names over two header lines); the
			// supervisor may read the pod of the server without RBAC: its row has the pod's stages too
			assertThat(report).contains("Startup ready after").containsPattern("pod +pod +interpreter +main")
				.containsPattern("scheduling +setup +start +start")
				.containsPattern("resources +resources +[0-9.]+ m?s +[0-9.]+ m?s +[0-9.]+ m?s");
			System.out.println("The sample fleet as pods:\n" + report);
			supervisor.terminate();
			supervisor.awaitExit(FLEET_TIMEOUT);
		}
		assertThat(kubelet.awaitNoPods(PODS_GONE)).as("pods left").isEmpty();
	}

	@Test
	void anUnschedulablePodWaitsAndFailsOnlyPastItsUnschedulableTimeoutWithTheSchedulersReason(CapturedOutput output)
			throws Exception {
		// a run of the same supervisor name that still runs (its lease current): its pod is never touched
		Pod concurrent = concurrentRun();
		String log = failedRun(output, "crashed", server(0, "model", "sleep", "300"),
				"--telemetry.supervisor.kubernetes.resources.requests.cpu=64",
				"--telemetry.supervisor.kubernetes.unschedulable-timeout=3s");
		assertThat(log).containsPattern("Server 'model' could not be scheduled within 3.0 s \\(telemetry.supervisor"
				+ "\\.kubernetes\\.unschedulable-timeout; pod model-\\w+, Unschedulable: 0/\\d+ nodes are available: \\d+ "
				+ "Insufficient cpu\\.")
			.contains("Left 1 pod(s) of supervisor instance concurrent1 (supervisor 'it-fleet') alone: its lease was renewed");
		assertThat(kubelet.pods()).extracting((pod) -> pod.getMetadata().getName())
			.containsExactly(concurrent.getMetadata().getName());
		try (KubernetesClient admin = api.admin()) {
			admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(concurrent.getMetadata().getName()).delete();
			admin.leases().inNamespace(SimulatedApiServer.NAMESPACE).withName("startup-telemetry-concurrent1").delete();
		}
		assertThat(kubelet.awaitNoPods(PODS_GONE)).isEmpty();
	}

	/**
	 * An autoscaled cluster: the pod is Unschedulable until the autoscaler adds a node, then the
	 * fleet starts; the supervisor's span says what the pod waited on.
	 */
	@Test
	void inAnAutoscaledClusterTheFleetStartsOnceANodeIsAddedAndSaysWhatItsPodWaitedOn() throws Exception {
		kubelet.scheduler().autoscale(Duration.ofSeconds(2), Map.of("cpu", new Quantity("16"), "memory",
				new Quantity("32Gi")));
		try {
			List<String> web = new ArrayList<>(web(0, "web"));
			web.add("--telemetry.supervisor.kubernetes.resources.requests.cpu=6");
			inProcess(web.toArray(String[]::new)).close();
			ReceivedSpan step = only(this.fleets.receiver().awaitSpans((all) -> count(all, "gym.startup") == 1,
					FLEET_TIMEOUT), "gym.startup.server");
			assertThat(step.attribute("nemo.gym.startup.outcome")).isEqualTo("ready");
			assertThat(step.attribute("startup.k8s.waited_on")).startsWith("Unschedulable ")
				.contains("0/1 nodes are available: 1 Insufficient cpu.");
			assertThat(step.attribute("k8s.node.name")).startsWith("autoscaled-");
			assertThat(Double.parseDouble(step.attribute("startup.k8s.pod_scheduling_ms"))).isGreaterThan(1000);
		}
		finally {
			kubelet.scheduler().autoscale(null, null);
		}
		assertThat(kubelet.awaitNoPods(PODS_GONE)).as("pods left").isEmpty();
	}

	@Test
	void anImageThatCannotBePulledIsPulledAgainUntilTheTimeoutWhichNamesItsWaitAndTheKubeletsWarnings(
			CapturedOutput output) throws Exception {
		String log = failedRun(output, "timeout", server(0, "model", "sleep", "300"),
				"--telemetry.supervisor.kubernetes.image=startup-telemetry/missing:1",
				"--telemetry.supervisor.ready-timeout=5s");
		assertThat(log).containsPattern("Not ready after 5000 ms: model \\(waits for its image \\(container 'server' of "
				+ "pod model-\\w+, (ErrImagePull|ImagePullBackOff): [^)]*\\) for [0-9.]+ m?s; last warnings: Failed( ×\\d+)?: ")
			// the kubelet's Failed says two things, each said: the pull's error and its own reason
			.containsPattern("last warnings: [^\\n]*Failed( ×\\d+)?: Failed to pull image \"startup-telemetry/missing:1\": "
					+ "[^\\n]*not found")
			.containsPattern("last warnings: [^\\n]*Failed( ×\\d+)?: Error: (ErrImagePull|ImagePullBackOff)");
	}

	@Test
	void anEvictedServerPodCrashesTheStartupAsEvicted(CapturedOutput output) throws Exception {
		Thread evictor = new Thread(() -> {
			try {
				long deadline = System.nanoTime() + FLEET_TIMEOUT.toNanos();
				while (System.nanoTime() < deadline) {
					for (String pod : kubelet.processes().keySet()) {
						if (pod.startsWith("model-")) {
							kubelet.evict(pod, "memory");
							return;
						}
					}
					// the kubelet starts it: poll, bounded by the deadline
					TimeUnit.MILLISECONDS.sleep(100);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "evictor");
		evictor.start();
		String log = failedRun(output, "crashed", server(0, "model", "sleep", "300"));
		evictor.join();
		assertThat(log).containsPattern("Server 'model' was evicted \\(pod model-\\w+: The node was low on resource: "
				+ "memory\\.");
	}

	@Test
	void aContainerThatExitsCrashesTheStartupWithItsCodeAndLastLines(CapturedOutput output) throws Exception {
		String log = failedRun(output, "crashed", server(0, "model", "/bin/sh", "-c", "echo 'cannot load the model' >&2; exit 3"));
		assertThat(log).containsPattern("Server 'model' exited with code 3 \\(container 'server' of pod model-\\w+: Error\\)")
			.contains("cannot load the model");
		assertThat(this.fleets.tmp().resolve("startup-report.html")).content().contains("crashed (exit 3)");
	}

	@Test
	void aContainerThatCrashLoopsCrashesTheStartupWithTheBackOffAndItsLastRunsLines(CapturedOutput output) throws Exception {
		String log = failedRun(output, "crashed", server(0, "model", "/bin/sh", "-c", "echo 'cannot load the model' >&2; exit 3"),
				"--telemetry.supervisor.kubernetes.pod-template=spec: {restartPolicy: Always}");
		assertThat(log).containsPattern("Server 'model' crash-looped \\(container 'server' of pod model-\\w+, "
				+ "CrashLoopBackOff: back-off 10s restarting failed container=server .*; it last exited with code 3 \\(Error\\)\\)")
			.contains("cannot load the model");
	}

	@Test
	void aServerNeverReadyTimesOutAndItsPodIsDeletedWithTheStopTimeoutAsItsGracePeriod(CapturedOutput output) throws Exception {
		String log = failedRun(output, "timeout", server(0, "model", "sleep", "300"),
				"--telemetry.supervisor.ready-timeout=3s", "--telemetry.supervisor.stop-timeout=4s");
		assertThat(log).contains("Not ready after 3000 ms: model");
		assertThat(api.deleteGraceSeconds(SimulatedApiServer.NAMESPACE, podName(log, "model"))).isEqualTo(4);
	}

	/**
	 * A server without permission to read its pod exports its JVM stages only and says why at
	 * debug level; its resource still names its pod (the Downward API needs no permission).
	 */
	private static void assertWithoutRbac(JavaProcess supervisor, List<ReceivedSpan> spans, ReceivedSpan step,
			ReceivedSpan server) throws Exception {
		assertThat(server.parentSpanId()).isEqualTo(step.spanId());
		List<ReceivedSpan> serverStages = stages(spans, server);
		assertContiguous(serverStages, server);
		assertThat(serverStages).extracting((s) -> s.attribute("nemo.gym.startup.stage"))
			.startsWith("interpreter_start", "main_start")
			.endsWith("application_ready")
			.doesNotContain("pod_scheduling", "pod_setup", "image_pull");
		assertThat(server.resourceAttribute("k8s.pod.name")).startsWith("resources-");
		// the supervisor's own span of it still names the pod and has its stages' times
		assertThat(step.attribute("k8s.pod.name")).isEqualTo(server.resourceAttribute("k8s.pod.name"));
		assertThat(step.attribute("startup.k8s.pod_setup_ms")).isNotBlank();
		assertThat(kubelet.podDir(podName(supervisor.log(), "resources")).resolve("server.log")).content()
			.contains("Pod stages left out, the JVM's stages are reported as they are: the service account may not "
					+ "get pod startup-fleet/resources-", "403 Forbidden", "grant it get on pods");
	}

	@Test
	void inTheClusterTheSupervisorOwnsItsPodsTheyCallItBackAtItsPodsIpAndAfterKill9ItsRestartDeletesThem()
			throws Exception {
		String supervisorPod = "sample-supervisor-0";
		List<String> args = new ArrayList<>(List.of(SampleJars.supervisor().toString(),
				"--telemetry.supervisor.launcher=kubernetes", "--telemetry.supervisor.callback.address=0.0.0.0",
				"--telemetry.supervisor.kubernetes.image=" + IMAGE,
				"--telemetry.supervisor.kubernetes.service-account-name=startup-server",
				"--telemetry.supervisor.run-dir=" + this.fleets.runDir(),
				"--telemetry.supervisor.report.html=" + this.fleets.tmp().resolve("in-cluster.html"),
				"--telemetry.supervisor.report.json=" + this.fleets.tmp().resolve("in-cluster.json")));
		// a server that only answers: not the point here
		args.addAll(web(0, "web"));
		kubelet.registry("startup-telemetry/sample-supervisor:test", Duration.ofMillis(100));
		try (KubernetesClient admin = api.admin()) {
			Pod created = admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).resource(new PodBuilder().withNewMetadata()
				.withName(supervisorPod)
				.endMetadata()
				.withNewSpec()
				.withServiceAccountName("startup-supervisor")
				.withRestartPolicy("Always")
				.addNewContainer()
				.withName("supervisor")
				.withImage("startup-telemetry/sample-supervisor:test")
				.withCommand(javaCommand())
				.withArgs(args)
				.addNewEnv()
				.withName("OTEL_RESOURCE_ATTRIBUTES_POD_NAME")
				.withNewValueFrom()
				.withNewFieldRef()
				.withFieldPath("metadata.name")
				.endFieldRef()
				.endValueFrom()
				.endEnv()
				.addNewEnv()
				.withName("MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT")
				.withValue(this.fleets.receiver().tracesEndpoint())
				.endEnv()
				// what the OpenTelemetry Operator injects into the supervisor's pod: none of it may reach a server's
				.addNewEnv()
				.withName("OTEL_SERVICE_NAME")
				.withValue("startup-supervisor")
				.endEnv()
				.addNewEnv()
				.withName("OTEL_RESOURCE_ATTRIBUTES")
				.withValue("k8s.container.name=supervisor,k8s.namespace.name=startup-fleet,"
						+ "k8s.pod.name=$(OTEL_RESOURCE_ATTRIBUTES_POD_NAME),service.instance.id=startup-fleet."
						+ "$(OTEL_RESOURCE_ATTRIBUTES_POD_NAME).supervisor,deployment.environment=ci")
				.endEnv()
				.endContainer()
				.endSpec()
				.build()).create();
			Pod first = awaitServerPod(admin, null);
			java.util.Map<String, String> serverEnv = new java.util.HashMap<>();
			first.getSpec().getContainers().get(0).getEnv().stream().filter((env) -> env.getValue() != null)
				.forEach((env) -> serverEnv.put(env.getName(), env.getValue()));
			assertThat(serverEnv).containsEntry("OTEL_SERVICE_NAME", "web");
			assertThat(serverEnv.get("OTEL_RESOURCE_ATTRIBUTES")).contains("deployment.environment=ci",
					"k8s.pod.name=$(OTEL_RESOURCE_ATTRIBUTES_POD_NAME)", "k8s.container.name=server")
				.doesNotContain(supervisorPod, "service.instance.id", "k8s.container.name=supervisor");
			assertThat(first.getMetadata().getOwnerReferences()).singleElement().satisfies((owner) -> {
				assertThat(owner.getKind()).isEqualTo("Pod");
				assertThat(owner.getName()).isEqualTo(supervisorPod);
				assertThat(owner.getUid()).isEqualTo(created.getMetadata().getUid());
			});
			assertThat(first.getSpec().getContainers().get(0).getEnv())
				.filteredOn((env) -> env.getName().equals("TELEMETRY_SUPERVISOR_CALLBACK_URL"))
				.singleElement()
				.satisfies((env) -> assertThat(env.getValue()).startsWith("http://127.0.0.1:"));
			List<ReceivedSpan> spans = this.fleets.receiver()
				.awaitSpans((all) -> all.stream().anyMatch((s) -> s.name().equals("gym.startup.server")
						&& "ready".equals(s.attribute("nemo.gym.startup.outcome"))), FLEET_TIMEOUT);
			assertThat(only(spans, "gym.startup.server").attribute("startup.readiness.source")).isEqualTo("probe");

			// kill -9 of the supervisor: its container restarts, as a Deployment's would (after a back-off cut
			// short here), and the new process first deletes the pods of the one that died: the clean-up at
			// start, the same code that deletes the pods a supervisor outside the cluster left (there no
			// owner; here its own pod, which outlived its process, is theirs)
			String firstPod = first.getMetadata().getName();
			ProcessHandle orphan = kubelet.processes().get(firstPod);
			assertThat(orphan).as("the first server's process").isNotNull();
			kubelet.backOff(Duration.ofSeconds(1));
			try {
				kubelet.processes().get(supervisorPod).destroyForcibly();
				assertThat(orphan.isAlive()).as("a server pod outlives its supervisor's process").isTrue();
				Pod second = awaitServerPod(admin, firstPod);
				assertThat(second.getMetadata().getOwnerReferences()).extracting((owner) -> owner.getUid())
					.containsExactly(created.getMetadata().getUid());
			}
			finally {
				kubelet.backOff(Duration.ofSeconds(10));
			}
			assertThat(kubelet.podDir(supervisorPod).resolve("supervisor.log")).content()
				.containsPattern("Deleted 1 pod\\(s\\) supervisor instance \\w+ \\(supervisor 'sample-supervisor'\\) left in "
						+ "namespace '" + SimulatedApiServer.NAMESPACE + "' \\(it ran in this supervisor's own pod, whose "
						+ "process it was before this one\\): " + firstPod);
			assertThat(awaitGone(admin, firstPod)).isTrue();
			assertThat(Fleets.awaitEnded(List.of(orphan), PODS_GONE)).as("its process").isEmpty();

			// an operator deletes the supervisor's pod: it stops gracefully, and deletes its server's
			admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(supervisorPod).delete();
			assertThat(kubelet.awaitNoPods(FLEET_TIMEOUT)).as("pods left").isEmpty();
			assertThat(admin.leases().inNamespace(SimulatedApiServer.NAMESPACE).list().getItems())
				.as("leases left: the dead process's went with its pods, the last one's at its stop").isEmpty();
		}
	}

	/**
	 * A supervisor run that fails with {@code outcome}; its log, once no pod of it is left. The
	 * supervisor runs in this JVM ({@link InProcessSupervisor}: the starter's own fleet run and
	 * {@code kubernetes} launcher, configured as the sample supervisor is, against the same API
	 * server and kubelet): a failure case is about the launcher's reading of its pod, which needs no
	 * supervisor JVM of its own (the fleet test and the in-cluster test run one).
	 */
	private String failedRun(CapturedOutput output, String outcome, String[] server, String... args) throws Exception {
		List<String> all = new ArrayList<>(List.of(server));
		all.addAll(List.of(args));
		// a failed fleet fails the supervisor's startup: SpringApplication.run throws, its context closed
		assertThatThrownBy(() -> inProcess(all.toArray(String[]::new)).close())
			.as("a supervisor whose fleet should fail (%s)", outcome)
			.hasStackTraceContaining("FleetStartupException");
		String log = output.getAll();
		this.fleets.abortedRoot(outcome);
		assertThat(log).contains("Startup " + outcome + " after");
		assertThat(kubelet.awaitNoPods(PODS_GONE, (pod) -> !pod.startsWith("concurrent-"))).as("pods left").isEmpty();
		// the outcome line, for people reading the test's output
		log.lines().filter((line) -> line.startsWith("The fleet did not start")).findFirst().ifPresent(System.out::println);
		return log;
	}

	/**
	 * The supervisor, run in this JVM with {@code args} ({@link InProcessSupervisor}: the starter's
	 * own fleet run and {@code kubernetes} launcher, configured as the sample supervisor is, against
	 * the same API server and kubelet): a case about the launcher's reading of its pods needs no
	 * supervisor JVM of its own (the fleet test and the in-cluster test run one).
	 */
	private ConfigurableApplicationContext inProcess(String... args) throws Exception {
		List<String> arguments = new ArrayList<>(supervisorArguments(args));
		arguments.addAll(List.of("--telemetry.supervisor.run-dir=" + this.fleets.runDir(),
				"--telemetry.supervisor.report.html=" + this.fleets.tmp().resolve("startup-report.html"),
				"--telemetry.supervisor.report.json=" + this.fleets.tmp().resolve("startup-report.json"),
				"--management.opentelemetry.tracing.export.otlp.endpoint=" + this.fleets.receiver().tracesEndpoint(),
				"--management.otlp.metrics.export.url=" + this.fleets.receiver().metricsEndpoint()));
		SpringApplication application = new SpringApplication(InProcessSupervisor.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setRegisterShutdownHook(false);
		// the supervisor's kubeconfig, as KUBECONFIG gives it to a supervisor JVM (fabric8 reads the
		// system property first); this JVM's own clients (the kubelet's, the test's) are configured by hand
		String kubeconfig = api.kubeconfig(this.fleets.tmp(), "startup-supervisor").toString();
		String before = System.setProperty("kubeconfig", kubeconfig);
		try {
			return application.run(arguments.toArray(String[]::new));
		}
		finally {
			if (before == null) {
				System.clearProperty("kubeconfig");
			}
			else {
				System.setProperty("kubeconfig", before);
			}
		}
	}

	/**
	 * Another run of the same supervisor name that still runs: its lease current, one pod of its
	 * own (a container that sleeps).
	 */
	private static Pod concurrentRun() {
		try (KubernetesClient admin = api.admin()) {
			java.time.ZonedDateTime now = java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC)
				.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
			admin.leases().inNamespace(SimulatedApiServer.NAMESPACE).resource(new LeaseBuilder().withNewMetadata()
				.withName("startup-telemetry-concurrent1")
				.endMetadata()
				.withNewSpec()
				.withHolderIdentity("concurrent1")
				.withLeaseDurationSeconds(120)
				.withRenewTime(now)
				.withAcquireTime(now)
				.endSpec()
				.build()).create();
			return admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).resource(new PodBuilder().withNewMetadata()
				.withName("concurrent-model-0")
				.addToLabels("app.kubernetes.io/managed-by", "startup-telemetry")
				.addToLabels("startuptelemetry.github.io/supervisor", "it-fleet")
				.addToLabels("startuptelemetry.github.io/instance", "concurrent1")
				.endMetadata()
				.withNewSpec()
				.withRestartPolicy("Never")
				.addNewContainer()
				.withName("server")
				.withImage(IMAGE)
				.withCommand("sleep", "300")
				.endContainer()
				.endSpec()
				.build()).create();
		}
	}

	/** The sample supervisor's application, in this JVM: the starter's auto-configuration, no web server. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class InProcessSupervisor {

	}

	/**
	 * The pods of {@code count} servers once each runs its container, by pod name: their
	 * processes, but for the pods named in {@code others} (an earlier run's).
	 */
	private static Map<String, ProcessHandle> awaitRunning(JavaProcess supervisor, int count,
			java.util.Set<String> others) throws InterruptedException {
		long deadline = System.nanoTime() + FLEET_TIMEOUT.toNanos();
		Map<String, ProcessHandle> running = new java.util.HashMap<>(kubelet.processes());
		running.keySet().removeAll(others);
		while (running.size() < count) {
			if (!supervisor.process().isAlive() || System.nanoTime() > deadline) {
				throw new AssertionError(running + " running of " + count + ":\n" + supervisor.log());
			}
			// the kubelet starts them: poll, bounded by the supervisor's exit and the deadline
			supervisor.process().waitFor(100, TimeUnit.MILLISECONDS);
			running = new java.util.HashMap<>(kubelet.processes());
			running.keySet().removeAll(others);
		}
		return running;
	}

	/** The supervisor's one server pod, once running, other than {@code not}. */
	private static Pod awaitServerPod(KubernetesClient admin, String not) throws InterruptedException {
		long deadline = System.nanoTime() + FLEET_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			for (Pod pod : admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).withLabel("startuptelemetry.github.io/server",
					"web").list().getItems()) {
				if (!pod.getMetadata().getName().equals(not) && pod.getMetadata().getDeletionTimestamp() == null
						&& kubelet.processes().containsKey(pod.getMetadata().getName())) {
					return pod;
				}
			}
			// the supervisor pod creates it: poll the API, bounded by the deadline
			TimeUnit.MILLISECONDS.sleep(200);
		}
		throw new AssertionError("no server pod (other than " + not + ") runs: " + kubelet.pods());
	}

	private static boolean awaitGone(KubernetesClient admin, String pod) throws InterruptedException {
		long deadline = System.nanoTime() + PODS_GONE.toNanos();
		while (admin.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(pod).get() != null) {
			if (System.nanoTime() > deadline) {
				return false;
			}
			// deleted gracefully by the kubelet: poll the API, bounded by the deadline
			TimeUnit.MILLISECONDS.sleep(100);
		}
		return true;
	}

	/** The name of the pod the supervisor's spawn line gave server {@code server}. */
	private static String podName(String log, String server) {
		java.util.regex.Matcher pod = java.util.regex.Pattern.compile(server + " \\(pod (\\S+),").matcher(log);
		assertThat(pod.find()).as(log).isTrue();
		return pod.group(1);
	}

	private static List<String> javaCommand() {
		return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
				"-jar");
	}

	/**
	 * The sample supervisor with the kubernetes launcher, outside the cluster (a kubeconfig for its
	 * service account), the sample server's image and service account; an argument for a property set
	 * here replaces it (a property given twice on the command line would be both values, comma-joined).
	 */
	private JavaProcess.Builder supervisor(String... args) throws Exception {
		return this.fleets.supervisor(supervisorArguments(args).toArray(String[]::new))
			.env("KUBECONFIG", api.kubeconfig(this.fleets.tmp(), "startup-supervisor").toString());
	}

	/** The arguments {@link #supervisor(String...)} gives the sample supervisor. */
	private static List<String> supervisorArguments(String... args) {
		Map<String, String> properties = new java.util.LinkedHashMap<>();
		properties.put("--telemetry.supervisor.launcher", "kubernetes");
		properties.put("--telemetry.supervisor.kubernetes.supervisor-name", "it-fleet");
		properties.put("--telemetry.supervisor.kubernetes.image", IMAGE);
		properties.put("--telemetry.supervisor.kubernetes.service-account-name", "startup-server");
		properties.put("--telemetry.supervisor.kubernetes.env.SAMPLE_MODEL_LOADER_DURATION", "200ms");
		List<String> others = new ArrayList<>();
		for (String arg : args) {
			int equals = arg.indexOf('=');
			if (equals > 0 && properties.containsKey(arg.substring(0, equals))) {
				properties.put(arg.substring(0, equals), arg.substring(equals + 1));
			}
			else {
				others.add(arg);
			}
		}
		List<String> all = new ArrayList<>();
		properties.forEach((key, value) -> all.add(key + "=" + value));
		all.addAll(others);
		return all;
	}

	/**
	 * A server that only answers ({@code python3 -m http.server}), healthy at {@code /}: each
	 * property once (twice, it would be both values, comma-joined).
	 */
	private static List<String> web(int index, String name) {
		String prefix = "--telemetry.supervisor.servers[" + index + "].";
		List<String> args = new ArrayList<>(List.of(prefix + "name=" + name, prefix + "health-url=http://127.0.0.1:{port}/"));
		List<String> command = List.of("python3", "-m", "http.server", "--bind", "127.0.0.1", "{port}");
		for (int i = 0; i < command.size(); i++) {
			args.add(prefix + "command[" + i + "]=" + command.get(i));
		}
		return args;
	}

	/** A sample server, as many replicas: the sample-server jar, run by the pod. */
	private static String[] sampleServer(int index, String name, int replicas) {
		String prefix = "--telemetry.supervisor.servers[" + index + "].";
		List<String> args = new ArrayList<>(List.of(Fleets.server(index, name, "{java}", "-XX:TieredStopAtLevel=1",
				"-jar", SampleJars.server().toString(), "--server.port={port}", "--spring.application.name={name}")));
		args.add(prefix + "replicas=" + replicas);
		return args.toArray(String[]::new);
	}

}
