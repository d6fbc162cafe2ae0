package io.github.startuptelemetry.server;

import java.util.List;

import io.github.startuptelemetry.timeline.Stage;

/**
 * What one server startup looked like, as reported at ready: the {@code startuptimeline}
 * endpoint's answer and what a supervisor reads back for its report. Holds no secrets: names,
 * times and ids only.
 *
 * @param serverName the server's name
 * @param serverType the server's type, or {@code null}
 * @param worker whether this process is a worker of a multi-process server
 * @param pid this process's id
 * @param traceId the startup trace's id, or {@code null} when no span was exported
 * @param spanId the id of this process's root startup span, or {@code null}
 * @param startEpochNs when the first stage began
 * @param readyEpochNs when the server became ready
 * @param stages contiguous stages, first to last
 * @param ignoredEnv env values that were present but unusable
 * @param beanSpans the slow beans and application steps of {@code beans_instantiated}
 */
public record ServerStartupReport(String serverName, String serverType, boolean worker, long pid, String traceId,
		String spanId, long startEpochNs, long readyEpochNs, List<Stage> stages, List<String> ignoredEnv,
		List<BeanSpan> beanSpans) {

	public ServerStartupReport {
		stages = List.copyOf(stages);
		ignoredEnv = List.copyOf(ignoredEnv);
		beanSpans = List.copyOf(beanSpans);
	}

	public double totalMs() {
		return (this.readyEpochNs - this.startEpochNs) / 1_000_000.0;
	}

	/** One line: the total and each stage in milliseconds. */
	public String summary() {
		StringBuilder line = new StringBuilder("Startup of '").append(this.serverName).append("'");
		if (this.serverType != null) {
			line.append(" (").append(this.serverType).append(")");
		}
		line.append(" took ").append(Math.round(totalMs())).append(" ms:");
		for (Stage stage : this.stages) {
			line.append(' ').append(stage.name()).append('=').append(Math.round(stage.durationMs())).append("ms");
		}
		if (this.traceId != null) {
			line.append(" [trace ").append(this.traceId).append(']');
		}
		return line.toString();
	}

}
