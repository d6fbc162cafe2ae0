package io.github.startuptelemetry.server;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import io.github.startuptelemetry.timeline.Stage;

/**
 * {@code /actuator/startuptimeline}: this server's startup stages and its slow beans
 * ({@code beanSpans}, nested), in epoch nanoseconds and milliseconds, and the trace they were
 * exported in. Exposed only when the user exposes it,
 * like every Boot endpoint.
 */
@Endpoint(id = "startuptimeline")
public class StartupTimelineEndpoint {

	private final ServerStartupReporter reporter;

	public StartupTimelineEndpoint(ServerStartupReporter reporter) {
		this.reporter = reporter;
	}

	@ReadOperation
	public Map<String, Object> timeline() {
		ServerStartupReport report = this.reporter.lastReport();
		Map<String, Object> body = new LinkedHashMap<>();
		if (report == null) {
			body.put("ready", false);
			return body;
		}
		body.put("ready", true);
		body.put("server", report.serverName());
		body.put("type", report.serverType());
		body.put("worker", report.worker());
		body.put("pid", report.pid());
		body.put("traceId", report.traceId());
		body.put("spanId", report.spanId());
		body.put("startEpochNs", report.startEpochNs());
		body.put("readyEpochNs", report.readyEpochNs());
		body.put("totalMs", report.totalMs());
		body.put("stages", report.stages().stream().map(StartupTimelineEndpoint::stage).toList());
		body.put("ignoredEnv", report.ignoredEnv());
		body.put("beanSpans", report.beanSpans().stream().map(StartupTimelineEndpoint::beanSpan).toList());
		return body;
	}

	private static Map<String, Object> stage(Stage stage) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("name", stage.name());
		body.put("startEpochNs", stage.startNs());
		body.put("endEpochNs", stage.endNs());
		body.put("durationMs", stage.durationMs());
		return body;
	}

	private static Map<String, Object> beanSpan(BeanSpan span) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("name", span.label());
		body.put("step", span.step());
		body.put("bean", span.beanName());
		body.put("type", span.beanType());
		body.put("startEpochNs", span.startNs());
		body.put("endEpochNs", span.endNs());
		body.put("durationMs", span.durationMs());
		body.put("selfMs", span.selfMs());
		body.put("children", span.children().stream().map(StartupTimelineEndpoint::beanSpan).toList());
		return body;
	}

}
