package io.github.startuptelemetry.internal;

import java.util.Locale;

/**
 * Fixed-point decimals exactly as {@code String.format(Locale.ROOT, "%.nf", value)} writes them,
 * without {@link java.util.Formatter}, which parses its pattern and allocates for every call while
 * a report of a hundred servers asks for thousands of numbers.
 */
public final class Decimals {

	/** Beyond these the digits might not fit a long: the formatter does those. */
	private static final double MAX_FAST = 1e12;

	private static final int MAX_FAST_PLACES = 6;

	private static final long[] POWERS = { 1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
			100_000_000L, 1_000_000_000L, 10_000_000_000L, 100_000_000_000L, 1_000_000_000_000L,
			10_000_000_000_000L, 100_000_000_000_000L, 1_000_000_000_000_000L, 10_000_000_000_000_000L,
			100_000_000_000_000_000L, 1_000_000_000_000_000_000L };

	private Decimals() {
	}

	/** {@code value} with {@code places} decimals, as {@code String.format(Locale.ROOT, "%.<places>f", value)}. */
	public static String fixed(double value, int places) {
		if (!Double.isFinite(value) || Math.abs(value) >= MAX_FAST || places < 0 || places > MAX_FAST_PLACES) {
			return String.format(Locale.ROOT, "%." + places + "f", value);
		}
		// the formatter's digits: those of Double.toString, "123.45" or "1.2345E-5" (equal to the
		// formatter on 17 and on 21+, compared over millions of values; 19 and 20 paired a new
		// Double.toString with the old formatter digits, so a rare tie may differ in its last digit)
		String text = Double.toString(Math.abs(value));
		int exponentAt = text.indexOf('E');
		int end = (exponentAt < 0) ? text.length() : exponentAt;
		int exponent = (exponentAt < 0) ? 0 : Integer.parseInt(text, exponentAt + 1, text.length(), 10);
		long unscaled = 0;
		int fractionDigits = 0;
		boolean fraction = false;
		for (int i = 0; i < end; i++) {
			char c = text.charAt(i);
			if (c == '.') {
				fraction = true;
			}
			else {
				unscaled = unscaled * 10 + (c - '0');
				fractionDigits += fraction ? 1 : 0;
			}
		}
		// |value| = unscaled / 10^scale; wanted: that times 10^places, rounded half up
		int scale = fractionDigits - exponent;
		long rounded;
		if (scale <= places) {
			rounded = unscaled * POWERS[places - scale];
		}
		else if (scale - places >= POWERS.length) {
			rounded = 0;
		}
		else {
			long divisor = POWERS[scale - places];
			rounded = unscaled / divisor + ((unscaled % divisor >= (divisor + 1) / 2) ? 1 : 0);
		}
		StringBuilder out = new StringBuilder(24);
		if (Double.compare(value, 0.0) < 0) {
			out.append('-');
		}
		out.append(rounded / POWERS[places]);
		if (places > 0) {
			String decimals = Long.toString(rounded % POWERS[places]);
			out.append('.');
			for (int i = decimals.length(); i < places; i++) {
				out.append('0');
			}
			out.append(decimals);
		}
		return out.toString();
	}

}
