package io.github.startuptelemetry.sample.server;

import org.springframework.stereotype.Component;

/**
 * Loads "the model" when the context starts, as a real inference server would load weights:
 * the slow bean that makes beans_instantiated worth looking at.
 */
@Component
public class ModelLoader {

	private final String model;

	private final long loadedInMs;

	public ModelLoader(ModelLoaderProperties properties) throws InterruptedException {
		long start = System.nanoTime();
		Thread.sleep(properties.getDuration().toMillis());
		this.model = properties.getModel();
		this.loadedInMs = (System.nanoTime() - start) / 1_000_000;
	}

	public String model() {
		return this.model;
	}

	public long loadedInMs() {
		return this.loadedInMs;
	}

}
