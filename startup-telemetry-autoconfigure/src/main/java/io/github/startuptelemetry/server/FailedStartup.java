package io.github.startuptelemetry.server;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanContext;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.autoconfigure.internal.EarlyTelemetryProperties;
import io.github.startuptelemetry.export.internal.StartupExport;
import io.github.startuptelemetry.lifecycle.internal.GymServerType;
import io.github.startuptelemetry.internal.BootLine;
import io.github.startuptelemetry.internal.DaemonThreads;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.timeline.Stage;

/**
 * Explains a startup that failed ({@code ApplicationFailedEvent}): one line naming the stage it
 * failed in and what it reached, and, with an endpoint configured, those stages as spans with ERROR
 * status, through the starter's own SDK, bounded by {@code telemetry.shutdown-timeout}. Loaded only
 * when a startup fails.
 */
final class FailedStartup {

	private static final Log logger = LogFactory.getLog(ServerStartupReporter.class);

	/** A server's own stages, in the order they end. */
	private static final List<String> ORDER = List.of(StageNames.MAIN_START, StageNames.ENVIRONMENT_PREPARED,
			StageNames.CONTEXT_PREPARED, StageNames.BEANS_INSTANTIATED, StageNames.WEB_SERVER_STARTED,
			StageNames.CONTEXT_REFRESHED, StageNames.APPLICATION_STARTED, StageNames.APPLICATION_READY);

	private FailedStartup() {
	}

	/** Report {@code timeline}, which {@code event} ended. */
	static void report(ServerStartupTimeline timeline, ApplicationFailedEvent event) {
		ConfigurableApplicationContext context = event.getApplicationContext();
		ConfigurableEnvironment environment = context.getEnvironment();
		String failed = failedStage(timeline.lastStageName(), context);
		timeline.mark(failed, WallClock.nowNs());
		TelemetryProperties.Startup startup = EarlyTelemetryProperties.bind(environment, TelemetryProperties.STARTUP,
				Bindable.ofInstance(new TelemetryProperties.Startup()), new TelemetryProperties.Startup(), logger);
		String serverName = StartupTelemetryAutoConfiguration.serverName(startup, environment);
		String error = describe(event.getException());
		String traceId = null;
		StartupExport export = StartupExport.standalone(environment, System.getenv());
		if (export.settings().exportsTraces()) {
			String serverType = (startup.getServerType() != null) ? startup.getServerType()
					: GymServerType.of(System.getenv());
			traceId = export(export, timeline, serverName, serverType, failed, error,
					EarlyTelemetryProperties.bind(environment, TelemetryProperties.SHUTDOWN_TIMEOUT,
							Bindable.of(java.time.Duration.class), new TelemetryProperties().getShutdownTimeout(), logger)
						.toNanos());
		}
		if (startup.isLogSummary()) {
			// INFO: Boot logs the failure itself; this line only says how far the startup got
			logger.info(line(serverName, timeline, failed, traceId));
		}
	}

	/**
	 * The spans, on a thread of their own, built, exported and flushed within the budget; the
	 * trace id, or {@code null} when they did not get out in time.
	 */
	private static @Nullable String export(StartupExport export, ServerStartupTimeline timeline, String serverName,
			@Nullable String serverType, String failed, String error, long budgetNs) {
		long deadline = System.nanoTime() + budgetNs;
		String[] traceId = new String[1];
		Thread thread = DaemonThreads.named("startup-telemetry-failed").newThread(() -> {
			try {
				OpenTelemetry openTelemetry = export.forFailedStartup();
				if (openTelemetry != null) {
					SpanContext root = ServerSpans.export(openTelemetry, serverName, serverType, timeline, null, failed,
							error);
					export.close(deadline);
					traceId[0] = (root != null) ? root.getTraceId() : null;
				}
			}
			catch (Exception | LinkageError ex) {
				logger.debug("Could not export the failed startup", ex);
			}
		});
		thread.start();
		try {
			TimeUnit.NANOSECONDS.timedJoin(thread, Math.max(0, deadline - System.nanoTime()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return thread.isAlive() ? null : traceId[0];
	}

	/** The stage after the last reached: the web server's only where there is one. */
	static String failedStage(String lastReached, ConfigurableApplicationContext context) {
		int at = ORDER.indexOf(lastReached);
		if (at < 0 || at + 1 >= ORDER.size()) {
			return StageNames.MAIN_START.equals(lastReached) ? StageNames.ENVIRONMENT_PREPARED
					: StageNames.APPLICATION_READY;
		}
		String next = ORDER.get(at + 1);
		if (next.equals(StageNames.WEB_SERVER_STARTED) && !webServer(context)) {
			return StageNames.CONTEXT_REFRESHED;
		}
		return next;
	}

	private static boolean webServer(ConfigurableApplicationContext context) {
		ClassLoader loader = FailedStartup.class.getClassLoader();
		return ClassUtils.isPresent(BootLine.WEB_SERVER_APPLICATION_CONTEXT, loader)
				&& ClassUtils.resolveClassName(BootLine.WEB_SERVER_APPLICATION_CONTEXT, loader).isInstance(context);
	}

	/** What failed, in one line: the exception's type and message. */
	private static String describe(@Nullable Throwable exception) {
		if (exception == null) {
			return "startup failed";
		}
		String message = exception.getMessage();
		String type = exception.getClass().getSimpleName();
		return (message != null && !message.isBlank()) ? type + ": " + message.lines().findFirst().orElse("") : type;
	}

	/** {@code Startup of 'x' failed in s after N ms; reached: a=1ms b=2ms [trace id]}. */
	static String line(String serverName, ServerStartupTimeline timeline, String failed, @Nullable String traceId) {
		StringBuilder line = new StringBuilder("Startup of '").append(serverName)
			.append("' failed in ")
			.append(failed)
			.append(" after ")
			.append(Math.round((timeline.endNs() - timeline.startNs()) / 1_000_000.0))
			.append(" ms; reached:");
		for (Stage stage : timeline.stages()) {
			if (!stage.name().equals(failed)) {
				line.append(' ').append(stage.name()).append('=').append(Math.round(stage.durationMs())).append("ms");
			}
		}
		line.append(' ').append(failed).append('=')
			.append(Math.round(timeline.stages().get(timeline.stages().size() - 1).durationMs()))
			.append("ms (failed)");
		line.append((traceId != null) ? " [trace " + traceId + "]" : " [trace not exported]");
		return line.toString();
	}

}
