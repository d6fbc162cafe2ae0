package io.github.startuptelemetry.server;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;

import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;

/**
 * Reports a server's startup once it accepts traffic, not while it is getting there: ordered after
 * Boot's own run listener, which flips readiness after every {@code ApplicationReadyEvent} listener
 * has returned. Registered through {@code spring.factories}, so it reads {@code telemetry.enabled}
 * itself and with telemetry off touches nothing.
 */
class ReadyReportRunListener implements SpringApplicationRunListener, Ordered {

	private static final Log logger = LogFactory.getLog(ReadyReportRunListener.class);

	ReadyReportRunListener(SpringApplication application, String[] args) {
	}

	@Override
	public void ready(ConfigurableApplicationContext context, Duration timeTaken) {
		// not support.Guarded: with telemetry off, this gate loads no class beyond itself and the switch
		try {
			if (TelemetrySwitch.enabled(context.getEnvironment())) {
				// no method reference: its first use would link a lambda before the ready callback goes out
				ServerStartupReporter reporter = context.getBeanProvider(ServerStartupReporter.class).getIfAvailable();
				if (reporter != null) {
					reporter.reportPending();
				}
			}
		}
		catch (Exception | LinkageError ex) {
			logger.debug("Could not report the startup", ex);
		}
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
