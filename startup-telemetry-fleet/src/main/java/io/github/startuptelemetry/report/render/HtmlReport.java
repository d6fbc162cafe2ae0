package io.github.startuptelemetry.report.render;

import io.github.startuptelemetry.report.CriticalChain;
import io.github.startuptelemetry.report.DependencyWait;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.report.gate.Change;
import io.github.startuptelemetry.report.gate.ReportComparison;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.internal.Decimals;
import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.report.StartupReport.CriticalPath;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * A startup report as one self-contained HTML page, a waterfall in the manner of
 * {@code systemd-analyze plot}: a row for the supervisor and one per server, their stages as bars
 * on one time axis. This class is the markup; what the page says is {@link HtmlWording}'s and
 * {@link ReportWording}'s, where things go {@link WaterfallGeometry}'s, the look
 * {@link HtmlReportStyle}'s.
 */
public final class HtmlReport {

	/** Slow beans shown per server, the slowest ones: the rest are in the server's own endpoint. */
	private static final int BEANS_PER_SERVER = 6;

	private static final String SUPERVISOR = HtmlWording.SUPERVISOR;

	private final StartupReport report;

	private final Optional<CriticalPath> critical;

	/** With dependencies, the chain that set all ready: its servers are marked, its edges drawn. */
	private final Optional<CriticalChain> chain;

	/** The chart's rows written so far (each is a grid row of the chart), and the row of each server. */
	private int rows;

	private final Map<String, Integer> rowOf = new HashMap<>();

	private final WaterfallGeometry geometry;

	private final HtmlWording wording;

	private final Set<String> stageNames = new LinkedHashSet<>();

	private final StringBuilder html = new StringBuilder(32_768);

	private final @Nullable ReportComparison comparison;

