package io.github.startuptelemetry.server;

import java.time.Duration;
import java.util.Map;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import io.github.startuptelemetry.contract.TimelineEndpoint;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.TimelineJson;

/**
 * {@code /actuator/startuptimeline}: this server's startup stages and its slow beans, and the trace
 * they were exported in, as {@link TimelineJson} writes them. Exposed only when the user exposes
 * it, like every Boot endpoint.
 */
@Endpoint(id = TimelineEndpoint.ID)
class StartupTimelineEndpoint {

	private static final Duration REPORT_WAIT = Duration.ofSeconds(5);

	private final ServerStartupReporter reporter;

	StartupTimelineEndpoint(ServerStartupReporter reporter) {
		this.reporter = reporter;
	}

	@ReadOperation
	public Map<String, Object> timeline() {
		// reported on the export thread just after ready: a probe that comes first waits for it, briefly
		ServerTimeline report = this.reporter.awaitTimeline(REPORT_WAIT);
		return (report != null) ? TimelineJson.write(report) : TimelineJson.notReady();
	}

}
