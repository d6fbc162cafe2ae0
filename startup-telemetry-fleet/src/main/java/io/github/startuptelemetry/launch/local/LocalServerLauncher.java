package io.github.startuptelemetry.launch.local;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

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

	/** Its own servers with one listing of this JVM's processes ({@link ServerProcess#terminate(List)}). */
	@Override
	public void terminate(List<LaunchedServer> servers) {
		List<ServerProcess> own = new ArrayList<>();
		for (LaunchedServer server : servers) {
			if (server instanceof ServerProcess process) {
				own.add(process);
			}
			else {
				server.terminate();
			}
		}
		ServerProcess.terminate(own);
	}

}
