package io.github.startuptelemetry.server.kubernetes;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.timeline.internal.PlatformPrelude;
import io.github.startuptelemetry.timeline.internal.PlatformStages;

/** A server's pod stages: on Kubernetes only, with telemetry on and the client there; the application's own wins. */
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
	void theApplicationsOwnPlatformWins() {
		this.runner.withPropertyValues("spring.main.cloud-platform=kubernetes")
			.withBean(PlatformPrelude.class, () -> PlatformStages::none)
			.run((context) -> assertThat(context).getBean(PlatformPrelude.class).isNotInstanceOf(OwnPodStages.class));
	}

}
