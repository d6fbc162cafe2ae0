package io.github.startuptelemetry.timeline;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.json.BasicJsonParser;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.contract.JsonFields;
import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.timeline.internal.ReadyCallback;

/**
 * The timeline JSON as a server writes it and its supervisor reads it: whatever goes out comes
 * back, through a real JSON text and either of the parsers a supervisor may have.
 */
class TimelineJsonTest {

	private static final StepTiming TOKENIZER = new StepTiming("spring.beans.instantiate", "tokenizer",
			"com.example.Tokenizer", 2_500_000_000L, 2_900_000_000L, 400_000_000L, List.of());

	private static final StepTiming WARMUP = new StepTiming("sample.model.warmup", null, null, 3_000_000_000L,
			3_200_123_456L, 200_123_456L, List.of());

	private static final StepTiming MODEL_LOADER = new StepTiming("spring.beans.instantiate", "modelLoader",
			"com.example.ModelLoader", 2_400_000_000L, 3_800_000_000L, 1_000_000_000L, List.of(TOKENIZER), 612_345_000L);

	private static final ServerTimeline TIMELINE = new ServerTimeline("model-0", "model", false, 4242,
			"4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", 1_000_000_000L, 4_000_000_000L,
			List.of(new Stage("main_start", 1_000_000_000L, 2_000_000_000L),
					new Stage("beans_instantiated", 2_000_000_000L, 4_000_000_000L,
							new JvmCounters(2_812_345_000L, 41, 3, 230, 5123))),
			List.of("NEMO_GYM_STARTUP_SPAWN_NS: 5 ms after JVM start (clock skew?)"), List.of(MODEL_LOADER, WARMUP));

	@Test
	void theWarmUpTimelineRunsEveryPartOfTheDocumentAndReadsBack() {
		ServerTimeline warmUp = TimelineJson.warmUpTimeline();
		assertThat(warmUp.stages()).allSatisfy((stage) -> assertThat(stage.counters()).isPresent());
		assertThat(warmUp.steps()).anySatisfy((step) -> assertThat(step.children()).isNotEmpty());
		assertThat(warmUp.ignoredEnv()).isNotEmpty();
		assertThat(warmUp.jvm()).isNotNull();
		assertThat(TimelineJson.read(JsonText.parseObject(JsonText.compact(TimelineJson.write(warmUp))))).contains(warmUp);
	}

	@Test
	void whatAServerWritesItsSupervisorReadsBack() {
		assertThat(TimelineJson.read(TimelineJson.write(TIMELINE))).contains(TIMELINE);
	}

	@Test
	void aStepsThreadCpuTimeIsWrittenWhenKnownAndReadBack() {
		Map<String, Object> loader = TimelineJson.steps(List.of(MODEL_LOADER)).get(0);
		assertThat(loader).containsEntry("threadCpuMs", 612.345);
		assertThat(TimelineJson.steps(List.of(TOKENIZER)).get(0)).doesNotContainKey("threadCpuMs");
		assertThat(TimelineJson.read(TimelineJson.write(TIMELINE)).orElseThrow().steps().get(0).threadCpuNs())
			.isEqualTo(612_345_000L);
	}

	@Test
	void alsoAsTextThroughBootsBasicParserWhichReadsLiteralsAsText() {
		assertThat(TimelineJson.read(new BasicJsonParser().parseMap(json(TimelineJson.write(TIMELINE)))))
			.contains(TIMELINE);
	}

	@Test
	void aWorkerWithoutTypeOrTraceRoundTrips() {
		ServerTimeline worker = new ServerTimeline("model-0", null, true, 7, null, null, 10, 30,
				List.of(new Stage("worker_start", 10, 20), new Stage("main_start", 20, 30)), List.of(), List.of());
		assertThat(TimelineJson.read(TimelineJson.write(worker))).contains(worker);
		assertThat(TimelineJson.read(new BasicJsonParser().parseMap(json(TimelineJson.write(worker))))).contains(worker);
	}

