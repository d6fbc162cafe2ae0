package io.github.startuptelemetry.testcontexts.internal;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.timeline.Stage;

/**
 * The console summary at the end of a test JVM's run: its contexts with why each was new, the
 * top causes, the slowest beans, and where the run's files are.
 */
public final class TestReportConsole {

	static final int TOP = 5;

	private TestReportConsole() {
	}

	/**
	 * @param report this JVM's contexts
	 * @param jvmsInFiles how many JVMs the run's files hold so far (this one's included)
	 * @param html the run's HTML page, or {@code null} when it was not written
	 */
	public static String render(TestReport report, int jvmsInFiles, @Nullable Path html) {
		StringBuilder out = new StringBuilder();
		List<TestContextReport> contexts = report.contexts();
		List<TestContextReport> avoidable = report.avoidable();
		out.append("[startup-telemetry] Test contexts: ")
			.append(contexts.size())
			.append(" created")
			.append(report.jvms().size() == 1 ? " in this JVM (pid " + report.jvms().get(0).pid() + ")" : "")
			.append(", ")
			.append(Durations.format(report.startupNs()))
			.append(" of startup");
		if (!avoidable.isEmpty()) {
			out.append("; ")
				.append(avoidable.size())
				.append(" more than one per JVM (")
				.append(Durations.format(avoidable.stream().mapToLong(TestContextReport::startupNs).sum()))
				.append(')');
		}
		out.append('\n');
		for (TestContextReport context : contexts) {
			out.append(String.format("  %-4s %8s  %s", "#" + context.number(), Durations.format(context.startupNs()),
					context.name()))
				.append(context.ready() ? "" : "  FAILED: " + context.error())
				.append('\n')
				.append("         used by ")
				.append(classes(context.testClasses()))
				.append(slowest(context).map((stage) -> "; slowest stage " + stage.name() + " "
						+ Durations.format(stage.durationNs())).orElse(""))
				.append('\n');
			if (!context.why().firstInJvm()) {
				out.append("         new: ").append(context.why().text()).append('\n');
				context.why().differences().forEach((difference) -> out.append("           ").append(difference.text()).append('\n'));
				if (context.why().hint() != null) {
					out.append("         hint: ").append(context.why().hint()).append('\n');
				}
			}
			if (context.closedBy() != null) {
				out.append("         closed by ").append(context.closedBy()).append('\n');
			}
		}
		List<TestReport.Cause> causes = report.causes();
		if (!causes.isEmpty()) {
			out.append("  top causes of new contexts:\n");
			causes.stream().limit(TOP).forEach((cause) -> out.append(String.format("  %8s  %s (%d context%s)%n",
					Durations.format(cause.startupNs()), cause.text(), cause.contexts().size(),
					(cause.contexts().size() == 1) ? "" : "s")));
		}
		List<TestReport.SlowBean> beans = report.slowestBeans(TOP);
		if (!beans.isEmpty()) {
			out.append("  slowest beans:\n");
			beans.forEach((bean) -> out.append(String.format("  %8s  %s in %s%n", Durations.format(bean.durationNs()),
					bean.bean(), bean.reference())));
		}
		report.jvms().forEach((jvm) -> {
			if (jvm.firstContextNs() >= 0) {
				out.append("  JVM ").append(jvm.pid()).append(": its start to its first context ")
					.append(Durations.format(jvm.beforeFirstContextNs()))
					.append((jvm.traceId() != null) ? "; trace " + jvm.traceId() : "")
					.append('\n');
			}
		});
		if (html != null) {
			out.append("  report: ").append(html).append(" (and .json")
				.append((jvmsInFiles > 1) ? "; the run's " + jvmsInFiles + " test JVMs so far" : "")
				.append(")\n");
		}
		return out.toString();
	}

	private static String classes(List<String> classes) {
		if (classes.isEmpty()) {
			return "no test class seen";
		}
		List<String> shown = classes.subList(0, Math.min(3, classes.size()));
		return String.join(", ", shown) + ((classes.size() > shown.size()) ? " and " + (classes.size() - shown.size())
				+ " more" : "");
	}

	private static Optional<Stage> slowest(TestContextReport context) {
		return context.timeline().stages().stream().max((a, b) -> Long.compare(a.durationNs(), b.durationNs()));
	}

}