	private HtmlReport(StartupReport report, @Nullable ReportComparison comparison) {
		this.report = report;
		this.comparison = comparison;
		this.critical = report.criticalPath();
		this.chain = CriticalChain.of(report);
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
		dependencies();
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
	 * Before/after: the speed factor and the baseline's spread, then per server its
	 * spawn→ready and every unit that moved beyond its allowance, as two bars on one scale per
	 * row (baseline above, this startup below); regressions flagged, the culprits named.
	 */
	private void comparison(ReportComparison comparison) {
		this.html.append("<section class=\"compare\" data-regressed=\"")
			.append(comparison.regressed())
			.append("\">\n<h2>")
			.append(esc(comparison.heading()))
			.append("</h2>\n<p class=\"verdict\">")
			.append(comparison.regressed()
					? "Regressed: " + esc(String.join(", ", comparison.culprits()
						.stream()
						.map((change) -> change.server() + " " + change.unit())
						.toList())) + "."
					: "No regression.")
			.append("</p>\n<p class=\"speed\">")
			.append(esc(comparison.speedLine()))
			.append("</p>\n<p class=\"spread\">")
			.append(esc(comparison.spreadLine()))
			.append("</p>\n<table>\n<tr><th>server</th><th>what</th><th>before / after</th><th>times</th>"
					+ "<th>change</th></tr>\n");
		Map<String, List<Change>> notable = comparison.notable();
		for (Change change : comparison.changes()) {
			boolean shown = change.kind() == Change.Kind.SERVER
					|| notable.getOrDefault(change.server(), List.of()).contains(change);
			if (shown) {
				comparisonRow(comparison, change);
			}
		}
		this.html.append("</table>\n</section>\n");
	}

	private void comparisonRow(ReportComparison comparison, Change change) {
		double scale = Math.max(Math.max(change.expectedMs(), change.afterMs()), 1e-9);
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
			.append(esc(change.unit()))
			.append("</td><td class=\"pair\"><i class=\"before\" style=\"width:")
			.append(Decimals.fixed(100 * change.expectedMs() / scale, 1))
			.append("%\" title=\"expected: the baseline at this run's speed\"></i><i class=\"after\" style=\"width:")
			.append(Decimals.fixed(100 * change.afterMs() / scale, 1))
			.append("%\" title=\"this startup\"></i></td><td>")
			.append(esc(comparison.detail(change)))
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
		for (ServerRows.Row row : ServerRows.of(this.report)) {
			if (row instanceof ServerRows.Single single) {
				serverRow(single.server(), null);
				beanRows(single.server());
			}
			else if (row instanceof ServerRows.Group group) {
				groupRows(group);
			}
		}
		this.chain.ifPresent(this::chainEdges);
		this.html.append(endMarker()).append("</main>\n");
	}

	/**
	 * Each edge of the critical chain as a line down from the instant the dependency met its
	 * condition, on its row, to the row of the server it released, whose wait ends there: placed
	 * in the chart's grid rows from one to the other, so the browser finds the rows' heights.
	 */
	private void chainEdges(CriticalChain chain) {
		for (int i = 1; i < chain.links().size(); i++) {
			CriticalChain.Link from = chain.links().get(i - 1);
			CriticalChain.Link to = chain.links().get(i);
			Integer fromRow = this.rowOf.get(from.server().name());
			Integer toRow = this.rowOf.get(to.server().name());
			if (fromRow == null || toRow == null || fromRow.equals(toRow)) {
				continue;
			}
			boolean down = fromRow < toRow;
			this.html.append("<div class=\"edge").append(down ? "" : " up").append("\" data-from=\"");
			HtmlText.escape(from.server().name(), this.html).append("\" data-to=\"");
			HtmlText.escape(to.server().name(), this.html).append("\" style=\"grid-row:")
				.append(Math.min(fromRow, toRow))
				.append(" / ")
				.append(Math.max(fromRow, toRow) + 1)
				.append(";--at:")
				.append(this.geometry.at(this.report.startNs() + from.metAfterNs()))
				.append("\" title=\"");
			HtmlText.escape(this.wording.edgeTooltip(from, to), this.html).append("\"></div>\n");
		}
	}

	/** With dependencies: the critical chain link by link, what could have overlapped, who was never spawned. */
	private void dependencies() {
		if (!this.report.hasDependencies()) {
			return;
		}
		this.html.append("<section class=\"dependencies\">\n");
		this.chain.ifPresent((chain) -> {
			this.html.append("<h2>Critical chain</h2>\n<p class=\"chain-key\">").append(esc(ReportWording.CHAIN_KEY))
				.append("</p>\n<ol class=\"chain\">\n");
			for (CriticalChain.Link link : chain.links()) {
				this.html.append("<li data-server=\"").append(esc(link.server().name())).append("\"><b>")
					.append(esc(link.server().name()))
					.append("</b> ")
					.append(esc(link.condition() + " " + ReportWording.chainAt(link)))
					.append(" +")
					.append(esc(Durations.format(link.server().spawnToEndNs())));
				String wait = ReportWording.chainWait(link);
				if (!wait.isEmpty()) {
					this.html.append(" · ").append(esc(wait));
				}
				link.slowestStage()
					.ifPresent((stage) -> this.html.append(" · ")
						.append(esc(ReportWording.slowestStage(stage.name(), UnaryOperator.identity()) + " "
								+ Durations.format(stage.durationNs()))));
				this.html.append("</li>\n");
			}
			this.html.append("</ol>\n");
		});
		List<ServerRows.Waits> waits = ServerRows.waits(DependencyWait.of(this.report)
			.stream()
			.filter((wait) -> wait.dependant().spawned())
			.toList());
		if (!waits.isEmpty()) {
			this.html.append("<h2>What could have overlapped</h2>\n<ul class=\"overlap\">\n");
			for (ServerRows.Waits shown : waits) {
				DependencyWait wait = shown.edge();
				this.html.append("<li data-dependant=\"").append(esc(wait.dependant().name()))
					.append("\" data-dependency=\"").append(esc(wait.dependency().name()))
					.append("\" data-known=\"").append(wait.overlap().isPresent()).append("\">")
					.append(ReportWording.dependencyWait(wait, HtmlWording.STRONG))
					.append(esc(shown.suffix()))
					.append("</li>\n");
			}
			this.html.append("</ul>\n");
		}
		List<ServerRows.Unspawned> unspawned = ServerRows.unspawned(this.report);
		if (!unspawned.isEmpty()) {
			this.html.append("<h2>Never spawned</h2>\n<ul class=\"unspawned\">\n");
			for (ServerRows.Unspawned shown : unspawned) {
				ServerReport server = shown.server();
				this.html.append("<li data-server=\"").append(esc(server.name())).append("\"><b>")
					.append(esc(server.name()))
					.append("</b> ")
					.append(esc(ReportWording.notSpawned(server, this.report) + shown.suffix()))
					.append("</li>\n");
			}
			this.html.append("</ul>\n");
		}
		this.html.append("</section>\n");
	}

	private String axisRow() {
		this.rows++;
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
		label(SUPERVISOR, SpanNames.SUPERVISOR_ROOT + " · its own stages", null, state, this.report.outcome(), null);
		this.html.append("<div class=\"track\">");
		for (Stage stage : this.report.supervisorStages()) {
			stageBar(SUPERVISOR, stage, this.report.startNs(), this.report.durationNs(), false);
		}
		closeRow(Durations.format(this.report.durationNs()), null);
	}

	/**
	 * A large group of replicas: a row of their spread, the row of the replica that explains it
	 * (with its slow beans), and all of them in a table that opens on a click: a thousand rows
	 * of bars made pages of tens of megabytes a browser took seconds to draw.
	 */
	private void groupRows(ServerRows.Group group) {
		boolean critical = group.replicas().stream().anyMatch(this::isCritical);
		boolean ready = group.allReady();
		boolean muted = !ready && group.replicas().stream().allMatch((server) -> server.ready() || server.stopped()
				|| !server.spawned());
		String state = ready ? "ok" : muted ? "muted" : "bad";
		openRow("group", group.name(), ready ? "ready" : group.shown().outcome(),
				(critical ? " critical" : "") + (ready ? "" : " " + state));
		int groupRow = this.rows;
		group.replicas().forEach((server) -> this.rowOf.put(server.name(), groupRow));
		int size = group.replicas().size();
		long readyCount = group.replicas().stream().filter(ServerReport::ready).count();
		label(group.name(), group.type(), ready ? size + " replicas" : group.outcomes(), state,
				ready ? size + " ready" : readyCount + "/" + size + " ready", group.outcomes());
		this.html.append("<div class=\"track\">");
		Optional<ServerRows.Spread> spread = group.spawnToReady();
		String text = spread.map((times) -> group.replicas().size() + " replicas: spawn→ready " + times.range()
				+ ", median " + Durations.format(times.median())).orElse(group.outcomes());
		bar("spread", null, group.firstSpawnNs(), group.lastEndNs(),
				this.geometry.fitting(group.lastEndNs() - group.firstSpawnNs(), text,
						spread.map(ServerRows.Spread::range).orElse("")),
				text + "\nfirst spawned at " + this.geometry.offset(group.firstSpawnNs()) + ", last "
						+ (ready ? "ready" : "ended") + " at " + this.geometry.offset(group.lastEndNs()) + "\n"
						+ group.outcomes(), "");
		closeRow(spread.map((times) -> Durations.format(times.max())).orElse("-"),
				spread.map((times) -> "median " + Durations.format(times.median()) + " · min "
						+ Durations.format(times.min())).orElse(null));
		ServerReport shown = group.shown();
		serverRow(shown, group.why());
		beanRows(shown);
		replicaTable(group);
	}

	/** Every replica of a group, a line each, in a table that opens on a click. */
	private void replicaTable(ServerRows.Group group) {
		Set<String> stages = new LinkedHashSet<>();
		group.replicas().forEach((server) -> server.stages().forEach((stage) -> stages.add(stage.name())));
		this.rows++;
		this.html.append("<details class=\"replicas\" data-server=\"");
		HtmlText.escape(group.name(), this.html).append("\"><summary>All ")
			.append(group.replicas().size())
			.append(" replicas of ");
		HtmlText.escape(group.name(), this.html).append(": spawn→ready and each stage</summary>\n<table><tr><th>server</th>"
				+ "<th>spawn→ready</th>");
		for (String stage : stages) {
			HtmlText.escape(stage, this.html.append("<th>")).append("</th>");
		}
		this.html.append("<th>outcome</th></tr>\n");
		for (ServerReport server : group.replicas()) {
			this.html.append("<tr data-server=\"");
			HtmlText.escape(server.name(), this.html).append('"');
			if (!server.ready()) {
				this.html.append(" class=\"bad\"");
			}
			HtmlText.escape(server.name(), this.html.append("><td>")).append("</td><td>")
				.append(server.spawned() ? Durations.format(server.spawnToEndNs()) : "-");
			for (String stage : stages) {
				this.html.append("</td><td>");
				server.stages()
					.stream()
					.filter((candidate) -> candidate.name().equals(stage))
					.findFirst()
					.ifPresentOrElse((found) -> this.html.append(Durations.format(found.durationNs())),
							() -> this.html.append('-'));
			}
			HtmlText.escape(ReportWording.outcome(server), this.html.append("</td><td>")).append("</td></tr>\n");
		}
		this.html.append("</table></details>\n");
	}

	private boolean isCritical(ServerReport server) {
		boolean onChain = this.chain
			.map((chain) -> chain.links().stream().anyMatch((link) -> link.server().equals(server)))
			.orElse(false);
		return onChain || (this.chain.isEmpty() && this.critical.map((path) -> path.server().equals(server)).orElse(false));
	}

	/**
	 * A server's row, written straight into the page.
	 * @param server the server
	 * @param shownFor why it is shown for its group ({@code slowest of 1000 replicas}), or {@code null}
	 */
	private void serverRow(ServerReport server, @Nullable String shownFor) {
		boolean isCritical = isCritical(server);
		Optional<Stage> slowest = isCritical ? server.slowestStage() : Optional.empty();
		String state = server.ready() ? "ok" : (server.stopped() || !server.spawned()) ? "muted" : "bad";
		String classes = (isCritical ? " critical" : "") + (server.ready() ? "" : " " + state)
				+ ((shownFor != null) ? " replica" : "");
		openRow("server", server.name(), server.outcome(), classes);
		this.rowOf.put(server.name(), this.rows);
		String note = HtmlWording.note(server, isCritical, this.chain.isPresent());
		label(server.name(), server.type(),
				(shownFor == null) ? note : (note == null) ? shownFor : shownFor + " · " + note, state,
				ReportWording.outcome(server), HtmlWording.badgeTitle(server));
		this.html.append("<div class=\"track\">");
		server.waiting().ifPresent((wait) -> waitBar(server, wait));
		List<Stage> stages = server.stages();
		if (!server.spawned()) {
			// never started: its wait is all there is
		}
		else if (stages.isEmpty()) {
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
		if (server.oneShot() && server.ready() && !stages.isEmpty() && stages.get(stages.size() - 1).endNs() < server.endNs()) {
			long readyNs = stages.get(stages.size() - 1).endNs();
			bar("gap", null, readyNs, server.endNs(), "", this.wording.exitTooltip(server, readyNs), "");
		}
		else if (lag.isPresent()) {
			bar("lag", null, server.serverReadyNs().getAsLong(), server.endNs(),
					this.geometry.fitting(lag.getAsLong(), "probe lag", "lag"),
					this.wording.lagTooltip(server, lag.getAsLong()), "");
		}
		closeRow(server.spawned() ? Durations.format(server.spawnToEndNs()) : "-", sideNote(server));
	}

	/** The wait for its dependencies before its spawn: hatched, its own segment of the row. */
	private void waitBar(ServerReport server, ServerReport.Waiting wait) {
		long endNs = wait.startNs() + server.waitedNs();
		String names = String.join(", ", wait.dependsOn().stream().map(ServerReport.DependsOn::name).toList());
		this.html.append("<div class=\"bar wait\" data-wait=\"");
		HtmlText.escape(Durations.format(server.waitedNs()), this.html).append("\" style=\"left:")
			.append(this.geometry.left(wait.startNs()))
			.append(";width:")
			.append(this.geometry.width(wait.startNs(), endNs))
			.append("\" title=\"");
		HtmlText.escape(this.wording.waitTooltip(server, wait), this.html).append("\">");
		String text = this.geometry.fitting(server.waitedNs(),
				(names.isEmpty() ? "waiting" : "waiting for " + names) + " " + Durations.format(server.waitedNs()),
				"waiting " + Durations.format(server.waitedNs()), Durations.format(server.waitedNs()));
		if (!text.isEmpty()) {
			HtmlText.escape(text, this.html.append("<span>")).append("</span>");
		}
		this.html.append("</div>");
	}

	/** Beside the row's duration: how long the platform held it back, and the probe lag. */
	private static String sideNote(ServerReport server) {
		List<String> notes = new ArrayList<>();
		if (server.waiting().isPresent()) {
			notes.add(ReportWording.WAITED + " " + Durations.format(server.waitedNs()));
		}
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
			this.rows++;
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
		server.unattributedNs().ifPresent((ns) -> this.rows++);
		server.unattributedNs()
			.ifPresent((ns) -> rows.append("<div class=\"row unattributed\" data-server=\"")
				.append(esc(server.name()))
				.append("\"><div class=\"label\">↳ unattributed</div><div class=\"track\"></div><div class=\"stats\" title=\"")
				.append(esc(ReportWording.unattributed(ns)))
				.append("\">")
				.append(Durations.format(ns))
				.append("</div></div>\n"));
		if (beans.size() > shown.size()) {
			this.rows++;
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
		this.rows++;
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
		if (this.report.hasDependencies()) {
			this.html.append("<span class=\"key\"><i class=\"swatch wait\"></i>")
				.append(StageNames.WAITING_FOR_DEPENDENCIES)
				.append(": before its spawn, until its depends-on were met</span>");
		}
		if (this.chain.isPresent()) {
			this.html.append("<span class=\"key\"><i class=\"swatch edgeish\"></i>critical chain: from when a"
					+ " dependency met its condition to the server it released</span>");
		}
		this.html.append("<span class=\"key\"><i class=\"swatch lag\"></i>probe lag: ready, not noticed yet</span>")
			.append("<span class=\"key\"><i class=\"swatch outline\"></i>slowest stage of the server")
			.append(this.chain.isPresent() ? "s on the critical chain" : " that held all ready back")
			.append("</span>")
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
