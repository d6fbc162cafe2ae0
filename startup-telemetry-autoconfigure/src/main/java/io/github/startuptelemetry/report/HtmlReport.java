package io.github.startuptelemetry.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.internal.support.Decimals;
import io.github.startuptelemetry.internal.support.Durations;
import io.github.startuptelemetry.report.StartupReport.CriticalPath;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * A startup report as one self-contained HTML page, a waterfall in the manner of
 * {@code systemd-analyze plot}: a row for the supervisor and one per server, their stages as
 * bars on one time axis from the supervisor's start, each stage name in the same colour
 * everywhere, the server that held "all ready" back and its slowest stage marked, the probe lag
 * hatched, slow beans beneath their server, failed servers flagged. Hover a bar for its start
 * and duration.
 * <p>
 * Inline CSS only: no script, no font, nothing fetched, so that it opens anywhere, from a CI
 * artifact as well as a laptop. Every name and message is escaped, and the page holds what the
 * model holds (names, times, ids, the error), never an environment value. This class is the
 * markup; what the page says is {@link HtmlWording}'s (and {@link ReportWording}'s, shared with
 * the console), where things go {@link WaterfallGeometry}'s, the look {@link HtmlReportStyle}'s.
 */
public final class HtmlReport {

	/** Slow beans shown per server, the slowest ones: the rest are in the server's own endpoint. */
	private static final int BEANS_PER_SERVER = 6;

	private static final String SUPERVISOR = HtmlWording.SUPERVISOR;

	private final StartupReport report;

	private final Optional<CriticalPath> critical;

	private final WaterfallGeometry geometry;

	private final HtmlWording wording;

	private final Set<String> stageNames = new LinkedHashSet<>();

	private final StringBuilder html = new StringBuilder(32_768);

	private final @Nullable ReportComparison comparison;

	private HtmlReport(StartupReport report, @Nullable ReportComparison comparison) {
		this.report = report;
		this.comparison = comparison;
		this.critical = report.criticalPath();
		this.geometry = new WaterfallGeometry(report);
		this.wording = new HtmlWording(report, this.geometry);
	}

	public static String render(StartupReport report) {
		return render(report, null);
	}

	/** The page with a before/after view against the baseline, when {@code comparison} is not null. */
	public static String render(StartupReport report, @Nullable ReportComparison comparison) {
		return new HtmlReport(report, comparison).page();
	}

	private String page() {
		this.html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
			.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
			.append("<meta name=\"generator\" content=\"startup-telemetry\">\n<title>")
			.append(esc(this.wording.headline()))
			.append(" · startup-telemetry</title>\n<style>\n")
			.append(HtmlReportStyle.CSS)
			.append("</style>\n</head>\n<body>\n");
		summary();
		if (this.comparison != null) {
			comparison(this.comparison);
		}
		if (this.report.jvmCache() != null) {
			JvmCacheHtml.render(this.report.jvmCache(), this.html);
		}
		chart();
		legend();
		this.html.append("<footer>Wall-clock times; 0 is the supervisor's JVM start. Hover a bar for its start and"
				+ " duration. The same report as the supervisor's console table")
			.append((this.report.traceId() != null) ? ", and trace <code>" + esc(this.report.traceId()) + "</code>" : "")
			.append(".</footer>\n</body>\n</html>\n");
		return this.html.toString();
	}

	private void summary() {
		String state = this.report.ready() ? "ok" : "bad";
		this.html.append("<header class=\"summary ")
			.append(state)
			.append("\" data-outcome=\"")
			.append(esc(this.report.outcome()))
			.append("\">\n<h1><span class=\"badge ")
			.append(state)
			.append("\">")
			.append(esc(this.report.outcome()))
			.append("</span> ")
			.append(esc(this.wording.headline()))
			.append("</h1>\n<p class=\"verdict\">")
			.append(this.wording.verdict())
			.append("</p>\n");
		if (this.report.error() != null) {
			this.html.append("<pre class=\"error\">").append(esc(this.report.error())).append("</pre>\n");
		}
		this.html.append("<p class=\"meta\">")
			.append(this.report.servers().size())
			.append((this.report.servers().size() == 1) ? " server" : " servers")
			.append((this.report.traceId() != null) ? " · trace <code>" + esc(this.report.traceId()) + "</code>" : "")
			.append("</p>\n</header>\n");
	}

