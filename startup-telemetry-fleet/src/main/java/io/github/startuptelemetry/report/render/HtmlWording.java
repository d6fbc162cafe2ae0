package io.github.startuptelemetry.report.render;

import io.github.startuptelemetry.report.CriticalChain;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.report.StartupReport.CriticalPath;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * What the HTML waterfall says beyond the words it shares with the console
 * ({@link ReportWording}): its headline and verdict, bar labels and tooltips, plain text but for
 * the verdict, whose names and numbers are marked up (and escaped) here.
 */
final class HtmlWording {

	static final String SUPERVISOR = "supervisor";

	static final UnaryOperator<String> STRONG = (text) -> "<b>" + HtmlText.escape(text) + "</b>";

	private static final UnaryOperator<String> WHO = (text) -> "<b class=\"who\">" + HtmlText.escape(text) + "</b>";

	private final StartupReport report;

	private final WaterfallGeometry geometry;

	HtmlWording(StartupReport report, WaterfallGeometry geometry) {
		this.report = report;
		this.geometry = geometry;
	}

	String headline() {
		return this.report.ready() ? "Startup ready in " + Durations.format(this.report.durationNs())
				: ReportWording.endedAfter(this.report);
	}

	/** One sentence a glance can take in, as HTML: what held the startup back, or what ended it. */
	String verdict() {
		if (this.report.ready()) {
			return CriticalChain.of(this.report)
				.map((chain) -> "All ready " + ReportWording.chainHeadline(chain, STRONG, WHO) + ".")
				.orElseGet(() -> this.report.criticalPath().map(HtmlWording::criticalPath).orElse("No servers."));
		}
		// at most a few names per list: a thousand pending servers are a count, not a paragraph
		List<ServerReport> unspawned = this.report.servers().stream().filter((s) -> !s.spawned()).toList();
		String never = unspawned.isEmpty() ? ""
				: " Never spawned, still waiting for their dependencies: " + ServerRows.bounded(unspawned, HtmlWording::who)
						+ ".";
		List<ServerReport> exited = this.report.servers()
			.stream()
			.filter((s) -> !s.ready() && s.exitCode().isPresent())
			.toList();
		if (!exited.isEmpty()) {
			long started = this.report.servers().stream().filter(ServerReport::spawned).count();
			String more = (exited.size() > ServerRows.NAMED)
					? "; " + (exited.size() - ServerRows.NAMED) + " more exited before they were ready" : "";
			return exited.stream()
				.limit(ServerRows.NAMED)
				.map((s) -> WHO.apply(s.name()) + " exited with code " + s.exitCode().getAsInt() + " after "
						+ Durations.format(s.spawnToEndNs()) + ", before it was ready")
				.collect(Collectors.joining("; ", "",
						more + ((exited.size() < started) ? "; the others were stopped." : ".")))
					+ never;
		}
		List<ServerReport> pending = this.report.servers().stream().filter((s) -> !s.ready() && s.spawned()).toList();
		String waiting = pending.isEmpty() ? "" : " Not ready yet: " + ServerRows.bounded(pending, HtmlWording::who) + ".";
		return switch (this.report.outcome()) {
			case StartupOutcome.TIMEOUT -> "The ready timeout passed." + waiting + never;
			case StartupOutcome.INTERRUPTED -> "The supervisor was stopped during startup." + waiting + never;
			default -> "The startup failed." + waiting + never;
		};
	}

	private static String who(ServerReport server) {
		return WHO.apply(server.name());
	}

	private static String criticalPath(CriticalPath path) {
		String line = "All ready " + ReportWording.heldBack(path, STRONG, WHO);
		return path.slowestStage()
			.map((stage) -> line + ": " + ReportWording.slowestStage(stage.name(), STRONG) + " took "
					+ STRONG.apply(Durations.format(stage.durationNs())) + " ("
					+ ReportWording.percentOf(stage.durationNs(), path.server().spawnToEndNs()) + " of its spawn→ready).")
			.orElse(line + ".");
	}

	/** The label candidates of a stage's bar, longest first: the first that fits is shown. */
	String[] stageLabels(Stage stage, boolean slowest) {
		String duration = Durations.format(stage.durationNs());
		return slowest ? new String[] { "slowest: " + stage.name() + " " + duration, stage.name() + " " + duration, duration }
				: new String[] { stage.name() + " " + duration, stage.name(), duration };
	}

