package io.github.startuptelemetry.server.kubernetes;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.internal.timeline.PlatformPrelude;
import io.github.startuptelemetry.internal.timeline.PlatformStages;

/** A server's pod stages: on Kubernetes only, with telemetry on and the client there; the application's own wins. */
@ExtendWith(OutputCaptureExtension.class)
class PodStagesAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(PodStagesAutoConfiguration.class));

	@Test
	void onKubernetesAServerReadsItsOwnPod() {
		this.runner.withPropertyValues("spring.main.cloud-platform=kubernetes")
			.run((context) -> assertThat(context).getBean(PlatformPrelude.class).isInstanceOf(OwnPodStages.class));
	}

	@Test
	void elsewhereOrWithTelemetryOffThereIsNone() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(PlatformPrelude.class));
		this.runner.withPropertyValues("spring.main.cloud-platform=kubernetes", "telemetry.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(PlatformPrelude.class));
		this.runner.withPropertyValues("spring.main.cloud-platform=kubernetes", "telemetry.startup.kubernetes.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(PlatformPrelude.class));
	}

	@Test
	void withoutTheClientItBacksOffAndSaysSoAtDebugLevel(CapturedOutput output) {
		Logger logger = (Logger) LoggerFactory.getLogger(PodStagesAutoConfiguration.class);
		Level level = logger.getLevel();
		logger.setLevel(Level.DEBUG);
		try {
			this.runner.withClassLoader(new FilteredClassLoader(KubernetesClient.class))
				.withPropertyValues("spring.main.cloud-platform=kubernetes")
				.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(PlatformPrelude.class));
		}
		finally {
			logger.setLevel(level);
		}
		assertThat(output).contains("Pod stages left out: the fabric8 Kubernetes client is not on the class path",
				"startup-telemetry-kubernetes");
	}

	@Test
	void theApplicationsOwnPlatformWins() {
		this.runner.withPropertyValues("spring.main.cloud-platform=kubernetes")
			.withBean(PlatformPrelude.class, () -> PlatformStages::none)
			.run((context) -> assertThat(context).getBean(PlatformPrelude.class).isNotInstanceOf(OwnPodStages.class));
	}

}