	/**
	 * Before/after: per server its spawn→ready, then every stage and slow bean that moved
	 * beyond the threshold, as two bars on one scale per row (baseline above, this startup
	 * below); regressions flagged.
	 */
	private void comparison(ReportComparison comparison) {
		this.html.append("<section class=\"compare\" data-regressed=\"")
			.append(comparison.regressed())
			.append("\">\n<h2>")
			.append(esc(comparison.text().lines().findFirst().orElse("")))
			.append("</h2>\n<p class=\"verdict\">")
			.append(comparison.regressed()
					? "Regressed: " + esc(String.join(", ", comparison.regressions()
						.stream()
						.map((change) -> change.server() + " " + change.name())
						.toList())) + "."
					: "No regression.")
			.append("</p>\n<table>\n<tr><th>server</th><th>what</th><th>before / after</th><th>times</th>"
					+ "<th>change</th></tr>\n");
		Map<String, List<ReportComparison.Change>> notable = comparison.notable();
		for (ReportComparison.Change change : comparison.changes()) {
			boolean shown = change.kind() == ReportComparison.Kind.SERVER
					|| notable.getOrDefault(change.server(), List.of()).contains(change);
			if (shown) {
				comparisonRow(change);
			}
		}
		this.html.append("</table>\n</section>\n");
	}

	private void comparisonRow(ReportComparison.Change change) {
		double scale = Math.max(Math.max(change.beforeMs(), change.afterMs()), 1e-9);
		String verdict = change.regression() ? "regressed" : change.verdict().name().toLowerCase(Locale.ROOT);
		String kind = change.kind().name().toLowerCase(Locale.ROOT);
		this.html.append("<tr class=\"change ")
			.append(verdict)
			.append("\" data-server=\"")
			.append(esc(change.server()))
			.append("\" data-kind=\"")
			.append(kind)
			.append("\" data-name=\"")
			.append(esc(change.name()))
			.append("\"><td>")
			.append(esc(change.server()))
			.append("</td><td>")
			.append(change.kind() == ReportComparison.Kind.SERVER ? "" : kind + " ")
			.append(esc(change.name()))
			.append("</td><td class=\"pair\"><i class=\"before\" style=\"width:")
			.append(Decimals.fixed(100 * change.beforeMs() / scale, 1))
			.append("%\" title=\"baseline\"></i><i class=\"after\" style=\"width:")
			.append(Decimals.fixed(100 * change.afterMs() / scale, 1))
			.append("%\" title=\"this startup\"></i></td><td>")
			.append(esc(change.line().substring(change.line().lastIndexOf(change.name()) + change.name().length()).strip()))
			.append("</td><td>")
			.append(change.regression() ? "<b>regressed</b>" : esc(change.verdict().name().toLowerCase(Locale.ROOT)))
			.append("</td></tr>\n");
	}

	private void chart() {
		this.html.append("<main class=\"chart\" style=\"--grid:")
			.append(this.geometry.grid())
			.append("\">\n")
			.append(axisRow());
		supervisorRow();
		for (ServerReport server : this.report.servers()) {
			serverRow(server);
			beanRows(server);
		}
		this.html.append(endMarker()).append("</main>\n");
	}

	private String axisRow() {
		StringBuilder row = new StringBuilder("<div class=\"row axis\"><div class=\"label\">time since the supervisor"
				+ " started</div><div class=\"track\">");
		for (TimeAxis.Tick tick : this.geometry.ticks()) {
			row.append("<span class=\"tick\" style=\"left:")
				.append(tick.position())
				.append(this.geometry.coveredByEnd(tick) ? ";visibility:hidden" : "")
				.append("\">")
				.append(tick.label())
				.append("</span>");
		}
		return row.append("</div><div class=\"stats\">spawn→ready</div></div>\n").toString();
	}

