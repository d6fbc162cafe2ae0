package io.github.startuptelemetry.supervisor;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.report.BeanTiming;
import io.github.startuptelemetry.timeline.Stage;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reading a server's {@code /actuator/startuptimeline} back for the report, here with Boot's
 * basic JSON parser (no Jackson on this classpath), which reads {@code true} and {@code null}
 * as text.
 */
class TimelineClientTest {

	private static final String STAGES = "\"ready\":true,\"readyEpochNs\":300,"
			+ "\"stages\":[{\"name\":\"main_start\",\"startEpochNs\":100,\"endEpochNs\":200,\"durationMs\":0.0001},"
			+ "{\"name\":\"beans_instantiated\",\"startEpochNs\":200,\"endEpochNs\":300,\"durationMs\":0.0001}]";

	private HttpServer server;

	private String body;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop(0);
		}
	}

	@Test
	void stagesAndNestedBeanSpansAreRead() throws Exception {
		TimelineClient.Timeline timeline = fetch("{" + STAGES + ",\"beanSpans\":[{\"name\":\"modelLoader\","
				+ "\"step\":\"spring.beans.instantiate\",\"bean\":\"modelLoader\",\"type\":\"com.example.ModelLoader\","
				+ "\"startEpochNs\":210,\"endEpochNs\":290,\"children\":[{\"name\":\"tokenizer\",\"type\":null,"
				+ "\"startEpochNs\":220,\"endEpochNs\":230,\"children\":[]}]}]}");

		assertThat(timeline.stages()).containsExactly(new Stage("main_start", 100, 200),
				new Stage("beans_instantiated", 200, 300));
		assertThat(timeline.readyEpochNs()).isEqualTo(300);
		assertThat(timeline.beans()).containsExactly(new BeanTiming("modelLoader", "com.example.ModelLoader", 210, 290,
				List.of(new BeanTiming("tokenizer", null, 220, 230, List.of()))));
	}

	@Test
	void withoutBeanSpansThereAreNoBeans() throws Exception {
		TimelineClient.Timeline timeline = fetch("{" + STAGES + "}");

		assertThat(timeline.stages()).hasSize(2);
		assertThat(timeline.beans()).isEmpty();
	}

	@Test
	void unreadableBeanSpansAreLeftOutButTheStagesKept() throws Exception {
		TimelineClient.Timeline timeline = fetch("{" + STAGES + ",\"beanSpans\":[{\"name\":\"x\",\"startEpochNs\":\"soon\"}]}");

		assertThat(timeline.stages()).hasSize(2);
		assertThat(timeline.beans()).isEmpty();
	}

	private TimelineClient.Timeline fetch(String json) throws Exception {
		this.body = json;
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/actuator/startuptimeline", (exchange) -> {
			byte[] bytes = this.body.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, bytes.length);
			exchange.getResponseBody().write(bytes);
			exchange.close();
		});
		this.server.start();
		TimelineClient client = new TimelineClient(
				HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(), new SupervisorProperties().getProbe());
		URI uri = URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + "/actuator/startuptimeline");
		return client.fetch(uri).orElseThrow();
	}

}
