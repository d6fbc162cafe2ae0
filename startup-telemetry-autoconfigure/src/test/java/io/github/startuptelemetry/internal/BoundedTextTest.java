package io.github.startuptelemetry.internal;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link BoundedText}: what it keeps, and that it never exceeds its bound. */
class BoundedTextTest {

	@Test
	void textWithinTheBoundIsKeptAsItIs() {
		assertThat(BoundedText.cap("short", 5)).isEqualTo("short");
	}

	@Test
	void longerTextKeepsItsStartAndSaysHowMuchWasLeftOutWithinTheBound() {
		String text = "x".repeat(100_000);
		String capped = BoundedText.cap(text, 100);
		assertThat(capped).hasSizeLessThanOrEqualTo(100).startsWith("xxxx");
		int kept = capped.indexOf(' ');
		assertThat(capped).endsWith(" … (" + (text.length() - kept) + " more characters)");
		for (int bound = 1; bound < 64; bound++) {
			assertThat(BoundedText.cap(text, bound)).hasSizeLessThanOrEqualTo(bound);
		}
	}

	@Test
	void aSurrogatePairIsNeverSplit() {
		String text = "a".repeat(60) + "😀".repeat(100);
		for (int bound = 61; bound < 120; bound++) {
			String capped = BoundedText.cap(text, bound);
			String kept = capped.substring(0, capped.indexOf(" … ("));
			assertThat(Character.isHighSurrogate(kept.charAt(kept.length() - 1))).as("bound %d", bound).isFalse();
		}
	}

	@Test
	void lastLinesKeepsTheLastFewEachCapped() {
		String log = "first\nsecond\n" + "y".repeat(5000) + "\nlast\n\n";
		assertThat(BoundedText.lastLines(log, 2, 50).lines().toList()).hasSize(2)
			.satisfies((lines) -> assertThat(lines.get(0)).hasSize(50).startsWith("yyy"))
			.satisfies((lines) -> assertThat(lines.get(1)).isEqualTo("last"));
		assertThat(BoundedText.lastLines("", 5, 50)).isEmpty();
	}

	@Test
	void headlineIsTheFirstLineCapped() {
		assertThat(BoundedText.headline("Server 'a' crashed\nits log:\nboom", 100)).isEqualTo("Server 'a' crashed");
		assertThat(BoundedText.headline("z".repeat(1000), 40)).hasSizeLessThanOrEqualTo(40);
	}

	@Test
	void firstNamesTheFirstFewAndCountsTheRest() {
		List<String> names = IntStream.range(0, 10_000).mapToObj((i) -> "sim-" + i).toList();
		assertThat(BoundedText.first(names, 3)).isEqualTo("sim-0, sim-1, sim-2 and 9997 more");
		assertThat(BoundedText.first(names.subList(0, 3), 3)).isEqualTo("sim-0, sim-1, sim-2");
	}

}
