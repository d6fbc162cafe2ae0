package io.github.startuptelemetry.it.support;

import java.util.List;

import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;

import static org.assertj.core.api.Assertions.assertThat;

/** Picking spans out of what an {@link OtlpReceiver} received. */
public final class Spans {

	private Spans() {
	}

	/** The one span called {@code name}; fails unless there is exactly one. */
	public static ReceivedSpan only(List<ReceivedSpan> spans, String name) {
		List<ReceivedSpan> named = named(spans, name);
		assertThat(named).as("spans named " + name).hasSize(1);
		return named.get(0);
	}

	public static List<ReceivedSpan> named(List<ReceivedSpan> spans, String name) {
		return spans.stream().filter((s) -> s.name().equals(name)).toList();
	}

	/** The spans one process exported, told apart by its {@code process.pid} resource attribute. */
	public static List<ReceivedSpan> ofProcess(List<ReceivedSpan> spans, long pid) {
		return spans.stream().filter((s) -> Long.toString(pid).equals(s.resourceAttribute("process.pid"))).toList();
	}

	/** How many root startup spans and stage spans arrived (bean spans are not stages). */
	public static long stageCount(List<ReceivedSpan> spans) {
		return spans.stream()
			.filter((s) -> s.name().equals("gym.server.startup") || s.attribute("nemo.gym.startup.stage") != null)
			.count();
	}

	/** Milliseconds from a span's start to its end. */
	public static long durationMs(ReceivedSpan span) {
		return (span.endNs() - span.startNs()) / 1_000_000;
	}

}
