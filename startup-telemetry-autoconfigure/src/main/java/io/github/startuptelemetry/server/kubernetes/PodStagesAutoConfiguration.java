package io.github.startuptelemetry.server.kubernetes;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnCloudPlatform;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;
import io.github.startuptelemetry.internal.timeline.PlatformPrelude;

/**
 * A server in a Kubernetes pod reports its pod's stages ahead of its own: a
 * {@link PlatformPrelude} that reads the pod once the server is ready. Only on Kubernetes (Boot's
 * {@code KUBERNETES_SERVICE_HOST} and {@code _PORT} detection; outside it the starter's import
 * filter drops this by name, so no class of it is read) and with telemetry on; the reading itself
 * needs the fabric8 client ({@code startup-telemetry-kubernetes}), without which this backs off
 * and says so at debug level. A {@link PlatformPrelude} bean of the application's own replaces it;
 * {@code telemetry.startup.kubernetes.enabled=false} turns the pod stages off.
 */
@AutoConfiguration
@ConditionalOnTelemetryEnabled
@ConditionalOnCloudPlatform(CloudPlatform.KUBERNETES)
@ConditionalOnBooleanProperty(name = "telemetry.startup.kubernetes.enabled", matchIfMissing = true)
@EnableConfigurationProperties(PodStagesProperties.class)
public final class PodStagesAutoConfiguration {

	static final String CLIENT = "io.fabric8.kubernetes.client.KubernetesClient";

	PodStagesAutoConfiguration(ResourceLoader resourceLoader) {
		if (!ClassUtils.isPresent(CLIENT, resourceLoader.getClassLoader())) {
			Log logger = LogFactory.getLog(PodStagesAutoConfiguration.class);
			if (logger.isDebugEnabled()) {
				logger.debug("Pod stages left out: the fabric8 Kubernetes client is not on the class path "
						+ "(add io.github.startuptelemetry:startup-telemetry-kubernetes to report the pod's "
						+ "scheduling and setup ahead of the JVM's stages)");
			}
		}
	}

	@Bean
	@ConditionalOnClass(name = CLIENT)
	@ConditionalOnMissingBean(PlatformPrelude.class)
	PlatformPrelude podStages(PodStagesProperties properties) {
		return new OwnPodStages(System.getenv(), properties.getTimeout());
	}

}
