package io.github.startuptelemetry.launch.kubernetes;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;

/**
 * What the {@code kubernetes} launcher works with: its properties and what the supervisor knows
 * of itself.
 *
 * @param properties its properties
 * @param env the supervisor's own environment
 * @param supervisorName its stable name, a label value
 * @param instance this supervisor process's id, a label value, random
 * @param stopTimeout the grace period of a pod being stopped ({@code telemetry.supervisor.stop-timeout})
 * @param callbackEnabled whether the readiness callback runs
 * @param callbackAddress the address it listens on
 * @param readyTimeout how long the fleet may take ({@code telemetry.supervisor.ready-timeout})
 * @param exitWhenReady whether the supervisor stops its servers once they are ready
 */
record KubernetesLauncherSettings(KubernetesProperties properties, Map<String, String> env, String supervisorName,
		String instance, Duration stopTimeout, boolean callbackEnabled, String callbackAddress, Duration readyTimeout,
		boolean exitWhenReady) {

	/** The settings of a fleet that stays up, with the default ready timeout. */
	KubernetesLauncherSettings(KubernetesProperties properties, Map<String, String> env, String supervisorName,
			String instance, Duration stopTimeout, boolean callbackEnabled, String callbackAddress) {
		this(properties, env, supervisorName, instance, stopTimeout, callbackEnabled, callbackAddress,
				Duration.ofMinutes(10), false);
	}

	/**
	 * Each server pod's {@code activeDeadlineSeconds}, or {@code null} for none: the property's, else
	 * for a fleet stopped once ready, what its start and stop may take and a minute more.
	 */
	Long activeDeadlineSeconds() {
		Duration deadline = this.properties.getActiveDeadline();
		if (deadline == null && this.exitWhenReady) {
			deadline = this.readyTimeout.plus(this.stopTimeout).plusMinutes(1);
		}
		return (deadline == null || deadline.isZero()) ? null : Math.max(1, (deadline.toMillis() + 999) / 1000);
	}

	/** A new instance id: ten lower-case letters and digits. */
	static String newInstance() {
		String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
		SecureRandom random = new SecureRandom();
		StringBuilder id = new StringBuilder(10);
		for (int i = 0; i < 10; i++) {
			id.append(alphabet.charAt(random.nextInt(alphabet.length())));
		}
		return id.toString();
	}

}
