package io.github.startuptelemetry.sample.server;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** The sample's stand-in for loading model weights. */
@ConfigurationProperties("sample.model-loader")
public class ModelLoaderProperties {

	/** How long loading the model takes. */
	private Duration duration = Duration.ofMillis(1500);

	/** Name of the model to "load". */
	private String model = "tiny-llm";

	public Duration getDuration() {
		return this.duration;
	}

	public void setDuration(Duration duration) {
		this.duration = duration;
	}

	public String getModel() {
		return this.model;
	}

	public void setModel(String model) {
		this.model = model;
	}

}
