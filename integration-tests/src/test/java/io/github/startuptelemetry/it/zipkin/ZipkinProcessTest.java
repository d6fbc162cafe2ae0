package io.github.startuptelemetry.it.zipkin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.ZipkinServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Startups exporting to a real Zipkin through {@code telemetry.export.zipkin.endpoint}: a server
 * told the endpoint, under a given parent; and the sample supervisor and its default fleet, where
 * only the supervisor is told the endpoint and its three servers get it by propagation. Zipkin
 * must then hold the whole startup as one trace, every startup span under the right parent and
 * service. One Zipkin for both (each reads its own trace by id), both at once.
 */
@Execution(ExecutionMode.CONCURRENT)
class ZipkinProcessTest {

	private static final String SERVER_TRACE_ID = "5bf92f3577b34da6a3ce929d0e0e4736";

	private static final String SERVER_PARENT = "10f067aa0ba902b7";

	private static ZipkinServer zipkin;

	private static final Duration TIMEOUT = Duration.ofSeconds(120);

	private static final Pattern TRACE_ID = Pattern.compile("Startup ready after .* \\(trace ([0-9a-f]{32})\\)");

	private static final Set<String> SERVERS = Set.of("model-0", "model-1", "resources");

	private static final List<String> SERVER_STAGES = List.of("venv_setup", "interpreter_start", "main_start",
			"environment_prepared", "context_prepared", "beans_instantiated", "web_server_started", "context_refreshed",
			"application_started", "application_ready");

	private static final List<String> SUPERVISOR_STAGES = List.of("main_start", "environment_prepared",
			"context_prepared", "beans_instantiated", "web_server_started", "context_refreshed", "application_started",
			"application_ready", "spawn_servers", "wait_for_servers");

	@TempDir
	Path tmp;

	@BeforeAll
	static void startZipkin(@TempDir Path dir) throws Exception {
		zipkin = ZipkinServer.start(dir.resolve("zipkin.log"));
	}

