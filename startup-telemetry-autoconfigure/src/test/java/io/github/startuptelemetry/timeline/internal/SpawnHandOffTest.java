package io.github.startuptelemetry.timeline.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static io.github.startuptelemetry.contract.StartupEnv.OTEL_TRACEPARENT;
import static io.github.startuptelemetry.contract.StartupEnv.SERVE_NS;
import static io.github.startuptelemetry.contract.StartupEnv.SETUP_DONE_NS;
import static io.github.startuptelemetry.contract.StartupEnv.SPAWN_NS;
import static io.github.startuptelemetry.contract.StartupEnv.TRACEPARENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.github.startuptelemetry.timeline.Stage;

class SpawnHandOffTest {

	private static final long JVM_START = 1_800_000_000_000_000_000L;

	private static final String SPAWN = Long.toString(JVM_START - 900_000_000L);

	private static final String SETUP_DONE = Long.toString(JVM_START - 100_000_000L);

	private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

	@Test
	void spawnAndSetupDoneGiveVenvSetupThenInterpreterStart() {
		var prelude = SpawnHandOff.from(Map.of(SPAWN_NS, SPAWN, SETUP_DONE_NS, SETUP_DONE))
			.prelude(JVM_START, false);
		assertThat(prelude.stages()).containsExactly(
				new Stage("venv_setup", Long.parseLong(SPAWN), Long.parseLong(SETUP_DONE)),
				new Stage("interpreter_start", Long.parseLong(SETUP_DONE), JVM_START));
		assertThat(prelude.ignored()).isEmpty();
	}

	@Test
	void spawnAloneGivesInterpreterStartFromSpawn() {
		var prelude = SpawnHandOff.from(Map.of(SPAWN_NS, SPAWN)).prelude(JVM_START, false);
		assertThat(prelude.stages()).containsExactly(new Stage("interpreter_start", Long.parseLong(SPAWN), JVM_START));
	}

	@Test
	void setupDoneAloneGivesInterpreterStartFromSetupDone() {
		var prelude = SpawnHandOff.from(Map.of(SETUP_DONE_NS, SETUP_DONE)).prelude(JVM_START, false);
		assertThat(prelude.stages())
			.containsExactly(new Stage("interpreter_start", Long.parseLong(SETUP_DONE), JVM_START));
	}

	@Test
	void aWorkerStartsAtTheHandOff() {
		var prelude = SpawnHandOff.from(Map.of(SPAWN_NS, SPAWN, SERVE_NS, SETUP_DONE))
			.prelude(JVM_START, true);
		assertThat(prelude.stages())
			.containsExactly(new Stage("worker_start", Long.parseLong(SETUP_DONE), JVM_START));
	}

	@Test
	void aStampWithinTheJvmClockResolutionIsClampedNotDropped() {
		String justAfter = Long.toString(JVM_START + 400_000L);
		var prelude = SpawnHandOff.from(Map.of(SPAWN_NS, SPAWN, SETUP_DONE_NS, justAfter))
			.prelude(JVM_START, false);
		assertThat(prelude.stages()).extracting(Stage::name).containsExactly("venv_setup", "interpreter_start");
		assertThat(prelude.stages().get(1).durationNs()).isZero();
		assertThat(prelude.ignored()).isEmpty();
	}

	@Test
	void aServerClockAheadOfTheSupervisorsGetsItsStagesPlacedByTheOffset() {
		var env = onSupervisorClock(5_000_000_000L);
		assertThat(env.prelude(JVM_START, false).stages().get(0).durationNs())
			.as("without the offset, venv_setup would take the 5 s too").isEqualTo(800_000_000L);
		assertThat(env.prelude(JVM_START, false, new ClockOffset(5_000_000_000L, 1_000_000L)).stages())
			.containsExactly(new Stage("venv_setup", Long.parseLong(SPAWN), Long.parseLong(SETUP_DONE)),
					new Stage("interpreter_start", Long.parseLong(SETUP_DONE), JVM_START));
	}

