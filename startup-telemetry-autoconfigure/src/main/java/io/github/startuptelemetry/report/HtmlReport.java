package io.github.startuptelemetry.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.contract.StartupOutcome;
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
 * model holds (names, times, ids, the error), never an environment value.
 */
public final class HtmlReport {

	/** About how wide the time track is on a laptop screen, to judge whether a label fits its bar. */
	private static final double TRACK_PX = 960;

	private static final double CHAR_PX = 7.0;

	/** Slow beans shown per server, the slowest ones: the rest are in the server's own endpoint. */
	private static final int BEANS_PER_SERVER = 6;

	/** The share of the time track the end marker's label takes, left of the marker. */
	private static final double END_LABEL_WIDTH = 0.13;

	/** The share of the time track right of the end marker where a tick label would touch it. */
	private static final double END_MARGIN = 0.04;

	private static final String SUPERVISOR = "supervisor";

	private final StartupReport report;

	private final Optional<CriticalPath> critical;

	private final TimeAxis axis;

	private final Set<String> stageNames = new LinkedHashSet<>();

	private final StringBuilder html = new StringBuilder(32_768);

	private HtmlReport(StartupReport report) {
		this.report = report;
		this.critical = report.criticalPath();
		this.axis = new TimeAxis(report.startNs(), extentNs(report) - report.startNs());
	}

	public static String render(StartupReport report) {
		return new HtmlReport(report).page();
	}

	private String page() {
		this.html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
			.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
			.append("<meta name=\"generator\" content=\"startup-telemetry\">\n<title>")
			.append(esc(headline()))
			.append(" · startup-telemetry</title>\n<style>\n")
			.append(HtmlReportStyle.CSS)
			.append("</style>\n</head>\n<body>\n");
		summary();
		chart();
		legend();
		this.html.append("<footer>Wall-clock times; 0 is the supervisor's JVM start. Hover a bar for its start and"
				+ " duration. The same report as the supervisor's console table")
			.append((this.report.traceId() != null) ? ", and trace <code>" + esc(this.report.traceId()) + "</code>" : "")
			.append(".</footer>\n</body>\n</html>\n");
		return this.html.toString();
	}

