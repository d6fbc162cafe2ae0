package io.github.startuptelemetry.launch.kubernetes;

import java.time.Duration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.launch.ConditionalOnFleet;
import io.github.startuptelemetry.launch.ServerLauncher;

/**
 * The {@code kubernetes} launcher, for a fleet whose servers run as pods. On a declared fleet
 * only, like every launcher (the starter's import filter drops it by name without one). With the
 * fabric8 client ({@code startup-telemetry-kubernetes}) it is the real one; without it, a
 * launcher of the same name that fails the supervisor, if the fleet chooses it, saying what to add.
 */
@AutoConfiguration
@ConditionalOnFleet
@EnableConfigurationProperties(KubernetesProperties.class)
public final class KubernetesLauncherAutoConfiguration {

	static final String CLIENT = "io.fabric8.kubernetes.client.KubernetesClient";

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = CLIENT)
	static class WithClient {

		@Bean
		KubernetesServerLauncher kubernetesServerLauncher(KubernetesProperties properties, Environment environment) {
			Binder binder = Binder.get(environment);
			String supervisorName = (properties.getSupervisorName() != null) ? properties.getSupervisorName()
					: PodFactory.labelValue(environment.getProperty("spring.application.name", "startup-telemetry"));
			return new KubernetesServerLauncher(new KubernetesServerLauncher.Settings(properties, System.getenv(),
					supervisorName, KubernetesServerLauncher.Settings.newInstance(),
					binder.bind(TelemetryProperties.SUPERVISOR + ".stop-timeout", Duration.class)
						.orElse(Duration.ofSeconds(10)),
					binder.bind(TelemetryProperties.SUPERVISOR + ".callback.enabled", Boolean.class).orElse(true),
					binder.bind(TelemetryProperties.SUPERVISOR + ".callback.address", String.class)
						.orElse("127.0.0.1")));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass(CLIENT)
	static class WithoutClient {

		@Bean
		ServerLauncher kubernetesServerLauncher() {
			return new MissingClientLauncher();
		}

	}

}
