package io.github.startuptelemetry.it.supervisor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.JsonSchemaSubset;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.SharedHealthEndpoint;

import static io.github.startuptelemetry.it.support.Fleets.assertAllStopped;
import static io.github.startuptelemetry.it.support.Fleets.byServer;
import static io.github.startuptelemetry.it.support.Fleets.count;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static io.github.startuptelemetry.it.support.Fleets.startedProcesses;
import static io.github.startuptelemetry.it.support.Spans.assertContiguous;
import static io.github.startuptelemetry.it.support.Spans.only;
import static io.github.startuptelemetry.it.support.Spans.stages;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fleets with {@code depends-on}, under the real sample supervisor with real server JVMs: the
 * documented example fleet starts in order (each dependant spawned after what it waited for met
 * its condition, by the recorded times), its one-shot job completes, and the critical chain is
 * in the log and the JSON report; a dependency that crashes aborts its dependants, which are
 * never spawned. (A bad graph failing at bind time: {@link SupervisorFleetProcessTest}.) The
 * cases run at once: each is a supervisor of its own, and two of them mostly wait.
 */
@Execution(ExecutionMode.CONCURRENT)
class DependencyFleetProcessTest {

	/** Five JVMs starting in waves on a shared 2-core box: more than one fleet's usual bound. */
	private static final Duration TIMEOUT = Fleets.TIMEOUT.multipliedBy(2);

	private static final String WAIT = "gym.startup.server.waiting_for_dependencies";

	@RegisterExtension
	final Fleets fleets = new Fleets();

	@Test
	void theExampleFleetStartsInDependencyOrderItsJobCompletesAndItsCriticalChainIsReported() throws Exception {
		Path example = SampleJars.repositoryRoot().resolve("sample-supervisor/fleet-with-dependencies.yml");
		try (JavaProcess supervisor = this.fleets
			.supervisor("--spring.config.additional-location=file:" + example,
					"--telemetry.supervisor.exit-when-ready=true")
			.workingDir(SampleJars.repositoryRoot())
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
			List<ReceivedSpan> spans = this.fleets.receiver()
				.awaitSpans((all) -> count(all, "gym.startup") == 1 && count(all, "gym.server.startup") == 5
						&& count(all, WAIT) == 3, TIMEOUT);
			Map<String, ReceivedSpan> supervised = byServer(spans, "gym.startup.server");
			Map<String, ReceivedSpan> waits = byServer(spans, WAIT);
			assertThat(supervised).containsOnlyKeys("download", "config", "model-0", "model-1", "gateway");
			assertThat(waits).containsOnlyKeys("model-0", "model-1", "gateway");

			// the job: done when it exited 0, which is what its dependants waited for
			ReceivedSpan download = supervised.get("download");
			assertThat(download.attribute("nemo.gym.startup.outcome")).isEqualTo("ready");
			assertThat(download.attribute("startup.readiness.source")).isEqualTo("exit");
			assertThat(download.attribute("startup.server.one_shot")).isEqualTo("true");

			// each dependant spawned (its wait ended) after everything it waited for was ready or done
			for (String model : List.of("model-0", "model-1")) {
				long spawnNs = waits.get(model).endNs();
				assertThat(spawnNs).as("%s spawned after download completed", model)
					.isGreaterThanOrEqualTo(download.endNs());
				assertThat(spawnNs).as("%s spawned after config was ready", model)
					.isGreaterThanOrEqualTo(supervised.get("config").endNs());
				assertThat(supervised.get(model).attribute("startup.dependency.conditions"))
					.isEqualTo("[download:completed, config:ready]");
			}
			long gatewaySpawnNs = waits.get("gateway").endNs();
			assertThat(gatewaySpawnNs).isGreaterThanOrEqualTo(supervised.get("model-0").endNs())
				.isGreaterThanOrEqualTo(supervised.get("model-1").endNs());
			assertThat(supervised.get("gateway").attribute("startup.dependency.released_by")).isIn("model-0", "model-1");

			// the wait is the first stage of the supervisor's span; the server's own stages start at its spawn
			Map<String, ReceivedSpan> serverRoots = byServer(spans, "gym.server.startup");
			for (String name : waits.keySet()) {
				ReceivedSpan span = supervised.get(name);
				ReceivedSpan wait = waits.get(name);
				assertThat(wait.parentSpanId()).isEqualTo(span.spanId());
				assertThat(wait.startNs()).isEqualTo(span.startNs());
				assertThat(Double.parseDouble(span.attribute("startup.dependency.wait_ms")))
					.isEqualTo((wait.endNs() - wait.startNs()) / 1e6);
				ReceivedSpan server = serverRoots.get(name);
				assertThat(server.parentSpanId()).isEqualTo(span.spanId());
				List<ReceivedSpan> serverStages = stages(spans, server);
				assertContiguous(serverStages, server);
				assertThat(serverStages.get(0).attribute("nemo.gym.startup.stage")).isEqualTo("venv_setup");
				assertThat(serverStages.get(0).startNs()).as("%s's spawn→ready starts where its wait ended", name)
					.isEqualTo(wait.endNs());
			}

			assertThat(supervisor.log()).contains("3 wait for their dependencies: model-0, model-1, gateway",
					"Spawned gateway (pid ", "all ready at ", "set by the critical chain ",
					"what could have overlapped",
					"waited ", "for config (ready): its startup up to context_prepared (",
					"did not need config and could have overlapped the wait; it first contacted config in beans_instantiated")
				.doesNotContain("held back by");

			Path json = this.fleets.tmp().resolve("startup-report.json");
			String document = Files.readString(json);
			assertThat(JsonSchemaSubset.load(SampleJars.repositoryRoot().resolve("docs/startup-report.schema.json"))
				.problems(document)).isEmpty();
			JsonNode report = new ObjectMapper().readTree(document);
			JsonNode links = report.get("criticalChain").get("links");
			assertThat(links.get(links.size() - 1).get("server").asString()).isEqualTo("gateway");
			assertThat(links.get(links.size() - 2).get("server").asString())
				.isEqualTo(supervised.get("gateway").attribute("startup.dependency.released_by"));
			assertThat(links.get(0).get("waitedMs").asDouble()).isZero();
			assertThat(report.get("dependencyWaits").findValuesAsString("dependant"))
				.as("the replicas, spawned at once, in either order")
				.containsExactlyInAnyOrder("model-0", "model-0", "model-1", "model-1", "gateway")
				.endsWith("gateway");
			JsonNode gatewayRow = row(report, "gateway");
			assertThat(gatewayRow.get("dependencies").get("spawned").asBoolean()).isTrue();
			assertThat(gatewayRow.get("spawnEpochNs").asLong()).isEqualTo(gatewaySpawnNs);
			assertThat(row(report, "download").get("oneShot").asBoolean()).isTrue();
			assertThat(Files.readString(this.fleets.tmp().resolve("startup-report.html"))).contains("class=\"edge\"",
					"data-from=\"" + links.get(0).get("server").asString() + "\"");
		}
	}

