package io.github.startuptelemetry.timeline;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.contract.StartupEnv;
import io.github.startuptelemetry.timeline.internal.StageTimeline;
import io.github.startuptelemetry.timeline.internal.SpawnHandOff;

/** Property-based checks of the timeline invariants, over arbitrary input. */
class TimelinePropertyTest {

	private static final long JVM_START = 1_800_000_000_000_000_000L;

	@Property(tries = 2000)
	void anyEnvNeverThrowsAndYieldsContiguousStagesEndingAtJvmStart(@ForAll("envs") Map<String, String> env,
			@ForAll boolean worker) {
		SpawnHandOff.Prelude prelude = SpawnHandOff.from(env).prelude(JVM_START, worker);
		List<Stage> stages = prelude.stages();
		assertThat(stages.size()).isLessThanOrEqualTo(2);
		for (int i = 0; i < stages.size(); i++) {
			assertThat(stages.get(i).durationNs()).isNotNegative();
			if (i > 0) {
				assertThat(stages.get(i).startNs()).isEqualTo(stages.get(i - 1).endNs());
			}
		}
		if (!stages.isEmpty()) {
			assertThat(stages.get(stages.size() - 1).endNs()).isEqualTo(JVM_START);
		}
	}

	@Property(tries = 2000)
	void anySequenceOfMarksStaysContiguousAndSumsToTheTotal(@ForAll @LongRange(min = 0, max = 1_000_000) long start,
			@ForAll @Size(max = 40) List<@LongRange(min = -1_000_000, max = 2_000_000) Long> markTimes,
			@ForAll @Size(max = 40) List<@LongRange(min = -1_000_000, max = 2_000_000) Long> addEnds) {
		StageTimeline timeline = new StageTimeline(start);
		for (int i = 0; i < markTimes.size(); i++) {
			timeline.mark("m" + i, markTimes.get(i));
			if (i < addEnds.size()) {
				timeline.add("a" + i, markTimes.get(i), addEnds.get(i));
			}
		}
		List<Stage> stages = timeline.stages();
		long cursor = start;
		long sum = 0;
		for (Stage stage : stages) {
			assertThat(stage.startNs()).isEqualTo(cursor);
			assertThat(stage.durationNs()).isNotNegative();
			cursor = stage.endNs();
			sum += stage.durationNs();
		}
		assertThat(sum).isEqualTo(timeline.endNs() - timeline.startNs());
	}

	@Property(tries = 500)
	void spawnInTheServersFutureIsDroppedAndSaidSo(@ForAll @LongRange(min = 2_000_001L, max = 3_600_000_000_000L) long skewNs,
			@ForAll boolean withSetupDone) {
		Map<String, String> env = new HashMap<>();
		env.put(StartupEnv.SPAWN_NS, Long.toString(JVM_START + skewNs));
		if (withSetupDone) {
			env.put(StartupEnv.SETUP_DONE_NS, Long.toString(JVM_START - 1_000_000));
		}
		SpawnHandOff.Prelude prelude = SpawnHandOff.from(env).prelude(JVM_START, false);
		assertThat(prelude.stages()).extracting(Stage::name)
			.containsExactlyElementsOf(withSetupDone ? List.of("interpreter_start") : List.of());
		assertThat(prelude.ignored()).anySatisfy(
				(line) -> assertThat(line).startsWith(StartupEnv.SPAWN_NS).contains("clock skew"));
	}

	@Property(tries = 500)
	void spawnWithinTheJvmClockResolutionIsClamped(@ForAll @LongRange(min = 1, max = 2_000_000L) long skewNs) {
		SpawnHandOff.Prelude prelude = SpawnHandOff
			.from(Map.of(StartupEnv.SPAWN_NS, Long.toString(JVM_START + skewNs)))
			.prelude(JVM_START, false);
		assertThat(prelude.stages()).containsExactly(new Stage("interpreter_start", JVM_START, JVM_START));
		assertThat(prelude.ignored()).isEmpty();
	}

	@Provide
	Arbitrary<Map<String, String>> envs() {
		Arbitrary<String> value = Arbitraries.oneOf(
				Arbitraries.longs().between(-10, Long.MAX_VALUE).map(String::valueOf),
				Arbitraries.longs().between(JVM_START - 10_000_000_000L, JVM_START + 10_000_000_000L).map(String::valueOf),
				Arbitraries.strings().ofMaxLength(25), Arbitraries.strings().numeric().ofMaxLength(25),
				Arbitraries.strings().withCharRange('\u0660', '\u0669').ofMaxLength(19),
				Arbitraries.just(""), Arbitraries.just(" 42 "));
		Arbitrary<String> traceparent = Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(60),
				Arbitraries.just("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
				Arbitraries.strings().withChars("0123456789abcdef-").ofLength(55));
		return Combinators.combine(value.injectNull(0.3), value.injectNull(0.3), value.injectNull(0.3),
				traceparent.injectNull(0.3))
			.as((spawn, setup, serve, parent) -> {
				Map<String, String> env = new HashMap<>();
				env.put(StartupEnv.SPAWN_NS, spawn);
				env.put(StartupEnv.SETUP_DONE_NS, setup);
				env.put(StartupEnv.SERVE_NS, serve);
				env.put(StartupEnv.TRACEPARENT, parent);
				return env;
			});
	}

}
