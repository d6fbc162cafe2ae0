package io.github.startuptelemetry.report.render;

import java.util.ArrayList;
import java.util.List;

import io.github.startuptelemetry.internal.Decimals;
import io.github.startuptelemetry.internal.Durations;

/**
 * The shared time axis of a waterfall: 0 is the supervisor's start, and the axis ends at the first
 * round tick after everything drawn, with ticks at the finest 1-2-5 step that gives at most a dozen.
 */
final class TimeAxis {

	private static final int MAX_TICKS = 12;

	private final long originNs;

	private final long stepNs;

	private final long lengthNs;

	TimeAxis(long originNs, long spanNs) {
		this.originNs = originNs;
		this.stepNs = step(Math.max(spanNs, 1_000_000L) / MAX_TICKS);
		this.lengthNs = Math.max(1, (spanNs + this.stepNs - 1) / this.stepNs) * this.stepNs;
	}

	private static long step(long atLeastNs) {
		long magnitude = 1_000_000L;
		while (true) {
			for (long factor : new long[] { 1, 2, 5 }) {
				if (factor * magnitude >= atLeastNs) {
					return factor * magnitude;
				}
			}
			magnitude *= 10;
		}
	}

	/** Where an instant falls on the axis, in percent of its length. */
	String percentAt(long epochNs) {
		return percent(epochNs - this.originNs);
	}

	/** How much of the axis a duration takes, in percent of its length. */
	String percent(long durationNs) {
		return Decimals.fixed(100.0 * durationNs / this.lengthNs, 3) + "%";
	}

	/** The share of the axis a duration takes, 0 to 1. */
	double fraction(long durationNs) {
		return (double) durationNs / this.lengthNs;
	}

	/** An instant as an offset from the origin, e.g. {@code +6.2 s}. */
	String offset(long epochNs) {
		return "+" + Durations.format(epochNs - this.originNs);
	}

	/** The ticks, from 0 to the axis's end. */
	List<Tick> ticks() {
		List<Tick> ticks = new ArrayList<>();
		for (long at = 0; at <= this.lengthNs; at += this.stepNs) {
			ticks.add(new Tick(percent(at), fraction(at), label(at)));
		}
		return ticks;
	}

	/** The distance between two grid lines, in percent of the axis. */
	String gridPercent() {
		return percent(this.stepNs);
	}

	private String label(long ns) {
		if (ns % 1_000_000_000L == 0) {
			return (ns / 1_000_000_000L) + " s";
		}
		if (this.stepNs >= 100_000_000L) {
			return Decimals.fixed(ns / 1e9, 1) + " s";
		}
		return (ns / 1_000_000L) + " ms";
	}

	/**
	 * One tick of the axis.
	 *
	 * @param position where it is, in percent
	 * @param fraction where it is, 0 to 1
	 * @param label what it says
	 */
	record Tick(String position, double fraction, String label) {

	}

}
