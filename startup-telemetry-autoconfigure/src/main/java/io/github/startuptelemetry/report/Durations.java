package io.github.startuptelemetry.report;

import java.util.Locale;

/** Durations the way people read them, the same in every report: {@code 4.2 ms}, {@code 312 ms}, {@code 6.2 s}. */
final class Durations {

	private Durations() {
	}

	static String format(long ns) {
		double ms = ns / 1_000_000.0;
		if (ms < 10) {
			return String.format(Locale.ROOT, "%.1f ms", ms);
		}
		if (Math.round(ms) < 1000) {
			return String.format(Locale.ROOT, "%d ms", Math.round(ms));
		}
		return String.format(Locale.ROOT, "%.1f s", ms / 1000);
	}

}
