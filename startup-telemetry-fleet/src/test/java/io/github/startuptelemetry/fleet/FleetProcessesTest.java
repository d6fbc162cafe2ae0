package io.github.startuptelemetry.fleet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.launch.ServerLauncher;
import io.github.startuptelemetry.supervisor.DisabledSupervisorStartup;

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

	@Test
	void stoppingAsksEachLauncherOnceForAllItsServersAndKillsWhatIsLeftAfterOneGracePeriod() {
		Recording local = new Recording("local");
		Recording slurm = new Recording("slurm");
		SupervisorProperties.Server a = server("a", 3, null);
		SupervisorProperties.Server b = server("b", 2, "slurm");
		SupervisorProperties properties = new SupervisorProperties();
		properties.setServers(List.of(a, b));
		properties.setStopTimeout(java.time.Duration.ofMillis(100));
		AtomicInteger ports = new AtomicInteger(9000);
		List<FleetServer> servers = FleetPlan.plan(properties, ports::incrementAndGet).stream().map(FleetServer::new).toList();
		servers.forEach((server) -> server.process = new Spawned(server));
		// a-1 and b-0 stop when asked; the others never do
		((Spawned) servers.get(1).process).stops.complete(null);
		((Spawned) servers.get(3).process).stops.complete(null);
		FleetProcesses processes = new FleetProcesses(properties, new DisabledSupervisorStartup(),
				new Launchers(List.of(local, slurm), properties));

		processes.stop(servers);

		assertThat(local.terminated).containsExactly(List.of("a-0", "a-1", "a-2"));
		assertThat(slurm.terminated).containsExactly(List.of("b-0", "b-1"));
		assertThat(local.killed).containsExactly(List.of("a-0", "a-2"));
		assertThat(slurm.killed).containsExactly(List.of("b-1"));
	}

	private static SupervisorProperties.Server server(String name, int replicas, String launcher) {
		SupervisorProperties.Server server = new SupervisorProperties.Server();
		server.setName(name);
		server.setReplicas(replicas);
		server.setCommand(List.of("true"));
		server.setLauncher(launcher);
		return server;
	}

	/** A launcher that records what it was asked to stop, a call a list; it starts nothing. */
	private static final class Recording implements ServerLauncher {

		final List<List<String>> terminated = new ArrayList<>();

		final List<List<String>> killed = new ArrayList<>();

		private final String name;

		Recording(String name) {
			this.name = name;
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public LaunchedServer launch(LaunchRequest request) {
			throw new UnsupportedOperationException();
		}

		@Override
		public void terminate(List<LaunchedServer> servers) {
			this.terminated.add(names(servers));
		}

		@Override
		public List<String> kill(List<LaunchedServer> servers) {
			this.killed.add(names(servers));
			servers.forEach((server) -> ((Spawned) server).stops.complete(null));
			return names(servers);
		}

		private static List<String> names(List<LaunchedServer> servers) {
			return servers.stream().map((server) -> ((Spawned) server).server().name()).toList();
		}

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

	/** Only what the line reads, how the launcher describes the server, and when it stops. */
	private record Spawned(FleetServer server, CompletableFuture<Void> stops) implements LaunchedServer {

		Spawned(FleetServer server) {
			this(server, new CompletableFuture<>());
		}

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
			return this.stops;
		}

		@Override
		public List<String> kill() {
			return List.of();
		}

	}

}
