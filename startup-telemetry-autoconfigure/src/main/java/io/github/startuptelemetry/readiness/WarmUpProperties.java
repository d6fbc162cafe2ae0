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

	/**
	 * Longest the warm-up may hold the startup up, from the web server's start; startup goes on
	 * after it regardless. A cold first request took 0.3-0.6 s on a 2-core box, over 1 s under
	 * load; the time is not lost, the first probe would have waited for it just the same.
	 */
	private Duration timeout = Duration.ofSeconds(2);

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