	@AfterAll
	static void stopZipkin() throws Exception {
		if (zipkin != null) {
			zipkin.close();
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void startupTraceArrivesInZipkinWithParentsAndServiceName() throws Exception {
		try (JavaProcess server = JavaProcess.jar(SampleJars.server())
			.args("--server.port=" + Ports.free(), "--sample.model-loader.duration=100ms",
					"--spring.application.name=model-0",
					"--telemetry.export.zipkin.endpoint=" + zipkin.spansEndpoint())
			.env("NEMO_GYM_STARTUP_TRACEPARENT", "00-" + SERVER_TRACE_ID + "-" + SERVER_PARENT + "-01")
			.start(this.tmp.resolve("server.log"))) {
			List<Map<String, Object>> spans = zipkin.awaitTrace(SERVER_TRACE_ID, 9, Duration.ofSeconds(90));
			Map<String, Object> root = spans.stream()
				.filter((s) -> "gym.server.startup".equals(s.get("name")))
				.findFirst()
				.orElseThrow();
			assertThat(root.get("parentId")).isEqualTo(SERVER_PARENT);
			assertThat(((Map<String, Object>) root.get("localEndpoint")).get("serviceName")).isEqualTo("model-0");
			assertThat(((Map<String, String>) root.get("tags"))).containsEntry("nemo.gym.server.name", "model-0");
			List<Map<String, Object>> stages = spans.stream()
				.filter((s) -> ((Map<String, String>) s.get("tags")).containsKey("nemo.gym.startup.stage"))
				.toList();
			assertThat(stages).extracting((s) -> s.get("name"))
				.contains("gym.server.startup.main_start", "gym.server.startup.beans_instantiated",
						"gym.server.startup.application_ready");
			assertThat(stages).allSatisfy((s) -> assertThat(s.get("parentId")).isEqualTo(root.get("id")));
		}
	}

	@Test
	void theWholeFleetStartupIsOneTraceInZipkin() throws Exception {
		try (JavaProcess supervisor = JavaProcess.jar(SampleJars.supervisor())
			.env("SAMPLE_MODEL_LOADER_DURATION", "200ms")
			.env("MANAGEMENT_OTLP_METRICS_EXPORT_ENABLED", "false")
			.args("--telemetry.supervisor.exit-when-ready=true",
					"--telemetry.export.zipkin.endpoint=" + zipkin.spansEndpoint(),
					"--telemetry.supervisor.run-dir=" + this.tmp.resolve("run"),
					"--telemetry.supervisor.report.html=" + this.tmp.resolve("startup-report.html"),
					"--telemetry.supervisor.report.json=" + this.tmp.resolve("startup-report.json"))
			.workingDir(SampleJars.repositoryRoot())
			.start(this.tmp.resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
			Matcher traceLine = TRACE_ID.matcher(supervisor.log());
			assertThat(traceLine.find()).as(supervisor.log()).isTrue();
			String traceId = traceLine.group(1);

			List<Map<String, Object>> spans = zipkin.awaitTrace(traceId,
					(all) -> named(all, "gym.startup").size() == 1 && named(all, "gym.server.startup").size() == 3
							&& named(all, "gym.server.startup.application_ready").size() == 3,
					TIMEOUT);

			assertThat(spans).allSatisfy((span) -> assertThat(span.get("traceId")).isEqualTo(traceId));
			Map<String, Map<String, Object>> byId = spans.stream()
				.collect(Collectors.toMap((span) -> (String) span.get("id"), Function.identity()));
			assertThat(spans).filteredOn((span) -> span.get("parentId") == null).hasSize(1);
			assertThat(spans).filteredOn((span) -> span.get("parentId") != null)
				.allSatisfy((span) -> assertThat(byId).as("parent of %s", span.get("name"))
					.containsKey((String) span.get("parentId")));

			Map<String, Object> root = named(spans, "gym.startup").get(0);
			assertThat(root.get("parentId")).isNull();
			assertThat(service(root)).isEqualTo("sample-supervisor");
			assertThat(tags(root)).containsEntry("nemo.gym.startup.outcome", "ready");
			assertThat(stageSpans(spans, root)).containsOnlyKeys(SUPERVISOR_STAGES).allSatisfy((stage, span) -> {
				assertThat(span.get("name")).isEqualTo("gym.startup." + stage);
				assertThat(service(span)).isEqualTo("sample-supervisor");
			});

			Map<String, Map<String, Object>> spawned = byServer(named(spans, "gym.startup.server"));
			Map<String, Map<String, Object>> started = byServer(named(spans, "gym.server.startup"));
			assertThat(spawned).containsOnlyKeys(SERVERS);
			assertThat(started).containsOnlyKeys(SERVERS);
			for (String name : SERVERS) {
				Map<String, Object> spawn = spawned.get(name);
				assertThat(spawn.get("parentId")).isEqualTo(root.get("id"));
				assertThat(service(spawn)).isEqualTo("sample-supervisor");
				assertThat(tags(spawn)).containsEntry("nemo.gym.startup.outcome", "ready");
				Map<String, Object> server = started.get(name);
				assertThat(server.get("parentId")).as(name).isEqualTo(spawn.get("id"));
				assertThat(service(server)).as("%s got the Zipkin endpoint from its supervisor", name).isEqualTo(name);
				assertThat(stageSpans(spans, server)).as(name).containsOnlyKeys(SERVER_STAGES).allSatisfy((stage, span) -> {
					assertThat(span.get("name")).isEqualTo("gym.server.startup." + stage);
					assertThat(service(span)).isEqualTo(name);
				});
			}
		}
	}

	/** The stage spans (those with a stage tag) directly under {@code root}, by stage. */
	private static Map<String, Map<String, Object>> stageSpans(List<Map<String, Object>> spans,
			Map<String, Object> root) {
		return spans.stream()
			.filter((span) -> Objects.equals(span.get("parentId"), root.get("id"))
					&& tags(span).containsKey("nemo.gym.startup.stage"))
			.collect(Collectors.toMap((span) -> tags(span).get("nemo.gym.startup.stage"), Function.identity()));
	}

	private static List<Map<String, Object>> named(List<Map<String, Object>> spans, String name) {
		return spans.stream().filter((span) -> name.equals(span.get("name"))).toList();
	}

	private static Map<String, Map<String, Object>> byServer(List<Map<String, Object>> spans) {
		return spans.stream()
			.collect(Collectors.toMap((span) -> tags(span).get("nemo.gym.server.name"), Function.identity()));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, String> tags(Map<String, Object> span) {
		return (Map<String, String>) span.getOrDefault("tags", Map.of());
	}

	@SuppressWarnings("unchecked")
	private static String service(Map<String, Object> span) {
		return (String) ((Map<String, Object>) span.get("localEndpoint")).get("serviceName");
	}

}