	private void supervisorRow() {
		String state = this.report.ready() ? "ok" : "bad";
		openRow("supervisor", SUPERVISOR, this.report.outcome(), "");
		label(SUPERVISOR, "gym.startup · its own stages", null, state, this.report.outcome(), null);
		this.html.append("<div class=\"track\">");
		for (Stage stage : this.report.supervisorStages()) {
			stageBar(SUPERVISOR, stage, this.report.startNs(), this.report.durationNs(), false);
		}
		closeRow(Durations.format(this.report.durationNs()), null);
	}

	/** A server's row, written straight into the page: a hundred servers make a hundred of them. */
	private void serverRow(ServerReport server) {
		boolean isCritical = this.critical.map((path) -> path.server().equals(server)).orElse(false);
		Optional<Stage> slowest = isCritical ? this.critical.get().slowestStage() : Optional.empty();
		String state = server.ready() ? "ok" : server.stopped() ? "muted" : "bad";
		String classes = (isCritical ? " critical" : "") + (server.ready() ? "" : " " + state);
		openRow("server", server.name(), server.outcome(), classes);
		label(server.name(), server.type(), HtmlWording.note(server, isCritical), state,
				ReportWording.shortOutcome(server), HtmlWording.badgeTitle(server));
		this.html.append("<div class=\"track\">");
		List<Stage> stages = server.stages();
		if (stages.isEmpty()) {
			wholeBar(server);
		}
		else {
			if (stages.get(0).startNs() > server.spawnNs()) {
				bar("gap", null, server.spawnNs(), stages.get(0).startNs(), "",
						this.wording.gapTooltip(server, stages.get(0).startNs()), "");
			}
			for (Stage stage : stages) {
				stageBar(server.name(), stage, server.spawnNs(), server.spawnToEndNs(),
						slowest.filter(stage::equals).isPresent());
			}
		}
		OptionalLong lag = server.probeLagNs();
		if (lag.isPresent()) {
			bar("lag", null, server.serverReadyNs().getAsLong(), server.endNs(),
					this.geometry.fitting(lag.getAsLong(), "probe lag", "lag"),
					this.wording.lagTooltip(server, lag.getAsLong()), "");
		}
		closeRow(Durations.format(server.spawnToEndNs()), sideNote(server));
	}

	/** Beside the row's duration: how long the platform held it back, and the probe lag. */
	private static String sideNote(ServerReport server) {
		List<String> notes = new ArrayList<>();
		server.queuedNs().ifPresent((queued) -> notes.add(ReportWording.QUEUED + " " + Durations.format(queued)));
		server.probeLagNs().ifPresent((lag) -> notes.add("probe lag " + Durations.format(lag)));
		return notes.isEmpty() ? null : String.join(" · ", notes);
	}

	/** A server that reported no stages: one bar from its spawn to its end, saying how it ended. */
	private void wholeBar(ServerReport server) {
		String kind = server.ready() ? "opaque" : server.stopped() ? "stopped" : "failed";
		bar(kind, null, server.spawnNs(), server.endNs(),
				this.geometry.fitting(server.spawnToEndNs(), HtmlWording.wholeBarText(server),
						ReportWording.outcome(server)),
				this.wording.wholeBarTooltip(server), "");
	}

