package io.github.startuptelemetry.fleet;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import io.github.startuptelemetry.fleet.SupervisorProperties.DependencyCondition;

import static io.github.startuptelemetry.fleet.FleetPropertySources.assertFailure;
import static io.github.startuptelemetry.fleet.FleetPropertySources.run;
import static io.github.startuptelemetry.fleet.FleetPropertySources.yaml;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code depends-on} as users set it: a map of server name to condition, or a list of names each
 * to be ready, from YAML, the command line and the environment, merged across them (an operator
 * adds or changes one edge of a fleet declared in YAML); and every rule that fails the supervisor at bind time, naming the property
 * the user set.
 */
class DependsOnBindingTest {

	/** The sample's second fleet, as its YAML file binds. */
	private static final Map<String, Object> FLEET_YAML = yaml("telemetry.supervisor.fleet.download.one-shot", "true",
			"telemetry.supervisor.fleet.download.command[0]", "download",
			"telemetry.supervisor.fleet.config.command[0]", "config",
			"telemetry.supervisor.fleet.model.replicas", "2",
			"telemetry.supervisor.fleet.model.depends-on.download", "completed",
			"telemetry.supervisor.fleet.model.depends-on.config", "ready",
			"telemetry.supervisor.fleet.model.command[0]", "model",
			"telemetry.supervisor.fleet.model.command[1]", "--config=http://127.0.0.1:{port:config}/",
			"telemetry.supervisor.fleet.gateway.depends-on.model", "ready",
			"telemetry.supervisor.fleet.gateway.command[0]", "gateway",
			"telemetry.supervisor.fleet.gateway.command[1]", "--model={port:model-0}");

	@Test
	void aFleetDeclaredInYamlBindsItsDependenciesInOrder() {
		run(FLEET_YAML).run((context) -> {
			SupervisorProperties properties = context.getBean(SupervisorProperties.class);
			assertThat(server(properties, "model").getDependsOn()).containsExactly(
					Map.entry("download", DependencyCondition.COMPLETED), Map.entry("config", DependencyCondition.READY));
			assertThat(server(properties, "download").isOneShot()).isTrue();
			List<ServerPlan> plan = FleetPlan.plan(properties, new AtomicInteger(9000)::incrementAndGet);
			ServerPlan gateway = plan.stream().filter((s) -> s.name().equals("gateway")).findFirst().orElseThrow();
			assertThat(gateway.dependsOn()).singleElement().satisfies((dependency) -> {
				assertThat(dependency.servers()).containsExactly("model-0", "model-1");
				assertThat(dependency).hasToString("model:ready");
			});
			ServerPlan model0 = plan.stream().filter((s) -> s.name().equals("model-0")).findFirst().orElseThrow();
			assertThat(gateway.command()).containsExactly("gateway", "--model=" + model0.port());
		});
	}

	@Test
	void anOperatorChangesOneEdgeOrAddsOneFromTheCommandLineAndTheRestIsKept() {
		run(FLEET_YAML, "--telemetry.supervisor.fleet.model.depends-on.config=started",
				"--telemetry.supervisor.fleet.gateway.depends-on.config=ready").run((context) -> {
					SupervisorProperties properties = context.getBean(SupervisorProperties.class);
					assertThat(server(properties, "model").getDependsOn()).containsEntry("config",
							DependencyCondition.STARTED)
						.containsEntry("download", DependencyCondition.COMPLETED);
					assertThat(server(properties, "gateway").getDependsOn()).containsOnlyKeys("model", "config");
					assertThat(server(properties, "model").getReplicas()).isEqualTo(2);
				});
	}