	private String headline() {
		return this.report.ready() ? "Startup ready in " + Durations.format(this.report.durationNs())
				: "Startup " + this.report.outcome() + " after " + Durations.format(this.report.durationNs());
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
			.append(esc(headline()))
			.append("</h1>\n<p class=\"verdict\">")
			.append(verdict())
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

	/** One sentence a glance can take in: what held the startup back, or what ended it. */
	private String verdict() {
		if (this.report.ready()) {
			return this.critical.map((path) -> {
				String line = "All ready at <b>" + Durations.format(path.allReadyAfterNs())
						+ "</b>, held back by <b class=\"who\">" + esc(path.server().name()) + "</b>";
				return path.slowestStage()
					.map((stage) -> line + ": its slowest stage <b>" + esc(stage.name()) + "</b> took <b>"
							+ Durations.format(stage.durationNs()) + "</b> ("
							+ percentOf(stage.durationNs(), path.server().spawnToEndNs()) + " of its spawn→ready).")
					.orElse(line + ".");
			}).orElse("No servers.");
		}
		List<ServerReport> exited = this.report.servers()
			.stream()
			.filter((s) -> !s.ready() && s.exitCode().isPresent())
			.toList();
		if (!exited.isEmpty()) {
			return exited.stream()
				.map((s) -> "<b class=\"who\">" + esc(s.name()) + "</b> exited with code " + s.exitCode().getAsInt()
						+ " after " + Durations.format(s.spawnToEndNs()) + ", before it was ready")
				.collect(Collectors.joining("; ", "",
						(exited.size() < this.report.servers().size()) ? "; the others were stopped." : "."));
		}
		List<String> pending = this.report.servers()
			.stream()
			.filter((s) -> !s.ready())
			.map((s) -> "<b class=\"who\">" + esc(s.name()) + "</b>")
			.toList();
		String waiting = pending.isEmpty() ? "" : " Not ready yet: " + String.join(", ", pending) + ".";
		return switch (this.report.outcome()) {
			case StartupOutcome.TIMEOUT -> "The ready timeout passed." + waiting;
			case StartupOutcome.INTERRUPTED -> "The supervisor was stopped during startup." + waiting;
			default -> "The startup failed." + waiting;
		};
	}

	private void chart() {
		this.html.append("<main class=\"chart\" style=\"--grid:")
			.append(this.axis.gridPercent())
			.append("\">\n")
			.append(axisRow())
			.append(supervisorRow());
		for (ServerReport server : this.report.servers()) {
			this.html.append(serverRow(server)).append(beanRows(server));
		}
		this.html.append(endMarker()).append("</main>\n");
	}

	private String axisRow() {
		StringBuilder row = new StringBuilder("<div class=\"row axis\"><div class=\"label\">time since the supervisor"
				+ " started</div><div class=\"track\">");
		double end = this.axis.fraction(this.report.durationNs());
		for (TimeAxis.Tick tick : this.axis.ticks()) {
			// the end marker's label stands where a tick too close to it would
			boolean hidden = tick.fraction() > end - END_LABEL_WIDTH && tick.fraction() < end + END_MARGIN;
			row.append("<span class=\"tick\" style=\"left:")
				.append(tick.position())
				.append(hidden ? ";visibility:hidden" : "")
				.append("\">")
				.append(tick.label())
				.append("</span>");
		}
		return row.append("</div><div class=\"stats\">spawn→ready</div></div>\n").toString();
	}

	private String supervisorRow() {
		StringBuilder track = new StringBuilder();
		for (Stage stage : this.report.supervisorStages()) {
			track.append(stageBar(SUPERVISOR, stage, this.report.startNs(), this.report.durationNs(), false));
		}
		String state = this.report.ready() ? "ok" : "bad";
		return row("supervisor", SUPERVISOR, this.report.outcome(), "",
				label(SUPERVISOR, "gym.startup · its own stages", null, state, this.report.outcome(), null),
				track.toString(), Durations.format(this.report.durationNs()), null);
	}

	private String serverRow(ServerReport server) {
		boolean isCritical = this.critical.map((path) -> path.server().equals(server)).orElse(false);
		Optional<Stage> slowest = isCritical ? this.critical.get().slowestStage() : Optional.empty();
		StringBuilder track = new StringBuilder();
		List<Stage> stages = server.stages();
		if (stages.isEmpty()) {
			track.append(wholeBar(server));
		}
		else {
			if (stages.get(0).startNs() > server.spawnNs()) {
				track.append(bar("gap", null, server.spawnNs(), stages.get(0).startNs(), "",
						server.name() + " · spawn → first stage\nnot covered by the server's own stages\n"
								+ times(server.spawnNs(), stages.get(0).startNs(), server)));
			}
			for (Stage stage : stages) {
				track.append(stageBar(server.name(), stage, server.spawnNs(), server.spawnToEndNs(),
						slowest.filter(stage::equals).isPresent()));
			}
		}
		server.probeLagNs().ifPresent((lag) -> {
			long ready = server.serverReadyNs().getAsLong();
			track.append(bar("lag", null, ready, server.endNs(), fitting(lag, "probe lag", "lag"),
					server.name() + " · probe lag " + Durations.format(lag) + "\nready at " + this.axis.offset(ready)
							+ ", noticed by the supervisor at " + this.axis.offset(server.endNs())));
		});
		String state = server.ready() ? "ok" : stopped(server) ? "muted" : "bad";
		String badge = stopped(server) ? "stopped" : server.outcomeText();
		String note = isCritical ? "held back all ready" : server.ready() ? null : shortFailure(server);
		String classes = (isCritical ? " critical" : "") + (server.ready() ? "" : " " + state);
		return row("server", server.name(), server.outcome(), classes,
				label(server.name(), server.type(), note, state, badge, badgeTitle(server)), track.toString(),
				Durations.format(server.spawnToEndNs()),
				server.probeLagNs().isPresent() ? "probe lag " + Durations.format(server.probeLagNs().getAsLong()) : null);
	}

	/** A server that reported no stages: one bar from its spawn to its end, saying how it ended. */
	private String wholeBar(ServerReport server) {
		String kind = server.ready() ? "opaque" : stopped(server) ? "stopped" : "failed";
		String text = server.ready() ? "ready (no stages reported)" : failure(server);
		return bar(kind, null, server.spawnNs(), server.endNs(), fitting(server.spawnToEndNs(), text, server.outcomeText()),
				server.name() + " · " + text + "\n" + times(server.spawnNs(), server.endNs(), server));
	}

	/** Why a server that is not ready stopped, for its bar. */
	private static String failure(ServerReport server) {
		if (server.exitCode().isPresent()) {
			return "exited with code " + server.exitCode().getAsInt() + " before it was ready";
		}
		return switch (server.outcome()) {
			case StartupOutcome.TIMEOUT -> "not ready when the ready timeout passed";
			case StartupOutcome.INTERRUPTED -> "still starting when the supervisor was stopped";
			case StartupOutcome.CRASHED -> "still starting when another server crashed; stopped";
			default -> "still starting when the startup failed";
		};
	}

	/** The same in a few words, for its label. */
	private static String shortFailure(ServerReport server) {
		if (server.exitCode().isPresent()) {
			return "exited before it was ready";
		}
		return switch (server.outcome()) {
			case StartupOutcome.TIMEOUT -> "not ready at the timeout";
			case StartupOutcome.INTERRUPTED -> "supervisor stopped";
			case StartupOutcome.CRASHED -> "another server crashed";
			default -> "startup failed";
		};
	}

	/** Still starting when another server crashed the startup: stopped, not at fault. */
	private static boolean stopped(ServerReport server) {
		return StartupOutcome.CRASHED.equals(server.outcome()) && server.exitCode().isEmpty();
	}

	private static String badgeTitle(ServerReport server) {
		return "outcome " + server.outcomeText();
	}

	private String beanRows(ServerReport server) {
		List<Nested> beans = new ArrayList<>();
		flatten(server.beans(), 0, beans);
		List<Nested> shown = beans.stream()
			.sorted(Comparator.comparingLong((Nested nested) -> nested.bean().durationNs()).reversed())
			.limit(BEANS_PER_SERVER)
			.sorted(Comparator.comparingLong((Nested nested) -> nested.bean().startNs()))
			.toList();
		StringBuilder rows = new StringBuilder();
		for (Nested nested : shown) {
			StepTiming bean = nested.bean();
			String stage = stageAt(server, bean.startNs());
			String tooltip = server.name() + " · " + stage + " · bean " + bean.label()
					+ ((bean.beanType() != null) ? "\n" + bean.beanType() : "") + "\n"
					+ times(bean.startNs(), bean.endNs(), server);
			rows.append("<div class=\"row bean\" data-row=\"bean\" data-server=\"")
				.append(esc(server.name()))
				.append("\"><div class=\"label\" style=\"padding-left:")
				.append(28 + 12 * nested.depth())
				.append("px\" title=\"")
				.append(esc((bean.beanType() != null) ? bean.beanType() : bean.label()))
				.append("\">↳ ")
				.append(esc(bean.label()))
				.append("</div><div class=\"track\">")
				.append(bar("bean", stage, bean.startNs(), bean.endNs(), fitting(bean.durationNs(), bean.label()),
						tooltip))
				.append("</div><div class=\"stats\">")
				.append(Durations.format(bean.durationNs()))
				.append("</div></div>\n");
		}
		if (beans.size() > shown.size()) {
			rows.append("<div class=\"row bean more\"><div class=\"label\">↳ ")
				.append(beans.size() - shown.size())
				.append(" faster slow beans not shown</div><div class=\"track\"></div><div class=\"stats\"></div></div>\n");
		}
		return rows.toString();
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

	private String stageBar(String owner, Stage stage, long fromNs, long totalNs, boolean slowest) {
		this.stageNames.add(stage.name());
		String duration = Durations.format(stage.durationNs());
		String text = slowest ? fitting(stage.durationNs(), "slowest: " + stage.name() + " " + duration,
				stage.name() + " " + duration, duration)
				: fitting(stage.durationNs(), stage.name() + " " + duration, stage.name(), duration);
		String tooltip = owner + " · " + stage.name() + "\nstarts " + this.axis.offset(stage.startNs()) + " ("
				+ Durations.format(stage.startNs() - fromNs) + " after " + (owner.equals(SUPERVISOR) ? "start" : "spawn")
				+ ")\ntakes " + duration + " (" + percentOf(stage.durationNs(), totalNs) + " of "
				+ (owner.equals(SUPERVISOR) ? "the startup" : "spawn→ready") + ")";
		String kind = "stage" + (slowest ? " slowest" : "") + (idle(stage.name()) ? " idle" : "");
		return bar(kind, stage.name(), stage.startNs(), stage.endNs(), text, tooltip);
	}

	/** Stages that are waiting rather than work, drawn hatched. */
	private static boolean idle(String stage) {
		return StageNames.WAIT_FOR_SERVERS.equals(stage) || StageNames.UNFINISHED.equals(stage);
	}

	private String bar(String kind, String stage, long startNs, long endNs, String text, String tooltip) {
		StringBuilder bar = new StringBuilder("<div class=\"bar ").append(kind).append('"');
		if (stage != null) {
			String color = StageColors.of(stage);
			bar.append(" data-stage=\"").append(esc(stage)).append('"');
			bar.append(" style=\"--c:").append(color).append(StageColors.darkText(color) ? ";--t:#1f2328" : "");
		}
		else {
			bar.append(" style=\"");
		}
		bar.append(";left:")
			.append(this.axis.percentAt(startNs))
			.append(";width:")
			.append(this.axis.percent(endNs - startNs))
			.append("\" title=\"")
			.append(esc(tooltip))
			.append("\">");
		if (!text.isEmpty()) {
			bar.append("<span>").append(esc(text)).append("</span>");
		}
		return bar.append("</div>").toString();
	}

	/** The first of the texts that fits in a bar of this duration, or none. */
	private String fitting(long durationNs, String... texts) {
		double px = this.axis.fraction(durationNs) * TRACK_PX;
		for (String text : texts) {
			if (text.length() * CHAR_PX + 12 <= px) {
				return text;
			}
		}
		return "";
	}

	private String times(long startNs, long endNs, ServerReport server) {
		return "starts " + this.axis.offset(startNs) + " (" + Durations.format(startNs - server.spawnNs())
				+ " after spawn)\ntakes " + Durations.format(endNs - startNs);
	}

	private static String percentOf(long ns, long totalNs) {
		return (totalNs <= 0) ? "-" : String.format(Locale.ROOT, "%.0f%%", 100.0 * ns / totalNs);
	}

	private static String label(String name, String type, String note, String state, String badge, String badgeTitle) {
		StringBuilder label = new StringBuilder("<div class=\"label\"><div class=\"line\"><span class=\"name\" title=\"")
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
		return label.append("</div></div>").toString();
	}

	private static String row(String kind, String name, String outcome, String classes, String label, String track,
			String total, String detail) {
		return "<div class=\"row " + kind + classes + "\" data-row=\"" + kind + "\" data-server=\"" + esc(name)
				+ "\" data-outcome=\"" + esc(outcome) + "\">" + label + "<div class=\"track\">" + track
				+ "</div><div class=\"stats\"><b>" + total + "</b>"
				+ ((detail != null) ? "<small>" + esc(detail) + "</small>" : "") + "</div></div>\n";
	}

	/** The vertical line where the startup ended: all ready, or the abort. */
	private String endMarker() {
		String text = (this.report.ready() ? "all ready " : this.report.outcome() + " ")
				+ Durations.format(this.report.durationNs());
		return "<div class=\"end " + (this.report.ready() ? "ok" : "bad") + "\" style=\"--at:"
				+ String.format(Locale.ROOT, "%.5f", this.axis.fraction(this.report.durationNs())) + "\"><span>"
				+ esc(text) + "</span></div>\n";
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
			.append("</section>\n");
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
