package io.github.startuptelemetry.report.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.report.JsonReport;
import io.github.startuptelemetry.report.StartupReport;

/**
 * Writes one rendering of a startup report to its file (the HTML waterfall, the JSON
 * document), at finish and at abort alike. A report is a by-product: a file that cannot be
 * written is a warning naming the path, never a failed supervisor or server.
 */
public final class ReportFile {

	private static final Log logger = LogFactory.getLog(ReportFile.class);

	private final @Nullable Path file;

	private final String what;

	private final Function<StartupReport, String> render;

	private ReportFile(@Nullable Path file, String what, Function<StartupReport, String> render) {
		this.file = file;
		this.what = what;
		this.render = render;
	}

	/**
	 * A rendering of the caller's at {@code file}, or nowhere for {@code null}.
	 * @param file where to write it, or {@code null}
	 * @param what what it is, for the warning when it cannot be written ("HTML startup report")
	 * @param render the rendering
	 * @return the file
	 */
	public static ReportFile of(@Nullable Path file, String what, Function<StartupReport, String> render) {
		return new ReportFile(file, what, render);
	}

	/** A supervisor's JSON document at {@code file}, or nowhere for {@code null}. */
	public static ReportFile json(@Nullable Path file) {
		return new ReportFile(file, "JSON startup report", JsonReport::render);
	}

	/** A lone server's JSON document at {@code file}, or nowhere for {@code null}. */
	public static ReportFile serverJson(@Nullable Path file) {
		return new ReportFile(file, "JSON startup report", JsonReport::renderServer);
	}

	/** The absolute path written, or empty when none is configured or it could not be written. */
	public Optional<Path> write(StartupReport report) {
		return (this.file != null) ? write(this.render.apply(report)) : Optional.empty();
	}

	/** Write {@code content}, rendered by the caller (a page with a comparison, say). */
	public Optional<Path> write(String content) {
		if (this.file == null) {
			return Optional.empty();
		}
		Path target = this.file.toAbsolutePath().normalize();
		try {
			if (target.getParent() != null) {
				Files.createDirectories(target.getParent());
			}
			Files.writeString(target, content, StandardCharsets.UTF_8);
			return Optional.of(target);
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("Could not write the " + this.what + " to " + target + ": " + ex);
			return Optional.empty();
		}
	}

}
