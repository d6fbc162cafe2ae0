package io.github.startuptelemetry.testcontexts.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.report.render.ReportStyle;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * A test run's report as one self-contained HTML page in the fleet waterfall's look
 * ({@link ReportStyle}): a row per test JVM (its start to its first context) and per context (its
 * stages on the run's time axis, its slowest beans below), each context saying why it was new;
 * then the top causes and the slowest beans.
 */
public final class TestReportHtml {

	private static final int BEANS_PER_CONTEXT = 3;

	private final TestReport report;

	private final ReportStyle.Axis axis;

	private final Set<String> stageNames = new LinkedHashSet<>();

	private final StringBuilder html = new StringBuilder(32_768);

	private TestReportHtml(TestReport report) {
		this.report = report;
		long end = report.contexts().stream().mapToLong(TestContextReport::readyNs).max().orElse(report.endNs());
		this.axis = ReportStyle.axis(report.startNs(), Math.max(end, report.endNs()) - report.startNs());
	}

	public static String render(TestReport report) {
		return new TestReportHtml(report).page();
	}

	private String page() {
		String headline = this.report.contexts().size() + " test contexts, " + Durations.format(this.report.startupNs())
				+ " of startup";
		this.html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
			.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
			.append("<meta name=\"generator\" content=\"startup-telemetry\">\n<title>")
			.append(esc(headline))
			.append(" · startup-telemetry</title>\n<style>\n")
			.append(ReportStyle.css())
			.append(".why { margin-top: 14px; padding: 10px 14px; background: #fff; border: 1px solid #d0d7de;"
					+ " border-radius: 8px; }\n.why h2 { margin: 8px 0 4px; font-size: 14px; }\n"
					+ ".why li { margin: 3px 0; }\n.why .hint { color: var(--muted); }\n")
			.append("</style>\n</head>\n<body>\n");
		summary(headline);
		chart();
		contexts();
		causes();
		legend();
		this.html.append("<footer>Wall-clock times; 0 is the first test JVM's start. A context's row runs from its start"
				+ " (Spring Boot's, or its creation without Boot) to ready. The same report as the console summary and"
				+ " startup-test-report.json.</footer>\n</body>\n</html>\n");
		return this.html.toString();
	}

	private void summary(String headline) {
		boolean failed = this.report.failed();
		List<TestContextReport> avoidable = this.report.avoidable();
		this.html.append("<header class=\"summary ").append(failed ? "bad" : "ok").append("\" data-contexts=\"")
			.append(this.report.contexts().size()).append("\">\n<h1><span class=\"badge ").append(failed ? "bad" : "ok")
			.append("\">").append(failed ? "failed" : "ready").append("</span> ").append(esc(headline))
			.append("</h1>\n<p class=\"verdict\">");
		if (avoidable.isEmpty()) {
			this.html.append("Each test JVM created one context: nothing to reuse.");
		}
		else {
			this.html.append("<b class=\"who\">").append(avoidable.size()).append(" more</b> than one per test JVM: ")
				.append(esc(Durations.format(avoidable.stream().mapToLong(TestContextReport::startupNs).sum())))
				.append(" of startup");
			this.report.causes().stream().findFirst().ifPresent((cause) -> this.html.append(", most for <b>")
				.append(esc(cause.text())).append("</b>"));
			this.html.append('.');
		}
		this.html.append("</p>\n<p class=\"meta\">").append(this.report.jvms().size())
			.append((this.report.jvms().size() == 1) ? " test JVM" : " test JVMs")
			.append((this.report.runId() != null) ? " · run <code>" + esc(this.report.runId()) + "</code>" : "")
			.append("</p>\n</header>\n");
	}

	private void chart() {
		this.html.append("<main class=\"chart\" style=\"--grid:").append(this.axis.grid()).append("\">\n")
			.append("<div class=\"row axis\"><div class=\"label\">time since the first test JVM started</div>"
					+ "<div class=\"track\">");
		for (ReportStyle.Tick tick : this.axis.ticks()) {
			this.html.append("<span class=\"tick\" style=\"left:").append(tick.position()).append("\">")
				.append(esc(tick.label())).append("</span>");
		}
		this.html.append("</div><div class=\"stats\">startup</div></div>\n");
		boolean jvms = this.report.jvms().size() > 1;
		for (TestJvm jvm : this.report.jvms()) {
			this.html.append("<div class=\"row supervisor\" data-row=\"jvm\" data-pid=\"").append(jvm.pid()).append("\">");
			label("JVM " + jvm.pid(), "its start to its first context", "ok", "JVM", null);
			this.html.append("<div class=\"track\">");
			if (jvm.firstContextNs() >= 0) {
				bar("stage", "main_start", jvm.startNs(), jvm.firstContextNs(), "JVM start, test discovery",
						"JVM " + jvm.pid() + ": its start to its first context, " + Durations.format(jvm.beforeFirstContextNs()));
			}
			this.html.append("</div><div class=\"stats\"><b>").append(esc(Durations.format(jvm.beforeFirstContextNs())))
				.append("</b></div></div>\n");
			for (TestContextReport context : this.report.contexts()) {
				if (context.pid() == jvm.pid()) {
					contextRow(context, jvms);
				}
			}
		}
		this.html.append("</main>\n");
	}

	private void contextRow(TestContextReport context, boolean jvms) {
		String state = context.ready() ? "ok" : "bad";
		this.html.append("<div class=\"row server").append(context.ready() ? "" : " bad")
			.append("\" data-row=\"context\" data-context=\"").append(esc(context.name())).append("\" data-number=\"")
			.append(context.number()).append("\" data-outcome=\"").append(esc(context.outcome())).append("\">");
		label(context.reference(jvms) + " " + context.name(), String.join(", ", context.testClasses()), state,
				context.ready() ? (context.why().firstInJvm() ? "first" : "new") : "failed",
				context.why().firstInJvm() ? null : context.why().text());
		this.html.append("<div class=\"track\">");
		for (Stage stage : context.timeline().stages()) {
			this.stageNames.add(stage.name());
			bar("stage", stage.name(), stage.startNs(), stage.endNs(), stage.name(), context.reference(false) + " "
					+ stage.name() + ": " + Durations.format(stage.durationNs()) + " at " + this.axis.offset(stage.startNs()));
		}
		this.html.append("</div><div class=\"stats\"><b>").append(esc(Durations.format(context.startupNs())))
			.append("</b>");
		if (context.closedBy() != null) {
			this.html.append("<small>closed by ").append(esc(context.closedBy())).append("</small>");
		}
		this.html.append("</div></div>\n");
		List<StepTiming> beans = new ArrayList<>();
		flatten(context.timeline().steps(), beans);
		beans.stream()
			.sorted(Comparator.comparingLong(StepTiming::durationNs).reversed())
			.limit(BEANS_PER_CONTEXT)
			.forEach((bean) -> {
				this.html.append("<div class=\"row bean\" data-row=\"bean\" data-context=\"").append(esc(context.name()))
					.append("\"><div class=\"label\" style=\"padding-left:28px\" title=\"")
					.append(esc((bean.beanType() != null) ? bean.beanType() : bean.label())).append("\">↳ ")
					.append(esc(bean.label())).append("</div><div class=\"track\">");
				bar("bean", "beans_instantiated", bean.startNs(), bean.endNs(), "",
						bean.label() + ": " + Durations.format(bean.durationNs()));
				this.html.append("</div><div class=\"stats\">").append(esc(Durations.format(bean.durationNs())))
					.append("</div></div>\n");
			});
	}

	/** Each context's test classes, why it was new, and what to change: the words the chart's rows abbreviate. */
	private void contexts() {
		boolean jvms = this.report.jvms().size() > 1;
		this.html.append("<section class=\"why\">\n<h2>Why each context was new</h2>\n<ol>\n");
		for (TestContextReport context : this.report.contexts()) {
			this.html.append("<li data-context=\"").append(esc(context.name())).append("\"><b>")
				.append(esc(context.reference(jvms) + " " + context.name())).append("</b> ")
				.append(esc(Durations.format(context.startupNs()))).append(", used by ")
				.append(esc(String.join(", ", context.testClasses()))).append(": ").append(esc(context.why().text()));
			if (context.why().otherJvm() != null) {
				this.html.append("; JVM ").append(context.why().otherJvm()).append(" created it first (forks share no cache)");
			}
			if (!context.why().differences().isEmpty()) {
				this.html.append("<ul>");
				context.why().differences().forEach((difference) -> this.html.append("<li>")
					.append(esc(difference.text())).append("</li>"));
				this.html.append("</ul>");
			}
			if (context.why().hint() != null) {
				this.html.append("<div class=\"hint\">").append(esc(context.why().hint())).append("</div>");
			}
			if (!context.ready()) {
				this.html.append("<pre class=\"error\">").append(esc(String.valueOf(context.error()))).append("</pre>");
			}
			this.html.append("</li>\n");
		}
		this.html.append("</ol>\n</section>\n");
	}

	private void causes() {
		List<TestReport.Cause> causes = this.report.causes();
		List<TestReport.SlowBean> beans = this.report.slowestBeans(10);
		if (causes.isEmpty() && beans.isEmpty()) {
			return;
		}
		this.html.append("<section class=\"why causes\">\n");
		if (!causes.isEmpty()) {
			this.html.append("<h2>Top causes of new contexts</h2>\n<ul>\n");
			causes.forEach((cause) -> this.html.append("<li><b>").append(esc(Durations.format(cause.startupNs())))
				.append("</b> ").append(esc(cause.text())).append(" <span class=\"hint\">(")
				.append(esc(String.join(", ", cause.contexts()))).append(")</span></li>\n"));
			this.html.append("</ul>\n");
		}
		if (!beans.isEmpty()) {
			this.html.append("<h2>Slowest beans across contexts</h2>\n<ul>\n");
			beans.forEach((bean) -> this.html.append("<li><b>").append(esc(Durations.format(bean.durationNs())))
				.append("</b> ").append(esc(bean.bean())).append(" <span class=\"hint\">in ")
				.append(esc(bean.context())).append("</span></li>\n"));
			this.html.append("</ul>\n");
		}
		this.html.append("</section>\n");
	}

	private void legend() {
		this.html.append("<section class=\"legend\"><h2>Stages</h2>");
		for (String stage : this.stageNames.stream().sorted(ReportStyle.runOrder()).toList()) {
			this.html.append("<span class=\"key\"><i class=\"swatch\" style=\"--c:").append(ReportStyle.stageColor(stage))
				.append("\"></i>").append(esc(stage)).append("</span>");
		}
		this.html.append("<span class=\"key\"><i class=\"swatch beanish\"></i>slow bean, under its context</span>")
			.append("</section>\n");
	}

	private void label(String name, String sub, String state, String badge, String note) {
		this.html.append("<div class=\"label\"><div class=\"line\"><span class=\"name\" title=\"").append(esc(name))
			.append("\">").append(esc(name)).append("</span><span class=\"badge ").append(state).append("\">")
			.append(esc(badge)).append("</span></div><div class=\"sub\"><span class=\"type\" title=\"").append(esc(sub))
			.append("\">").append(esc(sub)).append("</span>");
		if (note != null) {
			this.html.append("<span class=\"note\" title=\"").append(esc(note)).append("\">").append(esc(note))
				.append("</span>");
		}
		this.html.append("</div></div>");
	}

	private void bar(String kind, String stage, long startNs, long endNs, String text, String tooltip) {
		String color = ReportStyle.stageColor(stage);
		this.html.append("<div class=\"bar ").append(kind).append("\" data-stage=\"").append(esc(stage))
			.append("\" style=\"--c:").append(color).append(ReportStyle.darkText(color) ? ";--t:#1f2328" : "")
			.append(";left:").append(this.axis.left(startNs)).append(";width:").append(this.axis.width(startNs, endNs))
			.append("\" title=\"").append(esc(tooltip)).append("\">");
		String fitting = text.isEmpty() ? "" : this.axis.fitting(endNs - startNs, text);
		if (!fitting.isEmpty()) {
			this.html.append("<span>").append(esc(fitting)).append("</span>");
		}
		this.html.append("</div>");
	}

	private static void flatten(List<StepTiming> steps, List<StepTiming> into) {
		for (StepTiming step : steps) {
			if (step.beanName() != null) {
				into.add(step);
			}
			flatten(step.children(), into);
		}
	}

	private static String esc(String text) {
		return ReportStyle.escape(text);
	}

}
