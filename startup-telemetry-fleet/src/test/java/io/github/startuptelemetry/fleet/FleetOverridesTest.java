package io.github.startuptelemetry.fleet;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static io.github.startuptelemetry.fleet.FleetPropertySources.assertFailure;
import static io.github.startuptelemetry.fleet.FleetPropertySources.run;
import static io.github.startuptelemetry.fleet.FleetPropertySources.yaml;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An operator changes one field of one declared server, or adds a server, from the command line
 * without restating the fleet: the fleet as an application's YAML declares it (a property source
 * of its own, last) and the operator's arguments (a command-line source, first), as Boot
 * orders them.
 */
class FleetOverridesTest {

	private static final Map<String, Object> FLEET_YAML = yaml("telemetry.supervisor.fleet.model.type", "model",
			"telemetry.supervisor.fleet.model.replicas", "2", "telemetry.supervisor.fleet.model.command[0]", "{java}",
			"telemetry.supervisor.fleet.model.command[1]", "-jar", "telemetry.supervisor.fleet.model.command[2]",
			"model.jar", "telemetry.supervisor.fleet.resources.command[0]", "resources");

	private static final Map<String, Object> SERVERS_YAML = yaml("telemetry.supervisor.servers[0].name", "model",
			"telemetry.supervisor.servers[0].replicas", "2", "telemetry.supervisor.servers[0].command[0]", "model",
			"telemetry.supervisor.servers[1].name", "resources", "telemetry.supervisor.servers[1].command[0]",
			"resources");

	@Test
	void oneFieldOfOneServerIsChangedAndTheRestOfTheFleetKept() {
		run(FLEET_YAML, "--telemetry.supervisor.fleet.model.replicas=1").run((context) -> {
			List<SupervisorProperties.Server> servers = context.getBean(SupervisorProperties.class).fleetServers();
			assertThat(servers).extracting(SupervisorProperties.Server::getName).containsExactly("model", "resources");
			assertThat(servers.get(0).getReplicas()).isEqualTo(1);
			assertThat(servers.get(0).getType()).isEqualTo("model");
			assertThat(servers.get(0).getCommand()).containsExactly("{java}", "-jar", "model.jar");
			assertThat(servers.get(1).getCommand()).containsExactly("resources");
		});
	}

	@Test
	void aServerIsAddedTheSameWay() {
		run(FLEET_YAML, "--telemetry.supervisor.fleet.extra.command=python3,-m,http.server,{port}").run((context) -> {
			List<SupervisorProperties.Server> servers = context.getBean(SupervisorProperties.class).fleetServers();
			assertThat(servers).extracting(SupervisorProperties.Server::getName)
				.containsExactlyInAnyOrder("model", "resources", "extra");
			assertThat(server(servers, "extra").getCommand()).containsExactly("python3", "-m", "http.server", "{port}");
			assertThat(server(servers, "model").getReplicas()).isEqualTo(2);
		});
	}

	@Test
	void aFleetDeclaredOnTheCommandLineAloneRuns() {
		run(Map.of(), "--telemetry.supervisor.fleet.a.command=x")
			.run((context) -> assertThat(context).hasSingleBean(FleetLauncher.class));
	}

	@Test
	void anAddedServerWithoutCommandFailsNamingThePropertyToSet() {
		assertFailure(run(FLEET_YAML, "--telemetry.supervisor.fleet.extra.replicas=2"), "fleet[extra].command",
				"telemetry.supervisor.fleet.extra is not a declared server, so it is a new one and needs "
						+ "telemetry.supervisor.fleet.extra.command");
	}

	@Test
	void oneFieldOfAListedServerFailsNamingThatPropertyAndTheWayToDoIt() {
		assertFailure(run(SERVERS_YAML, "--telemetry.supervisor.servers[0].replicas=1"), "servers[0].replicas",
				"setting telemetry.supervisor.servers[0].replicas replaced the servers declared elsewhere",
				"set telemetry.supervisor.fleet.<name>.replicas");
	}

	@Test
	void aFleetOverrideOfAListedServerFailsSayingTheListCannotBeChangedByField() {
		assertFailure(run(SERVERS_YAML, "--telemetry.supervisor.fleet.model.replicas=1"), "fleet[model]",
				"'model' is declared in telemetry.supervisor.servers[0]",
				"declare the fleet under telemetry.supervisor.fleet.<name> instead");
	}

	@Test
	void aNameTakenInBothFailsNamingTheSecond() {
		assertFailure(run(FLEET_YAML, "--telemetry.supervisor.servers[0].name=model-1",
				"--telemetry.supervisor.servers[0].command=x"), "fleet[model]",
				"server name 'model-1' is already taken by telemetry.supervisor.servers[0]");
	}

	@Test
	void theListAloneWorksAsDocumented() {
		run(SERVERS_YAML).run((context) -> assertThat(context.getBean(SupervisorProperties.class).fleetServers())
			.extracting(SupervisorProperties.Server::getName)
			.containsExactly("model", "resources"));
	}

	private static SupervisorProperties.Server server(List<SupervisorProperties.Server> servers, String name) {
		return servers.stream().filter((server) -> server.getName().equals(name)).findFirst().orElseThrow();
	}

}
