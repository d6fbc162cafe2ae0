package io.github.startuptelemetry.lifecycle;

import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

import io.github.startuptelemetry.internal.config.TelemetrySwitch;

/**
 * What the environment a process was started with means for its telemetry, as defaults of the
 * lowest precedence: NeMo Gym's and nemo-lens's settings become ours, the standard
 * {@code OTEL_EXPORTER_OTLP_*} variables point Boot's exporters ({@link OtlpExportDefaults}), and
 * the process's identity goes on its resource ({@link ResourceAttributeDefaults}). One
 * post-processor for all three, in that order, because each reads what the one before it
 * settled, and because it runs in every process: with telemetry off it is the only class of
 * these it loads. Nothing here may fail the application.
 */
class TelemetryEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	private final Log logger;

	TelemetryEnvironmentPostProcessor(DeferredLogFactory logFactory) {
		this.logger = logFactory.getLog(TelemetryEnvironmentPostProcessor.class);
	}

	/** After Boot's own, so that {@code application.yml} and the command line are known. */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!TelemetrySwitch.enabled(environment)) {
			return;
		}
		Map<String, String> env = (Map) environment.getSystemEnvironment();
		new OtlpExportDefaults(this.logger).apply(environment, env);
		new ResourceAttributeDefaults(this.logger).apply(environment, env, ProcessHandle.current().pid());
	}

}