	String stageTooltip(String owner, Stage stage, long fromNs, long totalNs) {
		boolean supervisor = owner.equals(SUPERVISOR);
		return owner + " · " + stage.name() + "\nstarts " + this.geometry.offset(stage.startNs()) + " ("
				+ Durations.format(stage.startNs() - fromNs) + " after " + (supervisor ? "start" : "spawn") + ")\ntakes "
				+ Durations.format(stage.durationNs()) + " (" + ReportWording.percentOf(stage.durationNs(), totalNs)
				+ " of " + (supervisor ? "the startup" : "spawn→ready") + ")"
				+ stage.counters().map((jvm) -> "\n" + ReportWording.counters(stage, jvm)).orElse("");
	}

	String gapTooltip(ServerReport server, long firstStageNs) {
		return server.name() + " · spawn → first stage\nnot covered by the server's own stages\n"
				+ times(server.spawnNs(), firstStageNs, server);
	}

	String exitTooltip(ServerReport server, long readyNs) {
		return server.name() + " · after its application_ready, until it exited 0 (a one-shot job)\n"
				+ times(readyNs, server.endNs(), server);
	}

	String lagTooltip(ServerReport server, long lagNs) {
		return server.name() + " · probe lag " + Durations.format(lagNs) + "\nready at "
				+ this.geometry.offset(server.serverReadyNs().getAsLong()) + ", noticed by the supervisor at "
				+ this.geometry.offset(server.endNs());
	}

	/** What the one bar of a server that reported no stages says: how its startup ended. */
	static String wholeBarText(ServerReport server) {
		return server.ready() ? ReportWording.outcome(server) + " (no stages reported)" : ReportWording.failure(server);
	}

	String wholeBarTooltip(ServerReport server) {
		return server.name() + " · " + wholeBarText(server) + "\n" + times(server.spawnNs(), server.endNs(), server);
	}

	String beanTooltip(ServerReport server, String stage, StepTiming bean) {
		return server.name() + " · " + stage + " · bean " + bean.label()
				+ ((bean.beanType() != null) ? "\n" + bean.beanType() : "")
				+ "\n" + times(bean.startNs(), bean.endNs(), server);
	}

	/** The label under a server's name: why it matters, or why it is not ready. */
	static String note(ServerReport server, boolean critical, boolean chain) {
		if (critical) {
			return chain ? "on the critical chain" : "held back all ready";
		}
		return server.ready() ? null : ReportWording.shortFailure(server);
	}

	/** A wait bar's tooltip: from when to when, for what, and what released it (or what it still waited for). */
	String waitTooltip(ServerReport server, ServerReport.Waiting wait) {
		long endNs = wait.startNs() + server.waitedNs();
		StringBuilder text = new StringBuilder(server.name()).append(" · ")
			.append(StageNames.WAITING_FOR_DEPENDENCIES)
			.append("\nfrom ")
			.append(this.geometry.offset(wait.startNs()))
			.append(" to ")
			.append(this.geometry.offset(endNs))
			.append(" (")
			.append(Durations.format(server.waitedNs()))
			.append(")");
		if (!wait.dependsOn().isEmpty()) {
			text.append("\nfor ").append(String.join(", ", wait.dependsOn().stream().map(Object::toString).toList()));
		}
		if (wait.releasedBy() != null) {
			text.append("\nreleased by ").append(wait.releasedBy());
		}
		if (!wait.spawned()) {
			text.append('\n').append(ReportWording.notSpawned(server, this.report));
		}
		return text.toString();
	}

	/** A critical chain edge's tooltip. */
	String edgeTooltip(CriticalChain.Link from, CriticalChain.Link to) {
		return from.server().name() + " " + from.condition() + " at " + this.geometry.offset(this.report.startNs()
				+ from.metAfterNs()) + " → " + to.server().name() + " spawned, after it "
				+ ReportWording.chainWait(to);
	}

	static String badgeTitle(ServerReport server) {
		return "outcome " + ReportWording.outcome(server);
	}

	private String times(long startNs, long endNs, ServerReport server) {
		return "starts " + this.geometry.offset(startNs) + " (" + Durations.format(startNs - server.spawnNs())
				+ " after spawn)\ntakes " + Durations.format(endNs - startNs);
	}

}
