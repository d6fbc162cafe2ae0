package io.github.startuptelemetry.sample.server;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * Calls another server and returns its answer, as a Gym server calls a model server: through
 * Boot's {@link RestClient.Builder}, whose calls carry the caller's trace context
 * ({@code traceparent}), so the other server continues this trace. The call runs inside an
 * observation of its own ({@code sample.relay}), which becomes the client span's parent.
 */
@RestController
class RelayController {

	private final RestClient restClient;

	private final ObservationRegistry observations;

	RelayController(RestClient.Builder restClientBuilder, ObservationRegistry observations) {
		this.restClient = restClientBuilder.build();
		this.observations = observations;
	}

	@GetMapping("/relay")
	String relay(@RequestParam String url) {
		return Observation.createNotStarted("sample.relay", this.observations)
			.observe(() -> this.restClient.get().uri(url).retrieve().body(String.class));
	}

}
