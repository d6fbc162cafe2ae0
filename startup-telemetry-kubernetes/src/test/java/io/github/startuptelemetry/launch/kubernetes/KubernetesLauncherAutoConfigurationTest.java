package io.github.startuptelemetry.launch.kubernetes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.launch.ServerLauncher;

/** The {@code kubernetes} launcher's auto-configuration: on a fleet, with or without the client, its settings checked at bind time. */
class KubernetesLauncherAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubernetesLauncherAutoConfiguration.class))
		.withPropertyValues("telemetry.supervisor.servers[0].name=model",
				"telemetry.supervisor.servers[0].command[0]=java");

	@TempDir
	Path tmp;

	@Test
	void onAFleetTheLauncherIsThereWithTheSupervisorsSettings() {
		this.runner
			.withPropertyValues("spring.application.name=Fleet Supervisor", "telemetry.supervisor.stop-timeout=3s",
					"telemetry.supervisor.callback.address=0.0.0.0", "telemetry.supervisor.kubernetes.image=model:1")
			.run((context) -> {
				KubernetesServerLauncher launcher = context.getBean(KubernetesServerLauncher.class);
				assertThat(launcher.name()).isEqualTo("kubernetes");
				KubernetesLauncherSettings settings = launcher.settings();
				assertThat(settings.supervisorName()).isEqualTo("Fleet-Supervisor");
				assertThat(settings.instance()).matches("[a-z0-9]{10}");
				assertThat(settings.stopTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(settings.callbackEnabled()).isTrue();
				assertThat(settings.callbackAddress()).isEqualTo("0.0.0.0");
				assertThat(settings.properties().getImage()).isEqualTo("model:1");
			});
	}

	@Test
	void withoutAFleetThereIsNoLauncher() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubernetesLauncherAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ServerLauncher.class));
	}

	@Test
	void withoutTheFleetModuleItBacksOff() {
		// a server that adds this module for its pod stages has no launcher SPI
		this.runner.withClassLoader(new FilteredClassLoader(ServerLauncher.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(KubernetesServerLauncher.class));
	}

	@Test
	void aTemplateThatIsNoPodFailsTheSupervisorNamingTheProperty() {
		this.runner.withPropertyValues("telemetry.supervisor.kubernetes.pod-template=kind: Deployment")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("telemetry.supervisor.kubernetes")
				.hasMessageContaining("podTemplate")
				.hasMessageContaining("is a Deployment: it must be a Pod"));
		this.runner.withPropertyValues("telemetry.supervisor.kubernetes.servers.model.pod-template=spec: [")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("servers[model].podTemplate")
				.hasMessageContaining("is not a pod manifest in YAML"));
	}

	@Test
	void whatKubernetesWouldRefuseForEveryPodFailsAtStart() {
		this.runner.withPropertyValues("telemetry.supervisor.kubernetes.resources.requests.cpu=lots",
				"telemetry.supervisor.kubernetes.image-pull-policy=Sometimes",
				"telemetry.supervisor.kubernetes.labels[startuptelemetry.github.io/server]=x",
				"telemetry.supervisor.kubernetes.container-name=Server_1",
				"telemetry.supervisor.kubernetes.callback-host=http://supervisor:8080")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("is not a Kubernetes quantity")
				.hasMessageContaining("must be Always, IfNotPresent or Never")
				.hasMessageContaining("is the launcher's own label")
				.hasMessageContaining("must be a container name")
				.hasMessageContaining("must be a host name or address"));
	}

	@Test
	void withoutAClusterOrWithACallbackPodsCannotReachItIsUnavailable() throws Exception {
		KubernetesProperties properties = new KubernetesProperties();
		String kubeconfig = System.getProperty("kubeconfig");
		try {
			System.setProperty("kubeconfig", this.tmp.resolve("none").toString());
			assertThat(launcher(properties, Map.of(), "127.0.0.1").unavailable()).contains("no cluster is configured");
			// a cluster that cannot be reached fails the supervisor at start, with what the client says
			Path file = Files.writeString(this.tmp.resolve("config"), """
					apiVersion: v1
					kind: Config
					clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
					users: [{name: u, user: {token: t}}]
					contexts: [{name: x, context: {cluster: c, user: u, namespace: fleet}}]
					current-context: x
					""");
			System.setProperty("kubeconfig", file.toString());
			properties.setApiTimeout(Duration.ofSeconds(2));
			assertThat(launcher(properties, Map.of(), "127.0.0.1").unavailable())
				.startsWith("the Kubernetes API: ");
			Path token = Files.writeString(this.tmp.resolve("token"), "t");
			Path namespace = Files.writeString(this.tmp.resolve("namespace"), "fleet");
			Map<String, String> pod = Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1",
					"KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN", token.toString(), "KUBENAMESPACE", namespace.toString(),
					"HOSTNAME", "supervisor-0");
			assertThat(launcher(properties, pod, "127.0.0.1").unavailable())
				.contains("telemetry.supervisor.callback.address=127.0.0.1 (loopback)", "0.0.0.0");
			assertThat(launcher(properties, pod, "0.0.0.0").unavailable()).startsWith("the Kubernetes API: ");
		}
		finally {
			if (kubeconfig != null) {
				System.setProperty("kubeconfig", kubeconfig);
			}
			else {
				System.clearProperty("kubeconfig");
			}
		}
	}

	private static KubernetesServerLauncher launcher(KubernetesProperties properties, Map<String, String> env,
			String callbackAddress) {
		return new KubernetesServerLauncher(new KubernetesLauncherSettings(properties, env, "s", "abcdefghij",
				Duration.ofSeconds(1), true, callbackAddress));
	}

}
