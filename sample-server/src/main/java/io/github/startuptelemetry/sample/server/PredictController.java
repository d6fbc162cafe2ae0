package io.github.startuptelemetry.sample.server;

import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The sample's one piece of business: answer a prompt with the loaded model's name. */
@RestController
class PredictController {

	private final ModelLoader modelLoader;

	PredictController(ModelLoader modelLoader) {
		this.modelLoader = modelLoader;
	}

	@GetMapping("/predict")
	Map<String, Object> predict(@RequestParam(defaultValue = "hello") String prompt) {
		return Map.of("model", this.modelLoader.model(), "prompt", prompt, "completion", prompt.toUpperCase());
	}

}
