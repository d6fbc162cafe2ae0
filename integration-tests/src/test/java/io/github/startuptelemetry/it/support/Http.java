package io.github.startuptelemetry.it.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Plain HTTP calls to a server under test. */
public final class Http {

	private static final HttpClient client = HttpClient.newHttpClient();

	private Http() {
	}

	/** GET {@code url}; fails unless the answer is 200. */
	public static String get(String url) throws Exception {
		HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as("GET " + url).isEqualTo(200);
		return response.body();
	}

}