	private void beanRows(ServerReport server) {
		List<Nested> beans = new ArrayList<>();
		flatten(server.beans(), 0, beans);
		List<Nested> shown = beans.isEmpty() ? List.of() : beans.stream()
			.sorted(Comparator.comparingLong((Nested nested) -> nested.bean().durationNs()).reversed())
			.limit(BEANS_PER_SERVER)
			.sorted(Comparator.comparingLong((Nested nested) -> nested.bean().startNs()))
			.toList();
		StringBuilder rows = this.html;
		for (Nested nested : shown) {
			StepTiming bean = nested.bean();
			String stage = stageAt(server, bean.startNs());
			rows.append("<div class=\"row bean\" data-row=\"bean\" data-server=\"")
				.append(esc(server.name()))
				.append("\"><div class=\"label\" style=\"padding-left:")
				.append(28 + 12 * nested.depth())
				.append("px\" title=\"")
				.append(esc((bean.beanType() != null) ? bean.beanType() : bean.label()))
				.append("\">↳ ")
				.append(esc(bean.label()))
				.append("</div><div class=\"track\">");
			bar("bean", stage, bean.startNs(), bean.endNs(), this.geometry.fitting(bean.durationNs(), bean.label()),
					this.wording.beanTooltip(server, stage, bean), "");
			rows.append("</div><div class=\"stats\">")
				.append(Durations.format(bean.durationNs()))
				.append("</div></div>\n");
		}
		server.unattributedNs()
			.ifPresent((ns) -> rows.append("<div class=\"row unattributed\" data-server=\"")
				.append(esc(server.name()))
				.append("\"><div class=\"label\">↳ unattributed</div><div class=\"track\"></div><div class=\"stats\" title=\"")
				.append(esc(ReportWording.unattributed(ns)))
				.append("\">")
				.append(Durations.format(ns))
				.append("</div></div>\n"));
		if (beans.size() > shown.size()) {
			rows.append("<div class=\"row bean more\"><div class=\"label\">↳ ")
				.append(beans.size() - shown.size())
				.append(" faster slow beans not shown</div><div class=\"track\"></div><div class=\"stats\"></div></div>\n");
		}
	}

	private static void flatten(List<StepTiming> beans, int depth, List<Nested> into) {
		for (StepTiming bean : beans) {
			into.add(new Nested(bean, depth));
			flatten(bean.children(), depth + 1, into);
		}
	}

	/** The server stage a bean began in, whose colour it takes. */
	private static String stageAt(ServerReport server, long epochNs) {
		return server.stages()
			.stream()
			.filter((stage) -> stage.startNs() <= epochNs && epochNs < stage.endNs())
			.map(Stage::name)
			.findFirst()
			.orElse(StageNames.BEANS_INSTANTIATED);
	}

	private void stageBar(String owner, Stage stage, long fromNs, long totalNs, boolean slowest) {
		this.stageNames.add(stage.name());
		String kind = "stage" + (slowest ? " slowest" : "") + (idle(stage.name()) ? " idle" : "")
				+ (waiting(stage) ? " waiting" : "");
		bar(kind, stage.name(), stage.startNs(), stage.endNs(),
				this.geometry.fitting(stage.durationNs(), this.wording.stageLabels(stage, slowest)),
				this.wording.stageTooltip(owner, stage, fromNs, totalNs), cpuBar(stage));
	}

	/**
	 * A stage's CPU time as a thin bar along its bottom, as long as the stage times the CPU per
	 * wall share (full at one busy core or more): a stage that was waiting shows almost none.
	 */
	private static String cpuBar(Stage stage) {
		return stage.counters()
			.filter((jvm) -> jvm.cpuNs() >= 0 && stage.durationNs() > 0)
			.map((jvm) -> "<i class=\"cpu\" style=\"width:"
					+ Decimals.fixed(Math.min(100.0, 100.0 * jvm.cpuNs() / stage.durationNs()), 1)
					+ "%\"></i>")
			.orElse("");
	}

	/** A stage with counters whose CPU time was under a quarter of its wall time: drawn hatched. */
	private static boolean waiting(Stage stage) {
		return stage.counters()
			.filter((jvm) -> jvm.cpuNs() >= 0 && stage.durationNs() > 0)
			.map((jvm) -> jvm.cpuNs() * 4 < stage.durationNs())
			.orElse(false);
	}

	/** Stages that are waiting rather than work, drawn hatched. */
	private static boolean idle(String stage) {
		return StageNames.WAIT_FOR_SERVERS.equals(stage) || StageNames.UNFINISHED.equals(stage);
	}

