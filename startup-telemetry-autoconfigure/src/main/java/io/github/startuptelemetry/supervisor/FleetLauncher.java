package io.github.startuptelemetry.supervisor;

import java.util.Map;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

/**
 * Runs the configured fleet once the supervisor itself is ready, so that its own Spring
 * stages come first in {@code gym.startup}, up to {@code application_ready}. The supervisor's
 * startup does not return until the fleet is ready; a failed fleet fails it (exit code 1), and
 * closing it (SIGTERM, SIGINT) stops every server, aborting a startup still under way.
 */
class FleetLauncher implements ApplicationListener<ApplicationReadyEvent>, ApplicationContextAware, DisposableBean {

	static final String ZIPKIN_ENDPOINT_PROPERTY = "telemetry.export.zipkin.endpoint";

	static final String ZIPKIN_ENDPOINT_ENV = "TELEMETRY_EXPORT_ZIPKIN_ENDPOINT";

	private final FleetRun run;

	private final boolean exitWhenReady;

	private ApplicationContext context;

	FleetLauncher(SupervisorProperties properties, SupervisorStartup startup, Environment environment) {
		this.run = new FleetRun(properties, startup, FleetPlan.freePorts(), exportEnv(environment, System.getenv()));
		this.exitWhenReady = properties.isExitWhenReady();
	}

	/**
	 * The supervisor's Zipkin endpoint for its servers, so that the whole trace lands where the
	 * supervisor's part does; a variable the supervisor's own environment has already reaches
	 * them unchanged, so it is never overwritten.
	 */
	static Map<String, String> exportEnv(Environment environment, Map<String, String> processEnv) {
		String endpoint = environment.getProperty(ZIPKIN_ENDPOINT_PROPERTY);
		if (endpoint == null || endpoint.isBlank() || processEnv.containsKey(ZIPKIN_ENDPOINT_ENV)) {
			return Map.of();
		}
		return Map.of(ZIPKIN_ENDPOINT_ENV, endpoint);
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		if (event.getApplicationContext() != this.context) {
			return;
		}
		if (this.run.launch() && this.exitWhenReady) {
			System.exit(SpringApplication.exit(this.context));
		}
	}

	@Override
	public void destroy() {
		this.run.stop();
	}

}
