package io.github.startuptelemetry.supervisor;

import java.util.List;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;

/**
 * Runs the configured fleet once the supervisor itself is ready, so that its own Spring
 * stages come first in {@code gym.startup}, up to {@code application_ready}. The supervisor's
 * startup does not return until the fleet is ready; a failed fleet fails it (exit code 1), and
 * closing it (SIGTERM, SIGINT) stops every server, aborting a startup still under way.
 */
class FleetLauncher implements ApplicationListener<ApplicationReadyEvent>, ApplicationContextAware, DisposableBean {

	private final FleetRun run;

	private final boolean exitWhenReady;

	private ApplicationContext context;

	FleetLauncher(SupervisorProperties properties, SupervisorStartup startup, List<ServerLauncher> launchers) {
		this.run = new FleetRun(properties, startup, new Launchers(launchers, properties), FleetPlan.freePorts());
		this.exitWhenReady = properties.isExitWhenReady();
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
