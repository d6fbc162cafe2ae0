package io.github.startuptelemetry.lifecycle.internal;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OtelListValuesTest {

	@Test
	void pairsArePercentDecodedAndTrimmed() {
		OtelListValues.Pairs pairs = OtelListValues.parsePairs(" authorization = Bearer%20abc , x-team=rl,,");
		assertThat(pairs.valid()).isTrue();
		assertThat(pairs.pairs()).containsExactly(Map.entry("authorization", "Bearer abc"), Map.entry("x-team", "rl"));
	}

	@Test
	void aMalformedEntryMakesTheWholeValueUnusableWithoutShowingIt() {
		OtelListValues.Pairs pairs = OtelListValues.parsePairs("a=1,secret-without-key,=nokey,b=%zz");
		assertThat(pairs.pairs()).isEmpty();
		assertThat(pairs.problems()).containsExactly("entry 2 is not key=value", "entry 3 is not key=value",
				"the value of 'b' is not percent-encoded correctly");
		assertThat(pairs.toString()).doesNotContain("secret");
	}

	@Test
	void formattedPairsReadBack() {
		Map<String, String> pairs = new LinkedHashMap<>();
		pairs.put("authorization", "Bearer a+b/c=,d%");
		pairs.put("team", "r l");
		String formatted = OtelListValues.formatPairs(pairs);
		assertThat(formatted).doesNotContain(" ");
		assertThat(OtelListValues.parsePairs(formatted).pairs()).isEqualTo(pairs);
	}

	@Test
	void headerNamesMustBeTokensAndValuesOneLine() {
		assertThat(OtelListValues.headerProblems(Map.of("Authorization", "Bearer x"))).isEmpty();
		assertThat(OtelListValues.headerProblems(Map.of("bad name", "x")))
			.containsExactly("'bad name' is not a valid header name");
		assertThat(OtelListValues.headerProblems(Map.of("x", "a\r\nInjected: secret")))
			.containsExactly("the value of header 'x' contains a line break");
	}

}
