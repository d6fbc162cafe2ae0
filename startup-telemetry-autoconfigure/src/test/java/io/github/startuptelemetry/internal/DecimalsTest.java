package io.github.startuptelemetry.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DecimalsTest {

	@Test
	void writesWhatTheFormatterWritesAtTiesAndEdges() {
		double[] values = { 0, -0.0, 0.05, 0.15, 0.25, 0.35, 1.05, 1.15, 1.25, 2.5, 0.5, 1.5, 9.95, 9.96, 99.95, 0.0005,
				0.00049999, 0.0004, 0.00005, 1e-9, 1e-20, 123.4565, 12.3455, 0.125, 0.375, 999.9996, 4.2, 312.0, 6.25,
				-0.04, -0.05, -1.25, -12.3455, 1e11, 999_999_999_999.9, 1e12, 5e13, Double.MIN_VALUE, Double.MAX_VALUE,
				Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 100.0, 33.333333333333336,
				66.66666666666667, 14.285714285714286 };
		for (double value : values) {
			for (int places = 0; places <= 7; places++) {
				assertSame(value, places);
			}
		}
	}

	@Test
	void writesWhatTheFormatterWritesForDurationsAndShares() {
		SplittableRandom random = new SplittableRandom(14);
		List<Double> values = new ArrayList<>();
		for (int i = 0; i < 20_000; i++) {
			long ns = random.nextLong(-1_000_000_000L, 10_000_000_000_000L) / POWER[random.nextInt(POWER.length)];
			values.add(ns / 1e6);
			values.add(ns / 1e6 / 1000);
			values.add(100.0 * ns / random.nextLong(1, 10_000_000_000_000L));
			values.add(random.nextDouble() * POWER[random.nextInt(POWER.length)]);
		}
		for (double value : values) {
			for (int places : new int[] { 0, 1, 3, 5 }) {
				assertSame(value, places);
			}
		}
	}

	private static final long[] POWER = { 1, 10, 1000, 1_000_000, 1_000_000_000 };

	private static void assertSame(double value, int places) {
		assertThat(Decimals.fixed(value, places)).as("%s with %d places", value, places)
			.isEqualTo(String.format(Locale.ROOT, "%." + places + "f", value));
	}

}
