package io.github.startuptelemetry.internal;


/**
 * Durations the way people read them, the same in every report: {@code 4.2 ms}, {@code 312 ms}, {@code 6.2 s}.
 * A report asks for several per server, so no {@code String.format} ({@link Decimals}).
 */
public final class Durations {

	private Durations() {
	}

	public static String format(long ns) {
		double ms = ns / 1_000_000.0;
		if (ms < 10) {
			return Decimals.fixed(ms, 1) + " ms";
		}
		if (Math.round(ms) < 1000) {
			return Math.round(ms) + " ms";
		}
		return Decimals.fixed(ms / 1000, 1) + " s";
	}

}