	/** A bar, into the page; {@code inside} (markup) after its label. */
	private void bar(String kind, String stage, long startNs, long endNs, String text, String tooltip, String inside) {
		StringBuilder bar = this.html.append("<div class=\"bar ").append(kind).append('"');
		if (stage != null) {
			String color = StageColors.of(stage);
			bar.append(" data-stage=\"").append(esc(stage)).append('"');
			bar.append(" style=\"--c:").append(color).append(StageColors.darkText(color) ? ";--t:#1f2328" : "");
		}
		else {
			bar.append(" style=\"");
		}
		bar.append(";left:")
			.append(this.geometry.left(startNs))
			.append(";width:")
			.append(this.geometry.width(startNs, endNs))
			.append("\" title=\"");
		HtmlText.escape(tooltip, bar).append("\">");
		if (!text.isEmpty()) {
			HtmlText.escape(text, bar.append("<span>")).append("</span>");
		}
		bar.append(inside).append("</div>");
	}

	private void label(String name, String type, String note, String state, String badge, String badgeTitle) {
		StringBuilder label = this.html.append("<div class=\"label\"><div class=\"line\"><span class=\"name\" title=\"")
			.append(esc(name))
			.append("\">")
			.append(esc(name))
			.append("</span><span class=\"badge ")
			.append(state)
			.append('"');
		if (badgeTitle != null) {
			label.append(" title=\"").append(esc(badgeTitle)).append('"');
		}
		label.append('>').append(esc(badge)).append("</span></div><div class=\"sub\">");
		if (type != null) {
			label.append("<span class=\"type\">").append(esc(type)).append("</span>");
		}
		if (note != null) {
			label.append("<span class=\"note\">").append(esc(note)).append("</span>");
		}
		label.append("</div></div>");
	}

	/** A row's opening tag; its label, then its track's opening tag and bars, follow, then {@link #closeRow}. */
	private void openRow(String kind, String name, String outcome, String classes) {
		this.html.append("<div class=\"row ").append(kind).append(classes).append("\" data-row=\"").append(kind)
			.append("\" data-server=\"");
		HtmlText.escape(name, this.html).append("\" data-outcome=\"");
		HtmlText.escape(outcome, this.html).append("\">");
	}

	/** The end of a row's track, its total and side note, and of the row. */
	private void closeRow(String total, String detail) {
		this.html.append("</div><div class=\"stats\"><b>").append(total).append("</b>");
		if (detail != null) {
			HtmlText.escape(detail, this.html.append("<small>")).append("</small>");
		}
		this.html.append("</div></div>\n");
	}

	/** The vertical line where the startup ended: all ready, or the abort. */
	private String endMarker() {
		return "<div class=\"end " + (this.report.ready() ? "ok" : "bad") + "\" style=\"--at:" + this.geometry.end()
				+ "\"><span>" + esc(ReportWording.end(this.report)) + "</span></div>\n";
	}

	private void legend() {
		this.html.append("<section class=\"legend\"><h2>Stages</h2>");
		for (String stage : this.stageNames.stream().sorted(StageColors.runOrder()).toList()) {
			String color = StageColors.of(stage);
			this.html.append("<span class=\"key\"><i class=\"swatch").append(idle(stage) ? " idle" : "")
				.append("\" style=\"--c:").append(color).append("\"></i>").append(esc(stage)).append("</span>");
		}
		this.html.append("<span class=\"key\"><i class=\"swatch lag\"></i>probe lag: ready, not noticed yet</span>")
			.append("<span class=\"key\"><i class=\"swatch outline\"></i>slowest stage of the server that held"
					+ " all ready back</span>")
			.append("<span class=\"key\"><i class=\"swatch beanish\"></i>slow bean, under its stage</span>")
			.append("<span class=\"key\"><i class=\"swatch cpuish\"></i>line under a stage: its CPU time per wall"
					+ " time (full at one busy core); a stage hatched lightly used under a quarter of it: mostly"
					+ " waiting</span>")
			.append("</section>\n");
	}

	private static String esc(String text) {
		return HtmlText.escape(text);
	}

	/**
	 * A bean and how deep it was nested in slower beans.
	 *
	 * @param bean the bean
	 * @param depth 0 for a bean no other slow bean contained
	 */
	private record Nested(StepTiming bean, int depth) {

	}

}
