package io.github.startuptelemetry.timeline.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.json.BasicJsonParser;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.contract.JsonFields;
import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;
import io.github.startuptelemetry.timeline.TimelineJson;

/**
 * A ready callback as a server sends it ({@link JsonText#compact}, no JSON library) and its
 * supervisor reads it (Boot's {@link BasicJsonParser}, which reads every literal as text):
 * whatever goes out comes back, and a body the supervisor could not act on reads as empty.
 * (That parser decodes only the {@code \"} and {@code \\} escapes, and a nested value's
 * twice: a control character or a backslash inside a list comes back without its backslash;
 * our texts have neither.)
 */
class ReadyCallbackTest {

	private static final ServerTimeline TIMELINE = new ServerTimeline("model-0", "model", false, 4242,
			"4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", 1_000_000_000L, 4_000_000_000L,
			List.of(new Stage("interpreter_start", 900_000_000L, 1_000_000_000L),
					new Stage("main_start", 1_000_000_000L, 4_000_000_000L)),
			List.of("a \"quoted\" line, é"), List.of(new StepTiming("spring.beans.instantiate", "loader",
					"com.example.Loader", 2_000_000_000L, 3_000_000_000L, 1_000_000_000L, List.of())));

	private static final ReadyCallback CALLBACK = new ReadyCallback("model-0", 4242, "node-7", 8123,
			4_000_000_123L, new ClockOffset(-5_000_000_000L, 1_250_000L), TIMELINE);

	@Test
	void whatAServerSendsItsSupervisorReadsBack() {
		assertThat(ReadyCallback.read(new BasicJsonParser().parseMap(JsonText.compact(CALLBACK.write()))))
			.contains(CALLBACK);
	}

	@Test
	void withoutAClockReadingTheClockReadsAsUnknown() {
		ReadyCallback noClock = new ReadyCallback("a", 1, "", 0, 5, null, TIMELINE);
		assertThat(ReadyCallback.read(new BasicJsonParser().parseMap(JsonText.compact(noClock.write()))))
			.contains(noClock);
	}

	@Test
	void theTimelineRoundTripsAsTextOnItsOwn() {
		assertThat(TimelineJson.read(new BasicJsonParser().parseMap(JsonText.compact(TimelineJson.write(TIMELINE)))))
			.contains(TIMELINE);
	}

	@Test
	void aBodyWithoutNameTimelineOrAUsablePortReadsAsEmpty() {
		assertThat(ReadyCallback.read(null)).isEmpty();
		assertThat(ReadyCallback.read(with(JsonFields.SERVER, " "))).isEmpty();
		assertThat(ReadyCallback.read(with(JsonFields.TIMELINE, "none"))).isEmpty();
		assertThat(ReadyCallback.read(with(JsonFields.PORT, 65536))).isEmpty();
		assertThat(ReadyCallback.read(with(JsonFields.PORT, -1))).isEmpty();
		assertThat(ReadyCallback.read(with(JsonFields.PORT, "eighty"))).isEmpty();
	}

	@Test
	void aNegativeUncertaintyMakesTheClockUnknownNotTheCallbackUnusable() {
		assertThat(ReadyCallback.read(with(JsonFields.CLOCK_UNCERTAINTY_NS, -1))).map(ReadyCallback::clock)
			.isEmpty();
		assertThat(ReadyCallback.read(with(JsonFields.CLOCK_UNCERTAINTY_NS, -1))).isPresent();
	}

	@Test
	void aStageWithoutStartIsLeftOutOfTheTimelineOrTheTimelineIsUnusable() {
		Map<String, Object> body = new LinkedHashMap<>(CALLBACK.write());
		Map<String, Object> timeline = new LinkedHashMap<>(TimelineJson.write(TIMELINE));
		timeline.put(JsonFields.READY_EPOCH_NS, "soon");
		body.put(JsonFields.TIMELINE, timeline);
		assertThat(ReadyCallback.read(new BasicJsonParser().parseMap(JsonText.compact(body)))).isEmpty();
	}

	private static Map<String, Object> with(String field, Object value) {
		Map<String, Object> body = new LinkedHashMap<>(CALLBACK.write());
		body.put(field, value);
		return body;
	}

}
