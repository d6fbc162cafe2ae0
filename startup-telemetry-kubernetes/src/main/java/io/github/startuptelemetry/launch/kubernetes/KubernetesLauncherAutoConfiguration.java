package io.github.startuptelemetry.launch.kubernetes;

import java.time.Duration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.launch.ConditionalOnFleet;

/**
 * The {@code kubernetes} launcher, for a fleet whose servers run as pods: on a declared fleet only,
 * like every launcher, and only with the fleet module's launcher SPI, so that a server that adds
 * this module for its pod stages reads no class of it.
 */
@AutoConfiguration
@ConditionalOnClass(name = KubernetesLauncherAutoConfiguration.LAUNCHER_SPI)
@ConditionalOnFleet
@EnableConfigurationProperties
public final class KubernetesLauncherAutoConfiguration {

	/** The launcher SPI, from {@code startup-telemetry-fleet}. */
	static final String LAUNCHER_SPI = "io.github.startuptelemetry.launch.ServerLauncher";

	/** Bound to {@code telemetry.supervisor.kubernetes.*}, and checked then by its validator. */
	@Bean
	KubernetesProperties kubernetesProperties() {
		return new KubernetesProperties().validatedBy(new KubernetesPropertiesValidator());
	}

	@Bean
	KubernetesServerLauncher kubernetesServerLauncher(KubernetesProperties properties, Environment environment) {
		Binder binder = Binder.get(environment);
		String supervisorName = (properties.getSupervisorName() != null) ? properties.getSupervisorName()
				: PodFactory.labelValue(environment.getProperty("spring.application.name", "startup-telemetry"));
		return new KubernetesServerLauncher(new KubernetesLauncherSettings(properties, System.getenv(),
				supervisorName, KubernetesLauncherSettings.newInstance(),
				binder.bind(TelemetryProperties.SUPERVISOR + ".stop-timeout", Duration.class)
					.orElse(Duration.ofSeconds(10)),
				binder.bind(TelemetryProperties.SUPERVISOR + ".callback.enabled", Boolean.class).orElse(true),
				binder.bind(TelemetryProperties.SUPERVISOR + ".callback.address", String.class)
					.orElse("127.0.0.1"),
				binder.bind(TelemetryProperties.SUPERVISOR + ".ready-timeout", Duration.class)
					.orElse(Duration.ofMinutes(10)),
				binder.bind(TelemetryProperties.SUPERVISOR + ".exit-when-ready", Boolean.class).orElse(false)));
	}

}
