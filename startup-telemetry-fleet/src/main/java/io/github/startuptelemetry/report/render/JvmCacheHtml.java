package io.github.startuptelemetry.report.render;

import io.github.startuptelemetry.report.JvmCacheComparison;
import io.github.startuptelemetry.report.JvmCacheReport;

import io.github.startuptelemetry.internal.Decimals;
import io.github.startuptelemetry.report.JvmCacheComparison.Kind;
import io.github.startuptelemetry.report.JvmCacheComparison.Metric;
import io.github.startuptelemetry.report.JvmCacheReport.ServerCache;
import io.github.startuptelemetry.report.JvmCacheReport.Training;

/**
 * The HTML page's JVM cache section: per server whether its cache was used and the share of its
 * classes from a cache, each training, and, after {@code compare}, a before/after view per server
 * and stage.
 */
final class JvmCacheHtml {

	private JvmCacheHtml() {
	}

	static void render(JvmCacheReport report, StringBuilder html) {
		html.append("<section class=\"compare jvm-cache\" data-mode=\"").append(esc(report.mode())).append("\">\n<h2>")
			.append("JVM caches: ").append(esc(report.mode()));
		if (report.directory() != null) {
			html.append(" <small><code>").append(esc(report.directory())).append("</code></small>");
		}
		html.append("</h2>\n");
		for (Training training : report.trainings()) {
			html.append("<p class=\"training\" data-trained=\"").append(training.trained()).append("\">")
				.append(esc(JvmCacheText.training(training))).append("</p>\n");
		}
		html.append("<table>\n<tr><th>server</th><th>cache</th><th>classes from a cache</th></tr>\n");
		for (ServerCache server : report.servers()) {
			html.append("<tr class=\"cache ").append(server.used() ? "faster" : "same").append("\" data-server=\"")
				.append(esc(server.server())).append("\" data-reason=\"").append(esc(server.reason()))
				.append("\" data-class-share=\"")
				.append(server.classShare().isPresent() ? Decimals.fixed(server.classShare().getAsDouble(), 3) : "")
				.append("\"><td>").append(esc(server.server())).append("</td><td>")
				.append(server.used() ? "<b>" + esc(JvmCacheText.status(server)) + "</b>" : esc(JvmCacheText.status(server)))
				.append("</td><td>").append(esc(JvmCacheText.classes(server).replace("classes from a cache ", "")))
				.append("</td></tr>\n");
		}
		html.append("</table>\n");
		if (report.comparison() != null) {
			comparison(report.comparison(), html);
		}
		html.append("</section>\n");
	}

	/** Before/after, per server: spawn→ready, CPU, class share, then each stage. */
	private static void comparison(JvmCacheComparison comparison, StringBuilder html) {
		html.append("<h2 class=\"rounds\" data-rounds=\"").append(comparison.rounds())
			.append("\" data-completed-rounds=\"").append(comparison.completedRounds()).append("\">")
			.append("Without → with the caches, ").append(esc(comparison.roundsText()))
			.append(" (median; the change is the median of the paired differences, smallest … largest)</h2>\n")
			.append("<table>\n<tr><th>server</th><th>what</th><th>without / with</th><th>medians</th>"
					+ "<th>change</th><th>spread</th></tr>\n");
		for (Metric metric : comparison.metrics()) {
			boolean percent = metric.kind() == Kind.CLASS_SHARE;
			double scale = Math.max(Math.max(metric.medianWithout(), metric.medianWith()), 1e-9);
			boolean better = percent ? metric.medianDelta() > 0 : metric.medianDelta() < 0;
			String verdict = better ? "faster" : (metric.medianDelta() == 0) ? "same" : "slower";
			html.append("<tr class=\"change ").append(verdict).append("\" data-server=\"")
				.append(esc(metric.server())).append("\" data-kind=\"").append(metric.kind().jsonName())
				.append("\" data-name=\"").append(esc(metric.name())).append("\" data-median-delta=\"")
				.append(Decimals.fixed(metric.medianDelta(), 1)).append("\"><td>").append(esc(metric.server()))
				.append("</td><td>")
				.append((metric.kind() == Kind.STAGE) ? "stage " : "")
				.append(esc(metric.name()))
				.append("</td><td class=\"pair\"><i class=\"before\" style=\"width:")
				.append(Decimals.fixed(100 * metric.medianWithout() / scale, 1))
				.append("%\" title=\"without the caches\"></i><i class=\"after\" style=\"width:")
				.append(Decimals.fixed(100 * metric.medianWith() / scale, 1))
				.append("%\" title=\"with the caches\"></i></td><td>")
				.append(esc(metric.kind().format(metric.medianWithout()) + " → " + metric.kind().format(metric.medianWith())))
				.append("</td><td>").append(esc(metric.deltaText())).append("</td><td>")
				.append(esc(metric.kind().formatDelta(metric.minDelta()) + " … " + metric.kind().formatDelta(metric.maxDelta())))
				.append("</td></tr>\n");
		}
		html.append("</table>\n");
	}

	private static String esc(String text) {
		return HtmlText.escape(text);
	}

}
