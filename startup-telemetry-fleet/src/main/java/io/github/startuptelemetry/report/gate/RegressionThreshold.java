package io.github.startuptelemetry.report.gate;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.startuptelemetry.internal.Durations;

/**
 * How much slower a time may get before it counts as a regression: a relative part of the
 * baseline, but never less than an absolute noise floor, so that a 40 ms stage taking 60 ms
 * is no alarm while a 4 s stage taking 5.5 s is. Written {@code 25%,200ms}; either part alone
 * keeps the other's default. A {@link ReportComparison} judges each change against one (the
 * {@code telemetry.supervisor.report.max-regression} property, {@link Compare}'s
 * {@code --max-regression}).
 *
 * @param relative the allowed growth as a fraction of the baseline (0.25 for 25%)
 * @param floorMs the allowed growth in milliseconds, whatever the baseline
 */
public record RegressionThreshold(double relative, double floorMs) {

	/** Milliseconds or seconds: the JDK alone, as {@link Compare} runs without Spring. */
	private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s)");

	/** {@code 25%,200ms}: above the jitter of a busy 2-core machine in our runs. */
	public static final RegressionThreshold DEFAULT = new RegressionThreshold(0.25, 200);

	/**
	 * Parse {@code 25%}, {@code 200ms}, {@code 25%,200ms} (or with {@code +} or a space between).
	 * @param text the threshold
	 * @return the threshold
	 * @throws IllegalArgumentException saying what is wrong
	 */
	public static RegressionThreshold parse(String text) {
		double relative = DEFAULT.relative;
		double floorMs = DEFAULT.floorMs;
		String[] parts = text.strip().split("[,+ ]+");
		if (text.isBlank() || parts.length > 2) {
			throw new IllegalArgumentException("'" + text + "' is not a threshold: write e.g. 25%,200ms");
		}
		for (String part : parts) {
			if (part.endsWith("%")) {
				try {
					relative = Double.parseDouble(part.substring(0, part.length() - 1)) / 100;
				}
				catch (NumberFormatException ex) {
					throw new IllegalArgumentException("'" + part + "' is not a percentage: write e.g. 25%");
				}
				if (!(relative >= 0) || Double.isInfinite(relative)) {
					throw new IllegalArgumentException("'" + part + "' must be a percentage of at least 0%");
				}
			}
			else {
				Matcher duration = DURATION.matcher(part);
				if (!duration.matches()) {
					throw new IllegalArgumentException("'" + part + "' is neither a percentage nor a duration: write e.g."
							+ " 25% or 200ms");
				}
				floorMs = Double.parseDouble(duration.group(1)) * (duration.group(2).equals("s") ? 1000 : 1);
			}
		}
		return new RegressionThreshold(relative, floorMs);
	}

	/** How much later than {@code baseMs} a time may end before it regressed. */
	public double allowedGrowthMs(double baseMs) {
		return Math.max(this.relative * baseMs, this.floorMs);
	}

	public boolean slower(double baseMs, double newMs) {
		return newMs - baseMs > allowedGrowthMs(baseMs);
	}

	public boolean faster(double baseMs, double newMs) {
		return baseMs - newMs > allowedGrowthMs(baseMs);
	}

	@Override
	public String toString() {
		return String.format(Locale.ROOT, "+%s%%, at least %s", trim(this.relative * 100),
				Durations.format(Math.round(this.floorMs * 1_000_000)));
	}

	private static String trim(double value) {
		return (value == Math.rint(value)) ? Long.toString((long) value) : Double.toString(value);
	}

}