	@Test
	void aServerClockBehindTheSupervisorsKeepsTheStagesSkewWouldDrop() {
		var env = onSupervisorClock(-5_000_000_000L);
		assertThat(env.prelude(JVM_START, false).stages()).isEmpty();
		assertThat(env.prelude(JVM_START, false).ignored()).allMatch((line) -> line.endsWith("(clock skew?)"))
			.hasSize(2);
		var prelude = env.prelude(JVM_START, false, new ClockOffset(-5_000_000_000L, 1_000_000L));
		assertThat(prelude.stages()).containsExactly(
				new Stage("venv_setup", Long.parseLong(SPAWN), Long.parseLong(SETUP_DONE)),
				new Stage("interpreter_start", Long.parseLong(SETUP_DONE), JVM_START));
		assertThat(prelude.ignored()).isEmpty();
	}

	@Test
	void anOffsetWithinItsUncertaintyMovesNothingAndWidensTheToleranceByIt() {
		// measured 0.8 ms +- 1 ms: the same clock; a stamp 2.5 ms after the JVM start is within 2 + 1 ms
		String justAfter = Long.toString(JVM_START + 2_500_000L);
		var env = SpawnHandOff.from(Map.of(SPAWN_NS, SPAWN, SETUP_DONE_NS, justAfter));
		var prelude = env.prelude(JVM_START, false, new ClockOffset(800_000L, 1_000_000L));
		assertThat(prelude.stages()).containsExactly(new Stage("venv_setup", Long.parseLong(SPAWN), JVM_START),
				new Stage("interpreter_start", JVM_START, JVM_START));
		assertThat(prelude.ignored()).isEmpty();
		assertThat(env.prelude(JVM_START, false).ignored()).singleElement().asString().startsWith(SETUP_DONE_NS);
	}

	@Test
	void aStampFurtherOffThanTheMeasuredOffsetExplainsIsIgnoredAndSaysSo() {
		// the clock is 5 s behind, but the measurement says 4.7 s +- 1 ms: setup-done lands 200 ms after the JVM start
		var prelude = onSupervisorClock(-5_000_000_000L).prelude(JVM_START, false,
				new ClockOffset(-4_700_000_000L, 1_000_000L));
		assertThat(prelude.ignored()).singleElement().asString()
			.isEqualTo(SETUP_DONE_NS + ": 200 ms after JVM start (more than the measured clock offset explains)");
		assertThat(prelude.stages()).singleElement().satisfies((stage) -> {
			assertThat(stage.name()).isEqualTo("interpreter_start");
			assertThat(stage.startNs()).isEqualTo(Long.parseLong(SPAWN) + 300_000_000L);
		});
	}

	/** SPAWN and SETUP_DONE as a supervisor whose clock is {@code serverAheadNs} behind this server's stamps them. */
	private static SpawnHandOff onSupervisorClock(long serverAheadNs) {
		return SpawnHandOff.from(Map.of(SPAWN_NS, Long.toString(Long.parseLong(SPAWN) - serverAheadNs),
				SETUP_DONE_NS, Long.toString(Long.parseLong(SETUP_DONE) - serverAheadNs)));
	}

