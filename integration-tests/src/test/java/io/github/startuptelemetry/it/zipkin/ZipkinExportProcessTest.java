package io.github.startuptelemetry.it.zipkin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.ZipkinServer;

import static org.assertj.core.api.Assertions.assertThat;

/** A server exporting its startup to a real Zipkin through {@code telemetry.export.zipkin.endpoint}. */
class ZipkinExportProcessTest {

	private static final String TRACE_ID = "5bf92f3577b34da6a3ce929d0e0e4736";

	private static final String PARENT = "10f067aa0ba902b7";

	@TempDir
	Path tmp;

	@Test
	@SuppressWarnings("unchecked")
	void startupTraceArrivesInZipkinWithParentsAndServiceName() throws Exception {
		try (ZipkinServer zipkin = ZipkinServer.start(this.tmp.resolve("zipkin.log"));
				JavaProcess server = JavaProcess.jar(SampleJars.server())
					.args("--server.port=" + Ports.free(), "--sample.model-loader.duration=100ms",
							"--spring.application.name=model-0",
							"--telemetry.export.zipkin.endpoint=" + zipkin.spansEndpoint())
					.env("NEMO_GYM_STARTUP_TRACEPARENT", "00-" + TRACE_ID + "-" + PARENT + "-01")
					.start(this.tmp.resolve("server.log"))) {
			List<Map<String, Object>> spans = zipkin.awaitTrace(TRACE_ID, 9, Duration.ofSeconds(90));
			Map<String, Object> root = spans.stream()
				.filter((s) -> "gym.server.startup".equals(s.get("name")))
				.findFirst()
				.orElseThrow();
			assertThat(root.get("parentId")).isEqualTo(PARENT);
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

}
