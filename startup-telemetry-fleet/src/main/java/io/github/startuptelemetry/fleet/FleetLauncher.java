package io.github.startuptelemetry.fleet;

import java.util.List;
import java.util.function.IntSupplier;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;

import io.github.startuptelemetry.contract.ExitCodes;
import io.github.startuptelemetry.launch.internal.FreePorts;
import io.github.startuptelemetry.launch.ServerLauncher;
import io.github.startuptelemetry.supervisor.ChildTelemetryEnvironment;
import io.github.startuptelemetry.supervisor.SupervisorStartup;

/**
 * Runs the configured fleet once the supervisor itself is ready, so that its own Spring stages
 * come first in {@code gym.startup}, and does not return until the fleet is ready; a failed fleet
 * fails the supervisor, and closing it stops every server.
 */
class FleetLauncher implements ApplicationListener<ApplicationReadyEvent>, ApplicationContextAware, DisposableBean {

	private final FleetRun run;

	private final boolean exitWhenReady;

	private final SupervisorStartup startup;

	/** The JVM startup caches, or {@code null} when they are off. */
	private final @Nullable FleetJvmCache jvmCache;

	private ApplicationContext context;

	FleetLauncher(SupervisorProperties properties, SupervisorStartup startup, List<ServerLauncher> launchers,
			@Nullable String runId) {
		this(properties, startup, launchers, runId, null);
	}

	/**
	 * @param childEnvironment the settings every server inherits, for the JVM caches' compare
	 * rounds (the startup's own servers get them from {@code startup}), or {@code null}
	 */
	FleetLauncher(SupervisorProperties properties, SupervisorStartup startup, List<ServerLauncher> launchers,
			@Nullable String runId, @Nullable ChildTelemetryEnvironment childEnvironment) {
		this.startup = startup;
		Launchers chosen = new Launchers(launchers, properties);
		// never twice in a run, from below the ephemeral range
		IntSupplier ports = FreePorts.belowEphemeralRange();
		this.jvmCache = FleetJvmCache.of(properties, chosen, ports, runId, childEnvironment);
		this.run = (this.jvmCache == null) ? new FleetRun(properties, startup, chosen, ports, runId)
				: new FleetRun(properties, startup, chosen, ports, this.jvmCache.commands(true),
						new FleetReport(properties.getReport(), runId, this.jvmCache::report));
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
		if (this.jvmCache != null) {
			this.jvmCache.beforeStartup(this.startup);
		}
		boolean ready = this.run.launch();
		if (this.jvmCache != null) {
			this.jvmCache.afterStartup(this.startup);
		}
		if (ready && this.exitWhenReady) {
			// a startup that regressed against its baseline is ready but fails a CI job
			boolean regressed = this.run.regressed();
			System.exit(SpringApplication.exit(this.context,
					() -> regressed ? ExitCodes.STARTUP_REGRESSED : 0));
		}
	}

	@Override
	public void destroy() {
		if (this.jvmCache != null) {
			this.jvmCache.stop();
		}
		this.run.stop();
	}

}
