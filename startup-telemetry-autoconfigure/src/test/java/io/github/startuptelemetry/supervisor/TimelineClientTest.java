package io.github.startuptelemetry.supervisor;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.timeline.Stage;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link TimelineClient} against an HTTP server on loopback answering what the test says. */
class TimelineClientTest {

	private static final String READY = """
			{"ready":true,"readyEpochNs":3000,"stages":[
			{"name":"main_start","startEpochNs":1000,"endEpochNs":2000},
			{"name":"application_ready","startEpochNs":2000,"endEpochNs":3000}]}""";

	private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

	private final AtomicInteger requests = new AtomicInteger();

	private volatile String[] answers;

	private HttpServer server;

	@BeforeEach
	void start() throws Exception {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/actuator/startuptimeline", (exchange) -> {
			String answer = this.answers[Math.min(this.requests.getAndIncrement(), this.answers.length - 1)];
			byte[] body = answer.getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
		this.scheduler.shutdownNow();
	}

	@Test
	void readsTheStagesOfAReadyServer() throws Exception {
		this.answers = new String[] { READY };
		TimelineClient.Timeline timeline = fetch("/actuator/startuptimeline").orElseThrow();
		assertThat(timeline.readyEpochNs()).isEqualTo(3000);
		assertThat(timeline.stages()).containsExactly(new Stage("main_start", 1000, 2000),
				new Stage("application_ready", 2000, 3000));
	}

	@Test
	void asksAgainWhileTheServerSaysItIsNotReadyYet() throws Exception {
		this.answers = new String[] { "{\"ready\":false}", "{\"ready\":false}", READY };
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

	private Optional<TimelineClient.Timeline> fetch(String path) throws Exception {
		SupervisorProperties.Probe settings = new SupervisorProperties.Probe();
		settings.setTimeout(Duration.ofSeconds(30));
		TimelineClient client = new TimelineClient(
				HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(), this.scheduler, settings);
		return client.fetch(URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + path))
			.get(60, TimeUnit.SECONDS);
	}

}
