package io.github.startuptelemetry.fleet;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * Reading a server's {@code /actuator/startuptimeline} back for the report, from an HTTP
 * server on loopback answering what the test says.
 */
class TimelineClientTest {

	private static final String STAGES = "\"ready\":true,\"readyEpochNs\":300,"
			+ "\"stages\":[{\"name\":\"main_start\",\"startEpochNs\":100,\"endEpochNs\":200,\"durationMs\":0.0001},"
			+ "{\"name\":\"beans_instantiated\",\"startEpochNs\":200,\"endEpochNs\":300,\"durationMs\":0.0001}]";

	private final ProbeLoop loop = new ProbeLoop("timeline-test");

	private final AtomicInteger requests = new AtomicInteger();

	private volatile String[] answers;

	private HttpServer server;

	@BeforeEach
	void start() throws Exception {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/actuator/startuptimeline", (exchange) -> {
			String answer = this.answers[Math.min(this.requests.getAndIncrement(), this.answers.length - 1)];
			byte[] body = answer.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
		this.loop.close();
	}

	@Test
	void stagesAndNestedBeanSpansAreRead() throws Exception {
		this.answers = new String[] { "{" + STAGES + ",\"beanSpans\":[{\"name\":\"modelLoader\","
				+ "\"step\":\"spring.beans.instantiate\",\"bean\":\"modelLoader\",\"type\":\"com.example.ModelLoader\","
				+ "\"startEpochNs\":210,\"endEpochNs\":290,\"children\":[{\"name\":\"tokenizer\",\"type\":null,"
				+ "\"startEpochNs\":220,\"endEpochNs\":230,\"children\":[]}]}]}" };
		ServerTimeline timeline = fetch("/actuator/startuptimeline").orElseThrow();

		assertThat(timeline.stages()).containsExactly(new Stage("main_start", 100, 200),
				new Stage("beans_instantiated", 200, 300));
		assertThat(timeline.readyEpochNs()).isEqualTo(300);
		assertThat(timeline.steps()).containsExactly(new StepTiming("spring.beans.instantiate", "modelLoader",
				"com.example.ModelLoader", 210, 290, 80, List.of(new StepTiming("tokenizer", null, null, 220, 230, 10, List.of()))));
	}

	@Test
	void withoutBeanSpansThereAreNoBeans() throws Exception {
		this.answers = new String[] { "{" + STAGES + "}" };
		ServerTimeline timeline = fetch("/actuator/startuptimeline").orElseThrow();

		assertThat(timeline.stages()).hasSize(2);
		assertThat(timeline.steps()).isEmpty();
	}

	@Test
	void unreadableBeanSpansAreLeftOutButTheStagesKept() throws Exception {
		this.answers = new String[] { "{" + STAGES + ",\"beanSpans\":[{\"name\":\"x\",\"startEpochNs\":\"soon\"}]}" };
		ServerTimeline timeline = fetch("/actuator/startuptimeline").orElseThrow();

		assertThat(timeline.stages()).hasSize(2);
		assertThat(timeline.steps()).isEmpty();
	}

	@Test
	void asksAgainWhileTheServerSaysItIsNotReadyYet() throws Exception {
		this.answers = new String[] { "{\"ready\":false}", "{\"ready\":false}", "{" + STAGES + "}" };
		assertThat(fetch("/actuator/startuptimeline")).isPresent();
		assertThat(this.requests).hasValue(3);
	}

	@Test
	void anythingUnexpectedIsNoTimelineAndNoError() throws Exception {
		this.answers = new String[] { "not json" };
		assertThat(fetch("/actuator/startuptimeline")).isEmpty();
		this.answers = new String[] { "{\"ready\":true,\"stages\":[{\"name\":1}]}" };
		assertThat(fetch("/actuator/startuptimeline")).isEmpty();
		assertThat(fetch("/elsewhere")).isEmpty();
	}

	private Optional<ServerTimeline> fetch(String path) throws Exception {
		ProbeSettings settings = new ProbeSettings(Duration.ofMillis(10), Duration.ofMillis(250), Duration.ofSeconds(30));
		TimelineClient client = new TimelineClient(new ProbeClient(this.loop, settings.timeout()), this.loop,
				settings);
		return client.fetch(URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + path))
			.get(60, TimeUnit.SECONDS);
	}

}
