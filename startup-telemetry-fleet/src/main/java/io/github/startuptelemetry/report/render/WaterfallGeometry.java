package io.github.startuptelemetry.report.render;

import io.github.startuptelemetry.report.StartupReport;

import java.util.List;
import java.util.stream.LongStream;

import io.github.startuptelemetry.internal.Decimals;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * Where things go in a waterfall: the {@link TimeAxis} from the supervisor's start to the
 * latest instant anything in the report reaches, bar positions and widths on it, which label
 * fits in a bar, and which ticks the end marker's label covers.
 */
final class WaterfallGeometry {

	/** About how wide the time track is on a laptop screen, to judge whether a label fits its bar. */
	private static final double TRACK_PX = 960;

	private static final double CHAR_PX = 7.0;

	/** The share of the time track the end marker's label takes, left of the marker. */
	private static final double END_LABEL_WIDTH = 0.13;

	/** The share of the time track right of the end marker where a tick label would touch it. */
	private static final double END_MARGIN = 0.04;

	private final TimeAxis axis;

	private final double end;

	private final long startNs;

	WaterfallGeometry(StartupReport report) {
		this.startNs = report.startNs();
		this.axis = new TimeAxis(report.startNs(), extentNs(report) - report.startNs());
		this.end = this.axis.fraction(report.durationNs());
	}

	/** Where a bar that starts at {@code startNs} begins, in percent of the track. */
	String left(long startNs) {
		return this.axis.percentAt(startNs);
	}

	/** How wide a bar from {@code startNs} to {@code endNs} is, in percent of the track. */
	String width(long startNs, long endNs) {
		return this.axis.percent(endNs - startNs);
	}

	/** An instant as an offset from the supervisor's start, e.g. {@code +6.2 s}. */
	String offset(long epochNs) {
		return this.axis.offset(epochNs);
	}

	/** The first of the texts that fits in a bar of this duration, or none. */
	String fitting(long durationNs, String... texts) {
		return fitting(this.axis, durationNs, texts);
	}

	/** The first of the texts that fits in a bar of this duration on {@code axis}, or none. */
	static String fitting(TimeAxis axis, long durationNs, String... texts) {
		double px = axis.fraction(durationNs) * TRACK_PX;
		for (String text : texts) {
			if (text.length() * CHAR_PX + 12 <= px) {
				return text;
			}
		}
		return "";
	}

	List<TimeAxis.Tick> ticks() {
		return this.axis.ticks();
	}

	/** Whether the end marker's label stands where this tick is. */
	boolean coveredByEnd(TimeAxis.Tick tick) {
		return tick.fraction() > this.end - END_LABEL_WIDTH && tick.fraction() < this.end + END_MARGIN;
	}

	/** The distance between two grid lines, in percent of the track. */
	String grid() {
		return this.axis.gridPercent();
	}

	/** Where an instant is, 0 to 1 of the track. */
	String at(long epochNs) {
		return Decimals.fixed(this.axis.fraction(epochNs - this.startNs), 5);
	}

	/** Where the startup ended, 0 to 1 of the track. */
	String end() {
		return Decimals.fixed(this.end, 5);
	}

	/** The latest instant anything in the report reaches, so that nothing is drawn off the axis. */
	private static long extentNs(StartupReport report) {
		LongStream servers = report.servers()
			.stream()
			.flatMapToLong((server) -> LongStream.concat(LongStream.of(server.endNs()),
					server.stages().stream().mapToLong(Stage::endNs)));
		LongStream beans = report.servers()
			.stream()
			.flatMap((server) -> server.beans().stream())
			.mapToLong(StepTiming::endNs);
		return LongStream.concat(LongStream.of(report.endNs()), LongStream.concat(servers, beans))
			.max()
			.orElse(report.endNs());
	}

}
