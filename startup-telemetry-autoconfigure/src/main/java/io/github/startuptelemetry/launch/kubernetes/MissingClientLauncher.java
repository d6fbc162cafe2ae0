package io.github.startuptelemetry.launch.kubernetes;

import java.io.IOException;

import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.launch.ServerLauncher;

/**
 * The {@code kubernetes} launcher where the fabric8 client is not on the class path: it is there
 * by name, so that choosing it fails the supervisor at start saying what to add, not that no
 * launcher has the name.
 */
final class MissingClientLauncher implements ServerLauncher {

	@Override
	public String name() {
		return KubernetesServerLauncher.NAME;
	}

	@Override
	public String unavailable() {
		return "it needs the fabric8 Kubernetes client on the supervisor's class path: add the dependency "
				+ "io.github.startuptelemetry:startup-telemetry-kubernetes (docs/kubernetes.md)";
	}

	@Override
	public LaunchedServer launch(LaunchRequest request) throws IOException {
		throw new IOException(unavailable());
	}

}