	@Test
	void aDependencyThatCrashesAbortsItsDependantsWhichAreNeverSpawned() throws Exception {
		try (JavaProcess supervisor = this.fleets
			.supervisor(server(0, "config", "/bin/sh", "-c", "sleep 0.5; echo config is broken; exit 3"))
			.args(server(1, "model", "{java}", "-XX:TieredStopAtLevel=1", "-jar", SampleJars.server().toString(), "--server.port={port}"))
			.args(server(2, "gateway", "{java}", "-XX:TieredStopAtLevel=1", "-jar", SampleJars.server().toString(), "--server.port={port}"))
			.args(server(3, "sleeper", "sleep", "300"))
			.args("--telemetry.supervisor.servers[1].depends-on.config=ready",
					"--telemetry.supervisor.servers[2].depends-on.model=ready",
					"--telemetry.supervisor.servers[2].depends-on.sleeper=started")
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitLog("Spawned 2 server(s)", TIMEOUT);
			List<ProcessHandle> started = startedProcesses(supervisor);

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			ReceivedSpan root = this.fleets.abortedRoot("crashed");
			assertThat(root.span().getStatus().getMessage()).contains("'config' exited with code 3",
					"config is broken");
			List<ReceivedSpan> spans = this.fleets.receiver()
				.awaitSpans((all) -> count(all, "gym.startup.server") == 4 && count(all, WAIT) == 2, TIMEOUT);
			Map<String, ReceivedSpan> supervised = byServer(spans, "gym.startup.server");
			for (String name : List.of("model", "gateway")) {
				ReceivedSpan span = supervised.get(name);
				assertThat(span.attribute("nemo.gym.startup.outcome")).isEqualTo("crashed");
				assertThat(span.isError()).isTrue();
				assertThat(span.span().getStatus().getMessage())
					.startsWith("not spawned: still waiting for its dependencies when the startup ended: ")
					.contains("'config' exited with code 3");
				assertThat(byServer(spans, WAIT).get(name).endNs()).isEqualTo(span.endNs());
				assertThat(this.fleets.runDir().resolve(name + ".log")).as("%s was never spawned", name).doesNotExist();
			}
			assertThat(supervised.get("model").attribute("startup.dependency.blocked_by")).isEqualTo("config");
			assertThat(supervised.get("gateway").attribute("startup.dependency.blocked_by")).isEqualTo("model");
			assertThat(byServer(spans, "gym.server.startup")).doesNotContainKeys("model", "gateway");
			assertThat(supervisor.log()).doesNotContain("Spawned model", "Spawned gateway")
				.contains("model not spawned: waiting for config (ready), which exited with code 3 before it was ready",
						"gateway not spawned: waiting for model (ready), which was not spawned either",
						"The fleet did not start (crashed)");

			JsonNode report = new ObjectMapper().readTree(this.fleets.tmp().resolve("startup-report.json").toFile());
			assertThat(row(report, "model").get("dependencies").get("spawned").asBoolean()).isFalse();
			assertThat(row(report, "model").get("dependencies").get("blockedBy").asString()).isEqualTo("config");
			assertThat(row(report, "config").get("exitCode").asInt()).isEqualTo(3);
			assertAllStopped(started, 2);
		}
	}

