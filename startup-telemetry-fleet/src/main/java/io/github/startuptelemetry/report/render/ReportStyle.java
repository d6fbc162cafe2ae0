package io.github.startuptelemetry.report.render;

import java.util.Comparator;
import java.util.List;

/**
 * The look of {@link HtmlReport} for other pages of the starter's (the test contexts' report of
 * startup-telemetry-test): its stylesheet, each stage's colour, escaping, and a time axis with its
 * ticks, so that every waterfall reads alike.
 */
public final class ReportStyle {

	private ReportStyle() {
	}

	/** The stylesheet every waterfall page inlines. */
	public static String css() {
		return HtmlReportStyle.CSS;
	}

	/** A stage's colour, {@code #rrggbb}: the contract's stages fixed, any other name by its hash. */
	public static String stageColor(String stage) {
		return StageColors.of(stage);
	}

	/** Whether text on {@code color} should be dark rather than white. */
	public static boolean darkText(String color) {
		return StageColors.darkText(color);
	}

	/** Stage names in the order stages run, any other after them. */
	public static Comparator<String> runOrder() {
		return StageColors.runOrder();
	}

	/** {@code text} made safe for element content and quoted attribute values ({@code null}: empty). */
	public static String escape(String text) {
		return HtmlText.escape(text);
	}

	/** The time axis of a waterfall from {@code originNs}, long enough for {@code spanNs}. */
	public static Axis axis(long originNs, long spanNs) {
		return new Axis(new TimeAxis(originNs, spanNs));
	}

	/** A waterfall's time axis: where a bar starts and how wide it is, in percent of the track, and the ticks. */
	public static final class Axis {

		private final TimeAxis axis;

		private Axis(TimeAxis axis) {
			this.axis = axis;
		}

		/** Where an instant falls, e.g. {@code 12.500%}. */
		public String left(long epochNs) {
			return this.axis.percentAt(epochNs);
		}

		/** How wide a bar from {@code startNs} to {@code endNs} is. */
		public String width(long startNs, long endNs) {
			return this.axis.percent(endNs - startNs);
		}

		/** The distance between two grid lines ({@code --grid}). */
		public String grid() {
			return this.axis.gridPercent();
		}

		/** The first of {@code texts} that fits in a bar of this duration, or an empty string. */
		public String fitting(long durationNs, String... texts) {
			return WaterfallGeometry.fitting(this.axis, durationNs, texts);
		}

		/** An instant as an offset from the origin, e.g. {@code +6.2 s}. */
		public String offset(long epochNs) {
			return this.axis.offset(epochNs);
		}

		/** The ticks, as a waterfall's axis row shows them. */
		public List<Tick> ticks() {
			return this.axis.ticks().stream().map((tick) -> new Tick(tick.position(), tick.label())).toList();
		}

	}

	/**
	 * One tick of an axis.
	 *
	 * @param position where it is, in percent
	 * @param label what it says
	 */
	public record Tick(String position, String label) {

	}

}
