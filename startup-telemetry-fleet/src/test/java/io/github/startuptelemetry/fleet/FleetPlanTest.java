package io.github.startuptelemetry.fleet;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Expanding {@code telemetry.supervisor.servers} into the servers to spawn. */
class FleetPlanTest {

	@Test
	void replicasGetTheirOwnNamePortAndRankCountedPerType() {
		SupervisorProperties properties = new SupervisorProperties();
		properties.setServers(List.of(server("model", "model", 2, "--server.port={port}", "--name={name}"),
				server("resources", null, 1, "--rank={rank}/{world-size}"), server("big", "model", 1, "x")));
		AtomicInteger ports = new AtomicInteger(9000);

		List<ServerPlan> plan = FleetPlan.plan(properties, ports::incrementAndGet);

		assertThat(plan).extracting(ServerPlan::name).containsExactly("model-0", "model-1", "resources", "big");
		assertThat(plan).extracting(ServerPlan::type).containsExactly("model", "model", "resources", "model");
		assertThat(plan).extracting(ServerPlan::rank).containsExactly(0, 1, 0, 2);
		assertThat(plan).extracting(ServerPlan::worldSize).containsExactly(3, 3, 1, 3);
		assertThat(plan).extracting(ServerPlan::port).containsExactly(9001, 9002, 9003, 9004);
		assertThat(plan.get(1).command()).containsExactly("--server.port=9002", "--name=model-1");
		assertThat(plan.get(2).command()).containsExactly("--rank=0/1");
		assertThat(plan.get(0).healthUri()).isEqualTo(URI.create("http://127.0.0.1:9001/actuator/health/readiness"));
		assertThat(plan.get(0).timelineUri()).isEqualTo(URI.create("http://127.0.0.1:9001/actuator/startuptimeline"));
	}

