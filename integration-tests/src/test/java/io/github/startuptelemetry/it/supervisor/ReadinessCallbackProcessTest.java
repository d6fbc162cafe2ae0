package io.github.startuptelemetry.it.supervisor;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;

import static io.github.startuptelemetry.it.support.Fleets.count;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static io.github.startuptelemetry.it.support.Fleets.startedProcesses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Push readiness with real JVMs: the sample fleet is made ready by its servers' callbacks, a
 * server without the starter by the probe, and a callback that is forged, oversized, garbled
 * or repeated changes nothing.
 */
class ReadinessCallbackProcessTest {

	@TempDir
	Path tmp;

	@RegisterExtension
	final OtlpReceiver receiver = new OtlpReceiver();

	private Fleets fleets;

	@BeforeEach
	void fleets() {
		this.fleets = new Fleets(this.receiver, this.tmp);
	}

	@Test
	void sampleServersAreReadyThroughTheirCallbackAndAServerWithoutTheStarterThroughTheProbe() throws Exception {
		String jar = SampleJars.repositoryRoot().resolve("sample-server/target/sample-server.jar").toString();
		try (JavaProcess supervisor = this.fleets
			.supervisor("--telemetry.supervisor.exit-when-ready=true")
			.args(server(0, "model", "{java}", "-XX:TieredStopAtLevel=1", "-jar", jar, "--server.port={port}",
					"--spring.application.name={name}"))
			// a server without the starter (no callback): health on /, where python's server answers 200
			.args("--telemetry.supervisor.servers[1].name=stub", "--telemetry.supervisor.servers[1].command=python3,-m,"
					+ "http.server,--bind,127.0.0.1,{port}")
			.args(server(2, "anyport", "{java}", "-XX:TieredStopAtLevel=1", "-jar", jar, "--server.port={port}",
					"--spring.application.name={name}"))
			.args("--telemetry.supervisor.servers[2].port=0",
					"--telemetry.supervisor.servers[1].health-url=http://127.0.0.1:{port}/")
			.start(this.tmp.resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(Fleets.TIMEOUT)).as(supervisor.log()).isZero();
			List<ReceivedSpan> spans = this.receiver.awaitSpans((all) -> count(all, "gym.startup") == 1, Fleets.TIMEOUT);
			Map<String, ReceivedSpan> servers = new HashMap<>();
			spans.stream()
				.filter((span) -> span.name().equals("gym.startup.server"))
				.forEach((span) -> servers.put(span.attribute("nemo.gym.server.name"), span));
			assertThat(servers).containsOnlyKeys("model", "stub", "anyport");
			assertThat(servers.get("model").attribute("startup.readiness.source")).isEqualTo("callback");
			assertThat(servers.get("anyport").attribute("startup.readiness.source")).isEqualTo("callback");
			assertThat(servers.get("stub").attribute("startup.readiness.source")).isEqualTo("probe");
			assertThat(servers.get("model").attribute("startup.clock.uncertainty_ms")).isNotNull();
			assertThat(servers.get("stub").attribute("startup.clock.offset_ms")).isNull();
			// the port-0 server bound a port of its own, and the supervisor learnt which
			String anyportLog = Files.readString(this.fleets.runDir().resolve("anyport.log"));
			java.util.regex.Matcher bound = java.util.regex.Pattern.compile("started on port (\\d+)").matcher(anyportLog);
			assertThat(bound.find()).as(anyportLog).isTrue();
			assertThat(supervisor.log()).contains("Server 'anyport' bound http://127.0.0.1:" + bound.group(1));
		}
	}

	@Test
	void forgedOversizedGarbledAndRepeatedCallbacksChangeNothing() throws Exception {
		try (JavaProcess supervisor = this.fleets.supervisor(server(0, "a", "sleep", "300"))
			.args(server(1, "b", "sleep", "300"))
			.start(this.tmp.resolve("supervisor.log"))) {
			supervisor.awaitLog("Spawned 2 server(s)", Fleets.TIMEOUT);
			Map<String, String> env = environ(startedProcesses(supervisor));
			String url = env.get("TELEMETRY_SUPERVISOR_CALLBACK_URL");
			String token = env.get("TELEMETRY_SUPERVISOR_CALLBACK_TOKEN");
			assertThat(url).startsWith("http://127.0.0.1:");
			assertThat(token).hasSizeGreaterThanOrEqualTo(32);

			assertThat(post(url, "wrong-" + token, ready("a"))).isEqualTo(401);
			assertThat(post(url, token, ready("nobody"))).isEqualTo(404);
			assertThat(post(url, token, "{\"server\":\"a\"," + "x".repeat(1024 * 1024) + "}")).isEqualTo(413);
			assertThat(post(url, token, "{not json")).isEqualTo(400);
			long genuine = java.time.Instant.now().toEpochMilli() * 1_000_000L;
			assertThat(post(url, token, ready("a"))).isEqualTo(204);
			assertThat(post(url, token, ready("a"))).isEqualTo(409);
			supervisor.awaitLog("1/2 ready, waiting for b", Fleets.TIMEOUT);
			supervisor.terminate();
			supervisor.awaitExit(Fleets.TIMEOUT);
			List<ReceivedSpan> spans = this.receiver.awaitSpans((all) -> count(all, "gym.startup") == 1, Fleets.TIMEOUT);
			Map<String, ReceivedSpan> servers = new HashMap<>();
			spans.stream()
				.filter((span) -> span.name().equals("gym.startup.server"))
				.forEach((span) -> servers.put(span.attribute("nemo.gym.server.name"), span));
			assertThat(servers.get("a").attribute("nemo.gym.startup.outcome")).isEqualTo("ready");
			assertThat(servers.get("a").attribute("startup.readiness.source")).isEqualTo("callback");
			assertThat(servers.get("a").endNs()).as("ready only at the genuine callback").isGreaterThanOrEqualTo(genuine);
			assertThat(servers.get("b").attribute("nemo.gym.startup.outcome")).isNotEqualTo("ready");
			assertThat(supervisor.log()).contains("Rejected a readiness callback").doesNotContain(token);
			assertThat(spans).allSatisfy((span) -> assertThat(span.toString()).doesNotContain(token));
		}
	}

	private static String ready(String name) {
		return "{\"server\":\"" + name + "\",\"pid\":1,\"host\":\"h\",\"port\":0,\"clockEpochNs\":1,"
				+ "\"timeline\":{\"ready\":true,\"server\":\"" + name + "\",\"readyEpochNs\":1,\"stages\":[]}}";
	}

	private static int post(String url, String token, String body) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/ready"))
			.header("Authorization", "Bearer " + token)
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		try {
			return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
		}
		catch (java.io.IOException ex) {
			// the supervisor may close an oversized upload before reading it all
			return body.length() > 256 * 1024 ? 413 : -1;
		}
	}

	/** The environment of the first spawned process that has the callback's. */
	private static Map<String, String> environ(List<ProcessHandle> processes) throws Exception {
		for (ProcessHandle process : processes) {
			byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "environ"));
			Map<String, String> env = new HashMap<>();
			Arrays.stream(new String(raw, StandardCharsets.UTF_8).split("\0")).forEach((entry) -> {
				int eq = entry.indexOf('=');
				if (eq > 0) {
					env.put(entry.substring(0, eq), entry.substring(eq + 1));
				}
			});
			if (env.containsKey("TELEMETRY_SUPERVISOR_CALLBACK_TOKEN")) {
				return env;
			}
		}
		throw new AssertionError("no spawned process has the callback's environment");
	}

}
