package io.github.startuptelemetry.report.gate;

import java.util.Arrays;
import java.util.List;

/**
 * Location and spread of a few measurements, robust to one outlier run: the median, and a
 * standard deviation estimated from the median absolute deviation (MAD) or, for two to four
 * values, from the range (Tippett's d2 constants; the MAD of so few values is mostly zero).
 */
final class Robust {

	/** E[range] / σ of a normal sample of size 2, 3, 4. */
	private static final double[] D2 = { Double.NaN, Double.NaN, 1.128, 1.693, 2.059 };

	/** σ / MAD of a normal distribution. */
	private static final double MAD_TO_SIGMA = 1.4826;

	private Robust() {
	}

	/** The median, or {@code NaN} for none. */
	static double median(List<Double> values) {
		if (values.isEmpty()) {
			return Double.NaN;
		}
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	/** The standard deviation as estimated above, or {@code NaN} for fewer than two values. */
	static double spread(List<Double> values) {
		int n = values.size();
		if (n < 2) {
			return Double.NaN;
		}
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		if (n < D2.length) {
			return (sorted[n - 1] - sorted[0]) / D2[n];
		}
		double median = median(values);
		double[] deviations = Arrays.stream(sorted).map((value) -> Math.abs(value - median)).sorted().toArray();
		int middle = n / 2;
		double mad = (n % 2 == 1) ? deviations[middle] : (deviations[middle - 1] + deviations[middle]) / 2;
		return MAD_TO_SIGMA * mad;
	}

	/** The name of the estimator {@link #spread} uses for {@code n} values, for the comparison's text. */
	static String spreadName(int n) {
		return (n < 2) ? "none" : (n < D2.length) ? "range/" + D2[n] : "1.4826×MAD";
	}

}
