package io.github.startuptelemetry.readiness;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The readiness warm-up ({@code telemetry.startup.warm-up.*}): see {@link ReadinessWarmUp}.
 * Off unless a path is set; the fleet launcher sets it for every server it spawns.
 */
@ConfigurationProperties(prefix = "telemetry.startup.warm-up", ignoreInvalidFields = true)
public class WarmUpProperties {

	/**
	 * Path (and query) that will be probed for readiness, e.g. /actuator/health/readiness.
	 * When set, the server requests it once over loopback as soon as its web server is up,
	 * and reports ready only once that request is answered (or the timeout passed), so that
	 * it answers the first probe after ready at once. Unset or empty: no warm-up. The fleet
	 * launcher sets it (env TELEMETRY_STARTUP_WARMUP_PATH) to the path of each server's
	 * health URL.
	 */
	private String path;

	/** Longest the warm-up may take, from the web server's start; startup goes on after it regardless. */
	private Duration timeout = Duration.ofSeconds(1);

	public String getPath() {
		return this.path;
	}

	public void setPath(String path) {
		this.path = path;
	}

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

}