	@Test
	void placeholdersAreFilledInEverywhereAndAnythingElseInBracesIsLeftAlone() {
		SupervisorProperties.Server server = server("svc", "t", 1, "{java}", "{\"json\": {port}}", "${HOME}");
		server.setSetup("echo {name} > {port}.txt");
		server.setWorkingDir("/srv/{name}");
		server.setEnv(Map.of("PORT", "{port}", "URL", "http://127.0.0.1:{port}/{unknown}"));
		server.setHealthUrl("http://localhost:{port}/healthz");
		server.setTimelineUrl("http://localhost:{port}/manage/timeline");
		SupervisorProperties properties = new SupervisorProperties();
		properties.setServers(List.of(server));

		ServerPlan plan = FleetPlan.plan(properties, () -> 4242).get(0);

		assertThat(plan.command().get(0)).isEqualTo(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		assertThat(plan.command().subList(1, 3)).containsExactly("{\"json\": 4242}", "${HOME}");
		assertThat(plan.setup()).isEqualTo("echo svc > 4242.txt");
		assertThat(plan.workingDir()).isEqualTo(Path.of("/srv/svc"));
		assertThat(plan.env()).containsEntry("PORT", "4242").containsEntry("URL", "http://127.0.0.1:4242/{unknown}");
		assertThat(plan.healthUri()).isEqualTo(URI.create("http://localhost:4242/healthz"));
		assertThat(plan.timelineUri()).isEqualTo(URI.create("http://localhost:4242/manage/timeline"));
	}

	@Test
	void placeholdersNextToBracesAndEachOtherAreFilledInAsTheyStand() {
		Map<String, String> values = Map.of("name", "a-0", "type", "t", "port", "1", "rank", "0", "world-size", "2",
				"java", "/j");
		assertThat(FleetPlan.expand("{{port}}", values)).isEqualTo("{1}");
		assertThat(FleetPlan.expand("{port}{port}{rank}/{world-size}", values)).isEqualTo("110/2");
		assertThat(FleetPlan.expand("}{name}{", values)).isEqualTo("}a-0{");
		assertThat(FleetPlan.expand("{port", values)).isEqualTo("{port");
		assertThat(FleetPlan.expand("{ port}{Port}{names}{}", values)).isEqualTo("{ port}{Port}{names}{}");
		assertThat(FleetPlan.expand("$1 \\ {java}", values)).isEqualTo("$1 \\ /j");
		assertThat(FleetPlan.expand("", values)).isEmpty();
		assertThat(FleetPlan.expand(null, values)).isNull();
	}

	@Test
	void aServerFindsAnotherByThePortPickedForItEvenOneDeclaredAfterIt() {
		SupervisorProperties.Server gateway = server("gateway", null, 1, "--model=http://127.0.0.1:{port:model-1}/x",
				"{port:nobody}");
		gateway.setEnv(Map.of("FIRST_MODEL", "{port:model-0}"));
		gateway.setDependsOn(Map.of("model", SupervisorProperties.DependencyCondition.READY));
		SupervisorProperties properties = new SupervisorProperties();
		properties.setServers(List.of(gateway, server("model", null, 2, "--server.port={port}")));
		AtomicInteger ports = new AtomicInteger(9000);

		List<ServerPlan> plan = FleetPlan.plan(properties, ports::incrementAndGet);

		assertThat(plan).extracting(ServerPlan::port).containsExactly(9001, 9002, 9003);
		assertThat(plan.get(0).command()).containsExactly("--model=http://127.0.0.1:9003/x", "{port:nobody}");
		assertThat(plan.get(0).env()).containsEntry("FIRST_MODEL", "9002");
		assertThat(plan.get(0).dependsOn()).singleElement()
			.satisfies((dependency) -> assertThat(dependency.servers()).containsExactly("model-0", "model-1"));
		assertThat(plan.get(1).dependsOn()).isEmpty();
		assertThat(FleetPlan.urlProblem("http://127.0.0.1:{port:config}/health")).isNull();
	}

	@Test
	void theTimelineEndpointIsFoundBesideTheHealthEndpoint() {
		assertThat(FleetPlan.timelineBeside(URI.create("http://h:1/manage/health")))
			.isEqualTo(URI.create("http://h:1/manage/startuptimeline"));
		assertThat(FleetPlan.timelineBeside(URI.create("https://h:1/actuator/health/liveness")))
			.isEqualTo(URI.create("https://h:1/actuator/startuptimeline"));
		assertThat(FleetPlan.timelineBeside(URI.create("http://h:1/healthz")))
			.isEqualTo(URI.create("http://h:1/actuator/startuptimeline"));
		assertThat(FleetPlan.timelineBeside(URI.create("http://h:1")))
			.isEqualTo(URI.create("http://h:1/actuator/startuptimeline"));
	}

	@Test
	void aServerIsToldToWarmUpThePathAndQueryItsHealthUrlProbes() {
		assertThat(plan("http://127.0.0.1:{port}/actuator/health/readiness").warmUpPath())
			.isEqualTo("/actuator/health/readiness");
		assertThat(plan("http://127.0.0.1:{port}/health?deep=true&x=%20").warmUpPath())
			.isEqualTo("/health?deep=true&x=%20");
		assertThat(plan("http://127.0.0.1:{port}").warmUpPath()).isEqualTo("/");
	}

	@Test
	void urlTemplatesAreCheckedBeforeAnyPortIsPicked() {
		assertThat(FleetPlan.urlProblem("http://127.0.0.1:{port}/actuator/health")).isNull();
		assertThat(FleetPlan.urlProblem(null)).isNull();
		assertThat(FleetPlan.urlProblem("127.0.0.1:{port}/health")).isNotNull();
		assertThat(FleetPlan.urlProblem("ftp://host/x")).isNotNull();
		assertThat(FleetPlan.urlProblem("http://bad host/")).isNotNull();
		assertThat(FleetPlan.urlProblem("/actuator/health")).isNotNull();
	}

	private static ServerPlan plan(String healthUrl) {
		SupervisorProperties.Server server = server("svc", null, 1, "x");
		server.setHealthUrl(healthUrl);
		SupervisorProperties properties = new SupervisorProperties();
		properties.setServers(List.of(server));
		return FleetPlan.plan(properties, () -> 4242).get(0);
	}

	static SupervisorProperties.Server server(String name, String type, int replicas, String... command) {
		SupervisorProperties.Server server = new SupervisorProperties.Server();
		server.setName(name);
		server.setType(type);
		server.setReplicas(replicas);
		server.setCommand(List.of(command));
		return server;
	}

}
