package io.github.startuptelemetry.launch.kubernetes;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The one log category of the {@code kubernetes} launcher,
 * {@code io.github.startuptelemetry.launch.kubernetes.KubernetesServerLauncher}, whichever of its
 * classes writes the line: what a user turns up or down.
 */
final class KubernetesLauncherLog {

	static final String CATEGORY = "io.github.startuptelemetry.launch.kubernetes.KubernetesServerLauncher";

	private KubernetesLauncherLog() {
	}

	static Log get() {
		return LogFactory.getLog(CATEGORY);
	}

}
