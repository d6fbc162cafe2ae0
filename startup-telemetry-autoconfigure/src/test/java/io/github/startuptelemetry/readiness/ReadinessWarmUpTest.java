package io.github.startuptelemetry.readiness;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ReadinessWarmUp} against a real HTTP server standing in for the application's web
 * server: the probed path is requested before the startup goes on past
 * {@code ApplicationStartedEvent}, and a warm-up that hangs holds the startup for its timeout only.
 */
class ReadinessWarmUpTest {

	private final List<String> requests = new CopyOnWriteArrayList<>();

	private final CountDownLatch release = new CountDownLatch(1);

	private final GenericApplicationContext context = new GenericApplicationContext();

	private HttpServer server;

	@BeforeEach
	void startServer() throws Exception {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", (exchange) -> {
			this.requests.add(exchange.getRequestURI().toString());
			if (exchange.getRequestURI().getPath().equals("/hang")) {
				try {
					this.release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			exchange.sendResponseHeaders(503, -1);
			exchange.close();
		});
		this.server.setExecutor(Executors.newCachedThreadPool());
		this.server.start();
	}

	@AfterEach
	void stopServer() {
		this.release.countDown();
		this.server.stop(0);
	}

	@Test
	void theProbedPathIsRequestedBeforeTheStartupGoesOn() {
		ReadinessWarmUp warmUp = warmUp("/actuator/health/readiness", Duration.ofSeconds(30));
		warmUp.onApplicationEvent(webServerStarted(this.server.getAddress().getPort()));
		warmUp.onApplicationEvent(started());
		assertThat(this.requests).containsExactly("/actuator/health/readiness");
	}

	@Test
	void aWarmUpThatHangsHoldsTheStartupForItsTimeoutOnly() {
		ReadinessWarmUp warmUp = warmUp("/hang", Duration.ofMillis(200));
		warmUp.onApplicationEvent(webServerStarted(this.server.getAddress().getPort()));
		warmUp.onApplicationEvent(started());
		// the startup went on while the request still hangs
		assertThat(this.release.getCount()).isOne();
	}

	@Test
	void nothingListeningOrABadPathIsNoError() throws Exception {
		int closed;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			closed = socket.getLocalPort();
		}
		ReadinessWarmUp unanswered = warmUp("/health", Duration.ofSeconds(30));
		unanswered.onApplicationEvent(webServerStarted(closed));
		unanswered.onApplicationEvent(started());
		ReadinessWarmUp badPath = warmUp("/a\r\nX-Injected: 1", Duration.ofSeconds(30));
		badPath.onApplicationEvent(webServerStarted(this.server.getAddress().getPort()));
		badPath.onApplicationEvent(started());
		assertThat(this.requests).isEmpty();
	}

	@Test
	void anotherApplicationsStartIsNotWaitedFor() {
		ReadinessWarmUp warmUp = warmUp("/hang", Duration.ofHours(1));
		warmUp.onApplicationEvent(webServerStarted(this.server.getAddress().getPort()));
		warmUp.onApplicationEvent(new ApplicationStartedEvent(new SpringApplication(), new String[0],
				new GenericApplicationContext(), Duration.ZERO));
		assertThat(this.release.getCount()).isOne();
	}

	@Test
	void configuredOnlyWhenToldWhatToWarmUp() {
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ReadinessWarmUpAutoConfiguration.class));
		runner.run((context) -> assertThat(context).doesNotHaveBean(ReadinessWarmUp.class));
		runner.withPropertyValues("telemetry.startup.warm-up.path=/actuator/health/readiness")
			.run((context) -> assertThat(context).hasSingleBean(ReadinessWarmUp.class));
		runner.withPropertyValues("telemetry.startup.warm-up.path=/actuator/health/readiness", "telemetry.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ReadinessWarmUp.class));
	}

	private ReadinessWarmUp warmUp(String path, Duration timeout) {
		WarmUpProperties properties = new WarmUpProperties();
		properties.setPath(path);
		properties.setTimeout(timeout);
		ReadinessWarmUp warmUp = new ReadinessWarmUp(properties);
		warmUp.setApplicationContext(this.context);
		return warmUp;
	}

	private ApplicationStartedEvent started() {
		return new ApplicationStartedEvent(new SpringApplication(), new String[0], this.context, Duration.ZERO);
	}

	private static WebServerInitializedEvent webServerStarted(int port) {
		WebServer webServer = new WebServer() {

			@Override
			public void start() {
			}

			@Override
			public void stop() {
			}

			@Override
			public int getPort() {
				return port;
			}

		};
		return new WebServerInitializedEvent(webServer) {

			@Override
			public WebServerApplicationContext getApplicationContext() {
				return null;
			}

		};
	}

}
