package io.github.startuptelemetry.timeline.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class TraceParentTest {

	private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

	@Test
	void parsesAValidHeader() {
		TraceParent parent = TraceParent.parse(VALID).orElseThrow();
		assertThat(parent.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
		assertThat(parent.spanId()).isEqualTo("00f067aa0ba902b7");
		assertThat(parent.sampled()).isTrue();
		assertThat(parent.header()).isEqualTo(VALID);
	}

	@Test
	void headerWritesTheFlagsAsTwoLowerCaseHexDigits() {
		String ids = "-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-";
		assertThat(new TraceParent("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", 0).header())
			.isEqualTo("00" + ids + "00");
		assertThat(new TraceParent("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", 0xaf).header())
			.isEqualTo("00" + ids + "af");
		assertThat(TraceParent.parse("00" + ids + "ff").orElseThrow().header()).isEqualTo("00" + ids + "ff");
	}

	@Test
	void unsampledFlagIsKept() {
		assertThat(TraceParent.parse(VALID.replace("-01", "-00")).orElseThrow().sampled()).isFalse();
	}

	@Test
	void laterVersionsMayCarryMoreFields() {
		assertThat(TraceParent.parse("01" + VALID.substring(2) + "-extra")).isPresent();
	}

	@Test
	void surroundingWhitespaceIsTolerated() {
		assertThat(TraceParent.parse("  " + VALID + "\n")).isPresent();
	}

	@ParameterizedTest
	@NullSource
	@ValueSource(strings = { "", " ", "garbage", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
			"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
			"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
			"00-00000000000000000000000000000000-00f067aa0ba902b7-01",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
			"00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",
			"00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0z",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
			"00-٤bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" })
	void malformedHeadersMeanNoParent(String value) {
		assertThat(TraceParent.parse(value)).isEmpty();
	}

}
