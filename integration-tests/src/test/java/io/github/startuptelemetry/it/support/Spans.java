package io.github.startuptelemetry.it.support;

import java.util.Comparator;
import java.util.List;

import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;

import static org.assertj.core.api.Assertions.assertThat;

/** Picking spans out of what an {@link OtlpReceiver} received, and the assertions the process tests share. */
public final class Spans {

	private Spans() {
	}

	/** The stage spans ({@code <root>.<stage>}) directly under {@code root}, in time order. */
	public static List<ReceivedSpan> stages(List<ReceivedSpan> spans, ReceivedSpan root) {
		List<ReceivedSpan> stages = spans.stream()
			.filter((s) -> s.name().startsWith(root.name() + ".") && s.parentSpanId().equals(root.spanId())
					&& s.attribute("nemo.gym.startup.stage") != null)
			.sorted(Comparator.comparingLong(ReceivedSpan::startNs).thenComparingLong(ReceivedSpan::endNs))
			.toList();
		assertThat(stages).isNotEmpty();
		return stages;
	}

	/** Each stage starts where the previous ended; together they cover the root exactly. */
	public static void assertContiguous(List<ReceivedSpan> stages, ReceivedSpan root) {
		assertThat(stages.get(0).startNs()).isEqualTo(root.startNs());
		for (int i = 1; i < stages.size(); i++) {
			assertThat(stages.get(i).startNs()).as("start of " + stages.get(i).name())
				.isEqualTo(stages.get(i - 1).endNs());
		}
		assertThat(stages.get(stages.size() - 1).endNs()).isEqualTo(root.endNs());
		assertThat(stages).allSatisfy((stage) -> assertThat(stage.endNs()).isGreaterThanOrEqualTo(stage.startNs()));
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
