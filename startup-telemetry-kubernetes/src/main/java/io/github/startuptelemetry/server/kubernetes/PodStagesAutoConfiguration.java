package io.github.startuptelemetry.server.kubernetes;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnCloudPlatform;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;
import io.github.startuptelemetry.timeline.internal.PlatformPrelude;

/**
 * A server in a Kubernetes pod reports its pod's stages ahead of its own: a
 * {@link PlatformPrelude} that reads the pod once the server is ready. Only on Kubernetes and with
 * telemetry on; a {@link PlatformPrelude} bean of the application's own replaces it.
 */
@AutoConfiguration
@ConditionalOnTelemetryEnabled
@ConditionalOnCloudPlatform(CloudPlatform.KUBERNETES)
@ConditionalOnBooleanProperty(name = "telemetry.startup.kubernetes.enabled", matchIfMissing = true)
@EnableConfigurationProperties(PodStagesProperties.class)
public final class PodStagesAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	PlatformPrelude podStages(PodStagesProperties properties) {
		return new OwnPodStages(System.getenv(), properties.getTimeout());
	}

}
