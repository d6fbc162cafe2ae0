package io.github.startuptelemetry.supervisor;

import java.io.IOException;

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
