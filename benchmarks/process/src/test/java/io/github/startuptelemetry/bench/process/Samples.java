package io.github.startuptelemetry.bench.process;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Measurements of one quantity, in milliseconds: the order statistics a benchmark reports. */
final class Samples {

	private final List<Double> values = new ArrayList<>();

	void add(double value) {
		this.values.add(value);
	}

	void addAll(Samples other) {
		this.values.addAll(other.values);
	}

	int size() {
		return this.values.size();
	}

	double median() {
		return percentile(50);
	}

	/** The nearest-rank percentile: with fewer than 100 samples, p99 is the maximum. */
	double percentile(double p) {
		if (this.values.isEmpty()) {
			return Double.NaN;
		}
		double[] sorted = this.values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		int rank = (int) Math.ceil(p / 100 * sorted.length);
		return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
	}

	double max() {
		return percentile(100);
	}

	/** Every value, rounded, in the order measured. */
	String all() {
		return String.join(", ", this.values.stream().map((v) -> String.format(Locale.ROOT, "%.0f", v)).toList());
	}

}
