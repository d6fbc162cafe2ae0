package io.github.startuptelemetry.launch.local;

import java.io.IOException;

import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.launch.ServerLauncher;

/**
 * The {@code local} launcher, the default: each server is a process of this host, spawned
 * through the launch shell, probed on loopback.
 */
final class LocalServerLauncher implements ServerLauncher {

	static final String NAME = "local";

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public LaunchedServer launch(LaunchRequest request) throws IOException {
		return ServerProcess.start(request);
	}

}