	@Test
	void aStageWithoutCountersOrWithUnreadableOnesIsKeptWithout() {
		Map<String, Object> body = TimelineJson.write(TIMELINE);
		List<Map<String, Object>> stages = new java.util.ArrayList<>();
		for (Object stage : (List<?>) body.get("stages")) {
			Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) stage);
			copy.put("jvm", "not an object");
			stages.add(copy);
		}
		body.put("stages", stages);
		assertThat(TimelineJson.read(body)).hasValueSatisfying((timeline) -> {
			assertThat(timeline.stages()).extracting(Stage::name).containsExactly("main_start", "beans_instantiated");
			assertThat(timeline.stages()).extracting(Stage::jvm).containsOnlyNulls();
		});
	}

	@Test
	void aCounterTheJvmDidNotOfferIsLeftOutAndReadsUnavailable() {
		ServerTimeline partial = new ServerTimeline("s", null, false, 1, null, null, 0, 10,
				List.of(new Stage("main_start", 0, 10, new JvmCounters(JvmCounters.UNAVAILABLE, 0, 0, -1, 9))),
				List.of(), List.of());
		Map<String, Object> body = TimelineJson.write(partial);
		assertThat(json(body)).doesNotContain("cpuMs").doesNotContain("jitMs").contains("\"classesLoaded\":9");
		assertThat(TimelineJson.read(body)).contains(partial);
	}

	@Test
	void notReadyIsNoTimeline() {
		assertThat(TimelineJson.isReady(TimelineJson.notReady())).isFalse();
		assertThat(TimelineJson.read(TimelineJson.notReady())).isEmpty();
		assertThat(TimelineJson.read(null)).isEmpty();
	}

	@Test
	void withoutStagesOrReadyTimeThereIsNoTimeline() {
		Map<String, Object> body = new LinkedHashMap<>(TimelineJson.write(TIMELINE));
		body.remove(JsonFields.STAGES);
		assertThat(TimelineJson.read(body)).isEmpty();
		body = new LinkedHashMap<>(TimelineJson.write(TIMELINE));
		body.put(JsonFields.READY_EPOCH_NS, "soon");
		assertThat(TimelineJson.read(body)).isEmpty();
	}

	@Test
	void anUnreadableStepIsLeftOutAndTheRestKept() {
		Map<String, Object> body = new LinkedHashMap<>(TimelineJson.write(TIMELINE));
		List<Object> steps = new java.util.ArrayList<>((List<?>) body.get(JsonFields.BEAN_SPANS));
		steps.add(0, Map.of(JsonFields.NAME, "x", JsonFields.START_EPOCH_NS, "soon"));
		body.put(JsonFields.BEAN_SPANS, steps);
		assertThat(TimelineJson.read(body)).map(ServerTimeline::steps).contains(List.of(MODEL_LOADER, WARMUP));
	}

	/** JSON text as a server's JSON library writes it (the values {@link TimelineJson} uses). */
	private static String json(Object value) {
		if (value instanceof Map<?, ?> map) {
			StringBuilder out = new StringBuilder("{");
			map.forEach((key, item) -> out.append((out.length() > 1) ? "," : "").append(json(key)).append(':')
				.append(json(item)));
			return out.append('}').toString();
		}
		if (value instanceof List<?> list) {
			return "[" + String.join(",", list.stream().map(TimelineJsonTest::json).toList()) + "]";
		}
		if (value instanceof String text) {
			return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
		}
		return String.valueOf(value);
	}


	@Test
	void aBodyFinishedFromItsDraftIsTheWholeDocumentByteForByte() {
		ServerTimeline refreshed = ready(List.of(TIMELINE.stages().get(0), TIMELINE.stages().get(1)), 4_000_000_000L);
		ServerTimeline ready = ready(List.of(TIMELINE.stages().get(0), TIMELINE.stages().get(1),
				new Stage("application_started", 4_000_000_000L, 4_100_000_000L, new JvmCounters(1_000_000L, 0, 0, 2, 17)),
				new Stage("application_ready", 4_100_000_000L, 4_100_500_000L)), 4_100_500_000L);
		TimelineJson.Draft draft = new TimelineJson.Draft();
		draft.add(refreshed);
		String finished = JsonText.compact(TimelineJson.write(ready, draft));
		assertThat(finished).isEqualTo(JsonText.compact(TimelineJson.write(ready)));
		assertThat(TimelineJson.read(JsonText.parseObject(finished))).contains(ready);
		ReadyCallback callback = new ReadyCallback("model-0", 4242, "node-7", 8123, 4_100_600_000L, null, ready);
		assertThat(JsonText.compact(callback.write(draft))).isEqualTo(JsonText.compact(callback.write()));
	}

	@Test
	void aPartThatChangedAfterTheDraftIsWrittenAsItIsNow() {
		TimelineJson.Draft draft = new TimelineJson.Draft();
		draft.add(TIMELINE);
		Stage longer = new Stage("beans_instantiated", 2_000_000_000L, 4_200_000_000L,
				new JvmCounters(2_812_345_000L, 41, 3, 230, 5123));
		ServerTimeline changed = new ServerTimeline("model-0", "model", false, 4242, TIMELINE.traceId(), null,
				1_000_000_000L, 4_200_000_000L, List.of(TIMELINE.stages().get(0), longer), List.of(),
				List.of(WARMUP), new JvmInfo("17.0.15", List.of("-Xmx2g")));
		assertThat(JsonText.compact(TimelineJson.write(changed, draft)))
			.isEqualTo(JsonText.compact(TimelineJson.write(changed)))
			.contains("4200000000")
			.doesNotContain("modelLoader");
	}

	private static ServerTimeline ready(List<Stage> stages, long readyNs) {
		return new ServerTimeline("model-0", "model", false, 4242, TIMELINE.traceId(), null, 1_000_000_000L, readyNs,
				stages, TIMELINE.ignoredEnv(), TIMELINE.steps(), new JvmInfo("17.0.15", List.of("-Xmx1g", "-Dq=\"a\"")));
	}

}
