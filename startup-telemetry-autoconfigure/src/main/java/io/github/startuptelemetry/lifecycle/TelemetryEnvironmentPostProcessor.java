package io.github.startuptelemetry.lifecycle;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The one environment post-processor every process runs, on Boot 4: it applies
 * {@link TelemetryEnvironmentDefaults}. On Boot 3 that is {@link Boot3TelemetryEnvironmentPostProcessor}.
 */
class TelemetryEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	private final Log logger;

	TelemetryEnvironmentPostProcessor(DeferredLogFactory logFactory) {
		this.logger = logFactory.getLog(TelemetryEnvironmentDefaults.class);
	}

	/** After Boot's own, so that {@code application.yml} and the command line are known. */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		TelemetryEnvironmentDefaults.apply(environment, application, this.logger);
	}

}
