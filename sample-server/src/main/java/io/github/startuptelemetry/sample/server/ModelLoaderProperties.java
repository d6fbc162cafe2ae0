package io.github.startuptelemetry.sample.server;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** The sample's stand-in for loading model weights. */
@ConfigurationProperties("sample.model-loader")
public class ModelLoaderProperties {

	/** How long loading the model takes. */
	private Duration duration = Duration.ofMillis(1500);

	/** How long warming the loaded model up takes (an application startup step of its own). */
	private Duration warmup = Duration.ofMillis(200);

	/** Name of the model to "load". */
	private String model = "tiny-llm";

	public Duration getDuration() {
		return this.duration;
	}

	public void setDuration(Duration duration) {
		this.duration = duration;
	}

	public Duration getWarmup() {
		return this.warmup;
	}

	public void setWarmup(Duration warmup) {
		this.warmup = warmup;
	}

	public String getModel() {
		return this.model;
	}

	public void setModel(String model) {
		this.model = model;
	}

}
