package io.github.startuptelemetry.server.kubernetes;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;

/** A server's pod stages, in a Kubernetes pod ({@code telemetry.startup.kubernetes.*}). */
@ConfigurationProperties(TelemetryProperties.STARTUP + ".kubernetes")
public class PodStagesProperties {

	/**
	 * Whether a server in a Kubernetes pod reports its pod's stages (pod_scheduling, pod_setup with
	 * the image_pull inside it) ahead of its JVM's, reading its own pod (and its events) once it is
	 * ready. Needs startup-telemetry-kubernetes, and get on pods (list on events) for its service account.
	 */
	private boolean enabled = true;

	/** How long connecting to the API server, and each of its two requests (the pod, its events), may take. */
	private Duration timeout = Duration.ofSeconds(5);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

}
