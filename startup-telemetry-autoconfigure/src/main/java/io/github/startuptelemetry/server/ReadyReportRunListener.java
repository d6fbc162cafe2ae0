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
 * Reports a server's startup once it accepts traffic, not while it is getting there. Boot flips
 * readiness to {@code ACCEPTING_TRAFFIC} only after every {@code ApplicationReadyEvent} listener
 * has returned, and the report (spans, per-stage histograms, the log line) took 20-60 ms: made
 * inside that event, it held readiness back and a supervisor saw every server that much later.
 * The timeline still ends at {@code ApplicationReadyEvent}, where {@link ServerStartupRecorder}
 * marks it; this run listener, ordered after Boot's own (which publishes the ready event and
 * then flips readiness), reports it right after, still before {@code SpringApplication.run}
 * returns. (A start that fails in a ready listener never gets here: the reporter reports when
 * the context closes.)
 * <p>
 * Registered through {@code spring.factories} (which instantiates it reflectively, through the
 * constructor Boot's run listeners have), so it runs in every application whatever the
 * conditions say; that is why it reads
 * {@code telemetry.enabled} itself: with telemetry off it touches nothing, not even the
 * reporter's class (which links the OpenTelemetry API).
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