	@Test
	void aDependencyNotReadyAtTheTimeoutTimesOutItsDependantsWhichAreNeverSpawned() throws Exception {
		try (JavaProcess supervisor = this.fleets.supervisor(server(0, "config", "sleep", "300"))
			.args(server(1, "gateway", "sleep", "300"))
			.args("--telemetry.supervisor.servers[1].depends-on.config=ready",
					"--telemetry.supervisor.ready-timeout=3s")
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitLog("Spawned 1 server(s)", TIMEOUT);
			List<ProcessHandle> started = startedProcesses(supervisor);

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			ReceivedSpan root = this.fleets.abortedRoot("timeout");
			assertThat(root.span().getStatus().getMessage()).contains("Not ready after 3000 ms: config (log ",
					"gateway (not spawned: waiting for config)");
			ReceivedSpan gateway = byServer(this.fleets.receiver().spans(), "gym.startup.server").get("gateway");
			assertThat(gateway.attribute("nemo.gym.startup.outcome")).isEqualTo("timeout");
			assertThat(gateway.attribute("startup.dependency.blocked_by")).isEqualTo("config");
			assertThat(supervisor.log()).contains("0/2 ready, waiting for config; not spawned yet: gateway",
					"gateway not spawned: waiting for config (ready), which was not ready when the ready timeout passed")
				.doesNotContain("Spawned gateway");
			String document = Files.readString(this.fleets.tmp().resolve("startup-report.json"));
			assertThat(JsonSchemaSubset.load(SampleJars.repositoryRoot().resolve("docs/startup-report.schema.json"))
				.problems(document)).isEmpty();
			JsonNode report = new ObjectMapper().readTree(document);
			assertThat(row(report, "gateway").get("spawnEpochNs").isNull()).as("never spawned: no spawn time").isTrue();
			assertThat(row(report, "config").get("spawnEpochNs").asLong()).isPositive();
			assertAllStopped(started, 1);
		}
	}

	/**
	 * {@code depends-on: [config]}, as Docker Compose users write it, in a fleet's own YAML file:
	 * the dependant waits until every replica of config is ready (config's health says 503 until
	 * the test flips it), then is spawned.
	 */
	@Test
	void aListOfNamesInTheFleetsYamlWaitsForEachToBeReady() throws Exception {
		try (SharedHealthEndpoint config = SharedHealthEndpoint.start(false);
				SharedHealthEndpoint gateway = SharedHealthEndpoint.start(true)) {
			Path fleet = this.fleets.tmp().resolve("fleet.yml");
			Files.writeString(fleet, """
					telemetry:
					  supervisor:
					    servers:
					      - name: config
					        replicas: 2
					        command: [sleep, "300"]
					        health-url: %s
					      - name: gateway
					        depends-on: [config]
					        command: [sleep, "300"]
					        health-url: %s
					""".formatted(config.healthUrl(), gateway.healthUrl()));
			try (JavaProcess supervisor = this.fleets
				.supervisor("--spring.config.additional-location=file:" + fleet,
						"--telemetry.supervisor.exit-when-ready=true")
				.start(this.fleets.tmp().resolve("supervisor.log"))) {
				supervisor.awaitLog("1 wait for their dependencies: gateway", TIMEOUT);
				// probed and found not ready, so far
				supervisor.awaitLog("0/3 ready", TIMEOUT);
				assertThat(this.fleets.runDir().resolve("gateway.log")).as("not spawned while config is not ready")
					.doesNotExist();
				config.healthy(true);

				assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
				List<ReceivedSpan> spans = this.fleets.receiver()
					.awaitSpans((all) -> count(all, "gym.startup") == 1 && count(all, "gym.startup.server") == 3
							&& count(all, WAIT) == 1, TIMEOUT);
				Map<String, ReceivedSpan> supervised = byServer(spans, "gym.startup.server");
				ReceivedSpan waited = only(spans, WAIT);
				assertThat(waited.parentSpanId()).isEqualTo(supervised.get("gateway").spanId());
				assertThat(waited.endNs()).as("gateway spawned once both replicas of config were ready")
					.isGreaterThanOrEqualTo(supervised.get("config-0").endNs())
					.isGreaterThanOrEqualTo(supervised.get("config-1").endNs());
				assertThat(supervised.get("gateway").attribute("startup.dependency.conditions"))
					.isEqualTo("[config:ready]");
				assertThat(supervised.get("gateway").attribute("startup.dependency.released_by")).isIn("config-0",
						"config-1");
				assertThat(supervisor.log()).contains("Spawned gateway (pid ", "was ready; log ");
			}
		}
	}

	private static JsonNode row(JsonNode report, String name) {
		for (JsonNode server : report.get("servers")) {
			if (server.get("name").asString().equals(name)) {
				return server;
			}
		}
		throw new AssertionError("no row " + name + " in " + report);
	}

}
