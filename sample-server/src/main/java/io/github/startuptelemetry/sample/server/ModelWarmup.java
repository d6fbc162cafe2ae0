package io.github.startuptelemetry.sample.server;

import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;
import org.springframework.stereotype.Component;

/**
 * Warms the loaded model up before the server takes traffic, timed as an application startup
 * step of its own ({@value #STEP}): the starter shows it as a span under beans_instantiated,
 * the JVM counterpart of NeMo RL's {@code traced_worker_init}.
 */
@Component
class ModelWarmup {

	static final String STEP = "sample.model.warmup";

	ModelWarmup(ModelLoader modelLoader, ModelLoaderProperties properties, ApplicationStartup applicationStartup)
			throws InterruptedException {
		StartupStep step = applicationStartup.start(STEP).tag("model", modelLoader.model());
		try {
			Thread.sleep(properties.getWarmup().toMillis());
		}
		finally {
			step.end();
		}
	}

}
