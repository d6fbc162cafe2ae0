package io.github.startuptelemetry.fleet;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.launch.LaunchedServer;

/** The one line that says the fleet is spawned. */
class FleetProcessesTest {

	@Test
	void aSmallFleetIsNamedServerByServer() {
		List<FleetServer> servers = fleet(3);
		servers.forEach((server) -> server.process = new Spawned(server));

		assertThat(FleetProcesses.spawnedLine(servers, 42))
			.isEqualTo("Spawned 3 server(s) in 42 ms: s-0 (pid 1000, port 9001), s-1 (pid 1001, port 9002), "
					+ "s-2 (pid 1002, port 9003)");
	}

	@Test
	void aBigFleetNamesItsFirstServersOnlyAndOneNotSpawnedIsCounted() {
		List<FleetServer> servers = fleet(FleetProcesses.LISTED + 3);
		servers.stream().skip(1).forEach((server) -> server.process = new Spawned(server));

		String line = FleetProcesses.spawnedLine(servers, 7);

		assertThat(line).startsWith("Spawned 12 of 13 server(s) in 7 ms: s-1 (pid 1001, port 9002), ")
			.contains("s-10 (pid 1010, port 9011)")
			.doesNotContain("s-0 ", "s-11 ")
			.endsWith(" and 2 more");
	}

	private static List<FleetServer> fleet(int size) {
		SupervisorProperties.Server server = new SupervisorProperties.Server();
		server.setName("s");
		server.setReplicas(size);
		server.setCommand(List.of("true"));
		SupervisorProperties properties = new SupervisorProperties();
		properties.setServers(List.of(server));
		AtomicInteger ports = new AtomicInteger(9000);
		return FleetPlan.plan(properties, ports::incrementAndGet).stream().map(FleetServer::new).toList();
	}

	/** Only what the line reads: how the launcher describes the server. */
	private record Spawned(FleetServer server) implements LaunchedServer {

		@Override
		public String describe() {
			return "pid " + (1000 + this.server.plan.rank());
		}

		@Override
		public CompletableFuture<String> host() {
			return CompletableFuture.completedFuture("127.0.0.1");
		}

		@Override
		public CompletableFuture<ServerExit> onExit() {
			return new CompletableFuture<>();
		}

		@Override
		public Path log() {
			return Path.of(this.server.name() + ".log");
		}

		@Override
		public void terminate() {
		}

		@Override
		public CompletableFuture<Void> stopped() {
			return CompletableFuture.completedFuture(null);
		}

		@Override
		public List<String> kill() {
			return List.of();
		}

	}

}
