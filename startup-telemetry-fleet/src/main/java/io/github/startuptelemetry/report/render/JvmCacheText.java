package io.github.startuptelemetry.report.render;

import io.github.startuptelemetry.report.JvmCacheReport;

import java.util.List;
import java.util.Locale;

import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.report.JvmCacheReport.ServerCache;
import io.github.startuptelemetry.report.JvmCacheReport.Training;

/**
 * The words of a {@link JvmCacheReport}, shared by the console and the HTML page: what each
 * server's cache did, each training, and the comparison's own text.
 */
final class JvmCacheText {

	private JvmCacheText() {
	}

	/** The console's section: a header, the trainings, a line per server, the comparison. */
	static String render(JvmCacheReport report) {
		StringBuilder out = new StringBuilder("JVM caches (").append(report.mode());
		if (report.directory() != null) {
			out.append(", ").append(report.directory());
		}
		out.append("):\n");
		for (Training training : report.trainings()) {
			out.append("  ").append(training(training)).append('\n');
		}
		int width = report.servers().stream().mapToInt((server) -> server.server().length()).max().orElse(0);
		for (ServerCache server : report.servers()) {
			out.append("  ").append(server.server()).append(" ".repeat(width - server.server().length())).append("  ")
				.append(status(server));
			String classes = classes(server);
			if (!classes.isEmpty()) {
				out.append("; ").append(classes);
			}
			out.append('\n');
		}
		if (report.comparison() != null) {
			out.append(report.comparison().text()).append('\n');
		}
		return out.toString().stripTrailing();
	}

	/** {@code trained model-0, model-1 in 14.2 s: AppCDS archive app.jsa, 75 MB in all (JDK ...)}. */
	static String training(Training training) {
		String servers = String.join(", ", training.servers());
		String took = Durations.format(training.durationMs() * 1_000_000);
		if (!training.trained()) {
			String detail = (training.detail() != null) ? training.detail().lines().findFirst().orElse("") : "";
			return "training " + servers + " failed after " + took + ": " + detail;
		}
		return "trained " + servers + " in " + took + " (JDK " + training.java() + "; a training start, not counted as "
				+ "the fleet's startup): " + training.detail();
	}

	/** {@code used: AppCDS archive, JDK 17.0.15+6 (Debian)} or {@code not used: stale (...)}. */
	static String status(ServerCache server) {
		if (server.used()) {
			return "used: " + kindName(server.kind()) + ((server.java() != null) ? ", JDK " + server.java() : "");
		}
		return "not used: " + server.reason() + ((server.detail() != null) ? " (" + firstLine(server.detail()) + ")" : "");
	}

	/** {@code classes from a cache 8,253 of 8,871 (93%)}, or nothing when not counted. */
	static String classes(ServerCache server) {
		if (server.classShare().isEmpty()) {
			return "";
		}
		return String.format(Locale.ROOT, "classes from a cache %,d of %,d (%.0f%%)", server.sharedClasses(),
				server.loadedClasses(), 100 * server.classShare().getAsDouble());
	}

	static String kindName(String kind) {
		return "aot".equals(kind) ? "AOT cache" : "appcds".equals(kind) ? "AppCDS archive" : "cache";
	}

	private static String firstLine(String text) {
		List<String> lines = text.lines().toList();
		return lines.isEmpty() ? "" : lines.get(0) + ((lines.size() > 1) ? " …" : "");
	}

}