	@Test
	void theEnvironmentSetsAnEdgeTheSameWay() {
		FleetPropertySources.RUNNER.withInitializer((context) -> {
			context.getEnvironment().getPropertySources()
				.addLast(new MapPropertySource("Config resource 'application.yaml'", FLEET_YAML));
			context.getEnvironment().getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						Map.of("TELEMETRY_SUPERVISOR_FLEET_GATEWAY_DEPENDSON_CONFIG", "started")));
		}).run((context) -> assertThat(server(context.getBean(SupervisorProperties.class), "gateway").getDependsOn())
			.containsEntry("config", DependencyCondition.STARTED)
			.containsEntry("model", DependencyCondition.READY));
	}

	@Test
	void anEmptyConditionIsReadyNotALostDependency() {
		run(FLEET_YAML, "--telemetry.supervisor.fleet.gateway.depends-on.config=")
			.run((context) -> assertThat(server(context.getBean(SupervisorProperties.class), "gateway").getDependsOn())
				.containsEntry("config", DependencyCondition.READY));
	}

	@Test
	void aListOfNamesAsDockerComposeUsersWriteItIsEachToBeReady() {
		Map<String, Object> yaml = new LinkedHashMap<>(FLEET_YAML);
		yaml.remove("telemetry.supervisor.fleet.gateway.depends-on.model");
		yaml.put("telemetry.supervisor.fleet.gateway.depends-on[0]", "config");
		yaml.put("telemetry.supervisor.fleet.gateway.depends-on[1]", "model");
		run(yaml).run((context) -> {
			SupervisorProperties properties = context.getBean(SupervisorProperties.class);
			assertThat(server(properties, "gateway").getDependsOn()).containsExactly(
					Map.entry("config", DependencyCondition.READY), Map.entry("model", DependencyCondition.READY));
			ServerPlan gateway = FleetPlan.plan(properties, new AtomicInteger(9000)::incrementAndGet)
				.stream()
				.filter((s) -> s.name().equals("gateway"))
				.findFirst()
				.orElseThrow();
			assertThat(gateway.dependsOn()).extracting(Dependency::toString).containsExactly("config:ready", "model:ready");
			assertThat(gateway.dependsOn().get(1).servers()).containsExactly("model-0", "model-1");
		});
	}

	@Test
	void aListedNameTakesTheConditionAMapEntryGivesItAndTheListOfServersWorksToo() {
		Map<String, Object> yaml = new LinkedHashMap<>(FLEET_YAML);
		yaml.remove("telemetry.supervisor.fleet.gateway.depends-on.model");
		yaml.put("telemetry.supervisor.fleet.gateway.depends-on[0]", "config");
		yaml.put("telemetry.supervisor.fleet.gateway.depends-on[1]", "model");
		run(yaml, "--telemetry.supervisor.fleet.gateway.depends-on.config=started").run((context) -> assertThat(
				server(context.getBean(SupervisorProperties.class), "gateway").getDependsOn())
			.containsOnly(Map.entry("config", DependencyCondition.STARTED), Map.entry("model", DependencyCondition.READY)));
		run(yaml("telemetry.supervisor.servers[0].name", "a", "telemetry.supervisor.servers[0].command[0]", "a",
				"telemetry.supervisor.servers[1].name", "b", "telemetry.supervisor.servers[1].command[0]", "b",
				"telemetry.supervisor.servers[1].depends-on[0]", "a"))
			.run((context) -> assertThat(context.getBean(SupervisorProperties.class).getServers().get(1).getDependsOn())
				.containsExactly(Map.entry("a", DependencyCondition.READY)));
	}

	@Test
	void theEnvironmentAndTheCommandLineListNamesTheirOwnWay() {
		Map<String, Object> yaml = new LinkedHashMap<>(FLEET_YAML);
		yaml.remove("telemetry.supervisor.fleet.gateway.depends-on.model");
		FleetPropertySources.RUNNER.withInitializer((context) -> {
			context.getEnvironment().getPropertySources()
				.addLast(new MapPropertySource("Config resource 'application.yaml'", yaml));
			context.getEnvironment().getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						Map.of("TELEMETRY_SUPERVISOR_FLEET_GATEWAY_DEPENDSON_0", "model")));
		}).run((context) -> assertThat(server(context.getBean(SupervisorProperties.class), "gateway").getDependsOn())
			.containsExactly(Map.entry("model", DependencyCondition.READY)));
		run(yaml, "--telemetry.supervisor.fleet.gateway.depends-on=config, model")
			.run((context) -> assertThat(server(context.getBean(SupervisorProperties.class), "gateway").getDependsOn())
				.containsExactly(Map.entry("config", DependencyCondition.READY), Map.entry("model", DependencyCondition.READY)));
	}

	@Test
	void aListedNameIsCheckedLikeAnyOtherAndAJobSaysHowToWaitForItsCompletion() {
		Map<String, Object> yaml = new LinkedHashMap<>(FLEET_YAML);
		yaml.put("telemetry.supervisor.fleet.gateway.depends-on[0]", "download");
		assertFailure(run(yaml), "fleet[gateway].depends-on[download]",
				"'download' is a one-shot job, which is never ready", "depends-on: {download: completed}");
		yaml.put("telemetry.supervisor.fleet.gateway.depends-on[0]", "modle");
		assertFailure(run(yaml), "fleet[gateway].depends-on[modle]", "no server of the fleet is named 'modle'");
	}

	@Test
	void aWordThatIsNoConditionFailsSayingWhatTheShapeIs() {
		run(yaml("telemetry.supervisor.fleet.a.command[0]", "a", "telemetry.supervisor.fleet.b.command[0]", "b",
				"telemetry.supervisor.fleet.b.depends-on.a", "soon"))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasStackTraceContaining("telemetry.supervisor.fleet.b.depends-on.a")
					.rootCause()
					.hasMessageContaining("'soon' is not a condition (ready, started or completed)")
					.hasMessageContainingAll("depends-on.config=ready", "depends-on: [config]");
			});
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', quoteCharacter = '"', value = {
			"unknown | gateway.depends-on.modle=ready | fleet[gateway].depends-on[modle] | no server of the fleet is named 'modle'; its servers: download, config, model, gateway",
			"itself | gateway.depends-on.gateway=ready | fleet[gateway].depends-on[gateway] | a server cannot depend on itself",
			"a replica | gateway.depends-on.model-1=ready | fleet[gateway].depends-on[model-1] | 'model-1' is a replica of 'model': depend on 'model', which waits for all its replicas",
			"a server never completes | gateway.depends-on.config=completed | fleet[gateway].depends-on[config] | 'config' is not a one-shot job, so it never completes: depend on it being ready or started, or make it one with telemetry.supervisor.fleet.config.one-shot=true",
			"a job is never ready | gateway.depends-on.download=ready | fleet[gateway].depends-on[download] | 'download' is a one-shot job, which is never ready: depend on it being completed (it exited 0) or started",
			"a cycle | config.depends-on.gateway=ready | fleet[config].depends-on[gateway] | depends-on makes a cycle, config → gateway → model → config: none of these servers could ever be spawned",
			"a port of no server | gateway.env.MODEL=http://127.0.0.1:{port:modle}/ | fleet[gateway].env | MODEL={port:modle}: no server of the fleet is named 'modle'",
			"a port of a group | gateway.command[1]=--model={port:model} | fleet[gateway].command[1] | {port:model}: 'model' has 2 replicas, each with a port of its own: name one, e.g. {port:model-0}" })
	void aBrokenRuleFailsAtBindTimeNamingThePropertyTheUserSet(String rule, String set, String field, String reason) {
		String[] assignment = set.split("=", 2);
		Map<String, Object> yaml = new LinkedHashMap<>(FLEET_YAML);
		yaml.put("telemetry.supervisor.fleet." + assignment[0], assignment[1]);
		assertFailure(run(yaml), field, reason);
	}

	@Test
	void aPortTheServerChoosesItselfIsNotKnownWhenACommandNamesIt() {
		Map<String, Object> yaml = new LinkedHashMap<>(FLEET_YAML);
		yaml.put("telemetry.supervisor.fleet.gateway.command[1]", "--config={port:config}");
		assertFailure(run(yaml, "--telemetry.supervisor.fleet.config.port=0"), "fleet[gateway].command[1]",
				"{port:config}: 'config' binds a port of its own choosing (telemetry.supervisor.fleet.config.port=0)");
	}

	@Test
	void aCycleOfTwoInTheListIsNamedOnTheFirstServersEdge() {
		assertFailure(run(yaml("telemetry.supervisor.servers[0].name", "a", "telemetry.supervisor.servers[0].command[0]",
				"a", "telemetry.supervisor.servers[0].depends-on.b", "ready", "telemetry.supervisor.servers[1].name", "b",
				"telemetry.supervisor.servers[1].command[0]", "b", "telemetry.supervisor.servers[1].depends-on.a",
				"started")), "servers[0].depends-on[b]", "depends-on makes a cycle, a → b → a");
	}

	private static SupervisorProperties.Server server(SupervisorProperties properties, String name) {
		return properties.fleetServers().stream().filter((server) -> server.getName().equals(name)).findFirst().orElseThrow();
	}

}