	@Test
	void theContractTraceparentWinsOverOpenTelemetrysName() {
		String other = "00-11111111111111111111111111111111-2222222222222222-01";
		SpawnHandOff env = SpawnHandOff.from(Map.of(TRACEPARENT, PARENT, OTEL_TRACEPARENT, other));
		assertThat(env.traceParent().orElseThrow().traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
		SpawnHandOff otelOnly = SpawnHandOff.from(Map.of(OTEL_TRACEPARENT, other));
		assertThat(otelOnly.traceParent().orElseThrow().spanId()).isEqualTo("2222222222222222");
	}

	@Test
	void aBrokenContractTraceparentFallsBackToOpenTelemetrysName() {
		SpawnHandOff env = SpawnHandOff.from(Map.of(TRACEPARENT, "broken", OTEL_TRACEPARENT, PARENT));
		assertThat(env.traceParent()).isPresent();
		assertThat(env.prelude(JVM_START, false).ignored()).containsExactly(TRACEPARENT + ": not a W3C traceparent");
	}

	@Test
	void aMalformedValueIsNotedByNameNeverByValue() {
		SpawnHandOff env = SpawnHandOff.from(Map.of(SPAWN_NS, "secret-ish", OTEL_TRACEPARENT, "00-zz"));
		assertThat(env.traceParent()).isEmpty();
		assertThat(env.prelude(JVM_START, false).ignored()).containsExactlyInAnyOrder(
				SPAWN_NS + ": not a positive count of nanoseconds", OTEL_TRACEPARENT + ": not a W3C traceparent");
		assertThat(env.prelude(JVM_START, true).ignored()).as("a worker too").hasSize(2);
		assertThat(SpawnHandOff.from(Map.of(TRACEPARENT, "", OTEL_TRACEPARENT, " ")).prelude(JVM_START, false)
			.ignored()).as("blank is unset").isEmpty();
	}

	static Stream<Arguments> malformed() {
		String future = Long.toString(JVM_START + 5_000_000_000L);
		return Stream.of(
				// description, env, expected stages, whether an "ignored" note is expected (present but unusable)
				arguments("empty env", Map.of(), List.of(), false),
				arguments("non-numeric spawn", Map.of(SPAWN_NS, "yesterday"), List.of(), true),
				arguments("empty spawn (as unset)", Map.of(SPAWN_NS, ""), List.of(), false),
				arguments("whitespace spawn (as unset)", Map.of(SPAWN_NS, "   "), List.of(), false),
				arguments("negative spawn", Map.of(SPAWN_NS, "-" + SPAWN), List.of(), true),
				arguments("zero spawn", Map.of(SPAWN_NS, "0"), List.of(), true),
				arguments("plus-signed spawn", Map.of(SPAWN_NS, "+" + SPAWN), List.of(), true),
				arguments("overflowing spawn", Map.of(SPAWN_NS, "99999999999999999999"), List.of(), true),
				arguments("Long.MAX+1 spawn", Map.of(SPAWN_NS, "9223372036854775808"), List.of(), true),
				arguments("decimal spawn", Map.of(SPAWN_NS, SPAWN + ".5"), List.of(), true),
				arguments("hex spawn", Map.of(SPAWN_NS, "0x1f"), List.of(), true),
				arguments("underscored spawn", Map.of(SPAWN_NS, "1_000_000"), List.of(), true),
				arguments("Arabic-Indic digits", Map.of(SPAWN_NS, "١٢٣٤٥٦٧٨٩"), List.of(), true),
				arguments("full-width digits", Map.of(SPAWN_NS, "１２３４５"), List.of(), true),
				arguments("embedded NUL", Map.of(SPAWN_NS, SPAWN.substring(0, 5) + "\0" + SPAWN.substring(5)),
						List.of(), true),
				arguments("spawn in the future (clock skew)", Map.of(SPAWN_NS, future), List.of(), true),
				arguments("setup done in the future", Map.of(SPAWN_NS, SPAWN, SETUP_DONE_NS, future),
						List.of("interpreter_start"), true),
				arguments("reversed order", Map.of(SPAWN_NS, SETUP_DONE, SETUP_DONE_NS, SPAWN),
						List.of("interpreter_start"), true),
				arguments("garbage setup done", Map.of(SPAWN_NS, SPAWN, SETUP_DONE_NS, "soon"),
						List.of("interpreter_start"), true),
				arguments("scientific notation", Map.of(SPAWN_NS, "1.8e18"), List.of(), true),
				arguments("serve ns for a non-worker", Map.of(SERVE_NS, SETUP_DONE), List.of(), false),
				arguments("trailing newline is tolerated", Map.of(SPAWN_NS, SPAWN + "\n"),
						List.of("interpreter_start"), false));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("malformed")
	void malformedValuesAreIgnoredNeverThrown(String description, Map<String, String> env, List<String> stages,
			boolean noted) {
		SpawnHandOff.Prelude prelude = SpawnHandOff.from(env).prelude(JVM_START, false);
		assertThat(prelude.stages()).extracting(Stage::name).containsExactlyElementsOf(stages);
		assertThat(prelude.stages()).allSatisfy((stage) -> assertThat(stage.endNs()).isLessThanOrEqualTo(JVM_START));
		assertThat(prelude.ignored()).as("ignored notes").hasSize(noted ? 1 : 0);
	}

	@Test
	void workerIgnoresAFutureHandOff() {
		var prelude = SpawnHandOff.from(Map.of(SERVE_NS, Long.toString(JVM_START + 10_000_000_000L)))
			.prelude(JVM_START, true);
		assertThat(prelude.stages()).isEmpty();
		assertThat(prelude.ignored()).singleElement().asString().startsWith(SERVE_NS);
	}

	@Test
	void fromToleratesANullValuedMap() {
		Map<String, String> env = new HashMap<>();
		env.put(SPAWN_NS, null);
		env.put(TRACEPARENT, null);
		assertThat(SpawnHandOff.from(env)).isEqualTo(SpawnHandOff.EMPTY);
	}

}
