package io.github.startuptelemetry.it.kubernetes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.kubernetes.SimulatedApiServer;
import io.github.startuptelemetry.it.support.kubernetes.TestKubelet;

import static io.github.startuptelemetry.it.support.Fleets.TIMEOUT;
import static io.github.startuptelemetry.it.support.Fleets.byServer;
import static io.github.startuptelemetry.it.support.Fleets.count;
import static io.github.startuptelemetry.it.support.Spans.assertContiguous;
import static io.github.startuptelemetry.it.support.Spans.only;
import static io.github.startuptelemetry.it.support.Spans.stages;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code kubernetes} launcher against the simulated control plane ({@link SimulatedApiServer}:
 * fabric8's mock API server with the docs' RBAC; {@link TestKubelet}: each pod a real local
 * process): the sample supervisor, outside the cluster with a kubeconfig as an operator runs it,
 * starts real sample-server JVMs as pods.
 */
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

	@AfterAll
	static void shutDown() {
		if (kubelet != null) {
			kubelet.close();
		}
		if (api != null) {
			api.close();
		}
	}

	@Test
	void theSampleFleetAsPodsIsOneTraceWithThePodStagesAheadOfTheJvmStagesOnEveryServer() throws Exception {
		try (JavaProcess supervisor = supervisor("--telemetry.supervisor.exit-when-ready=true")
			.args(sampleServer(0, "model", 2))
			.args(sampleServer(1, "resources", 1))
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(FLEET_TIMEOUT)).as(supervisor.log()).isZero();
			List<ReceivedSpan> spans = this.fleets.receiver().awaitSpans((all) -> count(all, "gym.startup") == 1
					&& count(all, "gym.server.startup.application_ready") == 3, FLEET_TIMEOUT);
			ReceivedSpan root = only(spans, "gym.startup");
			assertThat(root.attribute("nemo.gym.startup.outcome")).isEqualTo("ready");
			Map<String, ReceivedSpan> steps = byServer(spans, "gym.startup.server");
			Map<String, ReceivedSpan> servers = byServer(spans, "gym.server.startup");
			assertThat(steps).containsOnlyKeys("model-0", "model-1", "resources");
			for (String name : steps.keySet()) {
				ReceivedSpan step = steps.get(name);
				ReceivedSpan server = servers.get(name);
				assertThat(server.parentSpanId()).as(name).isEqualTo(step.spanId());
				assertThat(step.attribute("k8s.pod.name")).startsWith(name + "-");
				assertThat(step.attribute("k8s.namespace.name")).isEqualTo(SimulatedApiServer.NAMESPACE);
				assertThat(step.attribute("k8s.node.name")).isEqualTo(TestKubelet.NODE);
				assertThat(step.attribute("startup.k8s.pod_setup_ms")).isNotNull();
				List<ReceivedSpan> serverStages = stages(spans, server);
				assertContiguous(serverStages, server);
				assertThat(serverStages).extracting((s) -> s.attribute("nemo.gym.startup.stage"))
					.startsWith("pod_scheduling", "pod_setup", "interpreter_start", "main_start");
				assertThat(server.attribute("k8s.pod.name")).isEqualTo(step.attribute("k8s.pod.name"));
				assertThat(server.resourceAttribute("k8s.pod.name")).isEqualTo(step.attribute("k8s.pod.name"));
			}
			System.out.println(supervisor.log());
			assertThat(kubelet.awaitNoPods(PODS_GONE)).as("pods left").isEmpty();
		}
	}

	private JavaProcess.Builder supervisor(String... args) throws Exception {
		return this.fleets.supervisor(args)
			.env("KUBECONFIG", api.kubeconfig(this.fleets.tmp(), "startup-supervisor").toString())
			.args("--telemetry.supervisor.launcher=kubernetes",
					"--telemetry.supervisor.kubernetes.supervisor-name=it-fleet",
					"--telemetry.supervisor.kubernetes.image=" + IMAGE,
					"--telemetry.supervisor.kubernetes.service-account-name=startup-server",
					"--telemetry.supervisor.kubernetes.env.SAMPLE_MODEL_LOADER_DURATION=200ms");
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
