package io.github.startuptelemetry.report.render;

import java.util.List;

import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/** A server's own timeline for a report row, with only what the reports draw. */
public final class TestTimelines {

	private TestTimelines() {
	}

	public static ServerTimeline of(List<Stage> stages, long readyNs, List<StepTiming> steps) {
		long start = stages.isEmpty() ? readyNs : stages.get(0).startNs();
		return new ServerTimeline("server", null, false, 1, null, null, start, readyNs, stages, List.of(), steps);
	}

	/** A slow bean, its own time its whole duration less its children's. */
	public static StepTiming bean(String name, String type, long startNs, long endNs, List<StepTiming> children) {
		long contained = children.stream().mapToLong(StepTiming::durationNs).sum();
		return new StepTiming("spring.beans.instantiate", name, type, startNs, endNs, endNs - startNs - contained,
				children);
	}

}
