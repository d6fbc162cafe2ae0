package io.github.startuptelemetry.it.support;

import java.util.Comparator;
import java.util.List;

import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;

import static org.assertj.core.api.Assertions.assertThat;

/** Assertions on received startup spans shared by the process tests. */
public final class SpanAssertions {

	private SpanAssertions() {
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

	/** The one span named {@code name}. */
	public static ReceivedSpan only(List<ReceivedSpan> spans, String name) {
		List<ReceivedSpan> named = spans.stream().filter((s) -> s.name().equals(name)).toList();
		assertThat(named).hasSize(1);
		return named.get(0);
	}

}
