package io.github.startuptelemetry.sample.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;
import org.springframework.stereotype.Component;

/**
 * Reads what it needs from another server of its fleet while the context starts, as a service
 * reads a config server ({@code sample.dependency.url}, named {@code sample.dependency.name}),
 * and fails its startup when that server does not answer. The call is an application step
 * named {@code startup.dependency.<name>}: how a server tells its supervisor when it first
 * needed that dependency, so that the supervisor's report can say how much of its startup did
 * not.
 */
@Component
@ConditionalOnProperty("sample.dependency.url")
class DependencyClient {

	private static final Log logger = LogFactory.getLog(DependencyClient.class);

	private final String answer;

	DependencyClient(@Value("${sample.dependency.url}") String url,
			@Value("${sample.dependency.name:dependency}") String name, ApplicationStartup applicationStartup)
			throws IOException, InterruptedException {
		StartupStep step = applicationStartup.start("startup.dependency." + name);
		try {
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
						HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() / 100 != 2) {
				throw new IllegalStateException(name + " answered " + response.statusCode() + " at " + url);
			}
			this.answer = response.body();
		}
		finally {
			step.end();
		}
		logger.info("Read " + this.answer.length() + " characters from " + name + " at " + url);
	}

	String answer() {
		return this.answer;
	}

}
