package io.github.startuptelemetry.lifecycle;

import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

import io.github.startuptelemetry.internal.BootLine;

/**
 * The same post-processor on Boot 3, registered under the key and interface Boot 3 reads (Boot 4
 * reads them too, deprecated: there this one does nothing). It must never name a type of Boot 4's.
 */
@SuppressWarnings("removal")
class Boot3TelemetryEnvironmentPostProcessor implements org.springframework.boot.env.EnvironmentPostProcessor, Ordered {

	private final @Nullable Log logger;

	Boot3TelemetryEnvironmentPostProcessor(DeferredLogFactory logFactory) {
		// Boot 4's mark looked up here by its inlined name, so that a server with telemetry off loads no BootLine
		ClassLoader loader = Boot3TelemetryEnvironmentPostProcessor.class.getClassLoader();
		boolean boot4 = loader != null && loader.getResource(BootLine.BOOT_4_MARK) != null;
		this.logger = boot4 ? null : logFactory.getLog(TelemetryEnvironmentDefaults.class);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (this.logger != null) {
			TelemetryEnvironmentDefaults.apply(environment, application, this.logger);
		}
	}

}
