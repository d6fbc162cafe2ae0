package io.github.startuptelemetry.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Our one JSON text: what is written is read back, compact or pretty, escapes and nesting included. */
class JsonTextTest {

	private static Map<String, Object> document() {
		Map<String, Object> inner = new LinkedHashMap<>();
		inner.put("text", "tab\there, line\nbreak, back\\slash, \"quoted\", <tag> & \u0001");
		inner.put("decimal", 0.123456789);
		inner.put("whole", 9_000_000_000_000L);
		inner.put("none", null);
		inner.put("flag", true);
		Map<String, Object> outer = new LinkedHashMap<>();
		outer.put("nested", List.of(inner, List.of(), Map.of()));
		return outer;
	}

	@Test
	void compactTextReadsBackExactly() {
		String text = JsonText.compact(document());
		assertThat(text).doesNotContain("\n");
		assertThat(JsonText.parseObject(text)).isEqualTo(document());
	}

	@Test
	void prettyTextReadsBackWithDecimalsToTheMicrosecond() {
		String text = JsonText.pretty(document());
		assertThat(text).contains("\n  \"nested\": [").endsWith("}\n");
		Map<String, Object> read = JsonText.parseObject(text);
		Map<?, ?> inner = (Map<?, ?>) ((List<?>) read.get("nested")).get(0);
		assertThat(inner.get("decimal")).isEqualTo(0.123);
		assertThat(inner.get("text")).isEqualTo(((Map<?, ?>) ((List<?>) document().get("nested")).get(0)).get("text"));
	}

	@Test
	void malformedOrTooDeepTextSaysWhere() {
		assertThatIllegalArgumentException().isThrownBy(() -> JsonText.parse("{\"a\": tru}"))
			.withMessageContaining("at character");
		assertThatIllegalArgumentException().isThrownBy(() -> JsonText.parse("[".repeat(100) + "]".repeat(100)))
			.withMessageContaining("less nesting");
		assertThat(JsonText.parseObject("[1]")).isNull();
	}

}
