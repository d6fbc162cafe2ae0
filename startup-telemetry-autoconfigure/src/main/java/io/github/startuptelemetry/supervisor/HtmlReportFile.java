package io.github.startuptelemetry.supervisor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.startuptelemetry.report.HtmlReport;
import io.github.startuptelemetry.report.StartupReport;

/**
 * Writes the HTML waterfall of a startup where {@code telemetry.supervisor.report.html} says,
 * at finish and at abort alike. The report is a by-product: a file that cannot be written is a
 * warning naming the path, never a failed supervisor.
 */
final class HtmlReportFile {

	private static final Log logger = LogFactory.getLog(HtmlReportFile.class);

	private final Path file;

	/** @param file where to write, or {@code null} for no HTML report */
	HtmlReportFile(Path file) {
		this.file = file;
	}

	/** The absolute path written, or empty when none is configured or it could not be written. */
	Optional<Path> write(StartupReport report) {
		if (this.file == null) {
			return Optional.empty();
		}
		Path target = this.file.toAbsolutePath().normalize();
		try {
			if (target.getParent() != null) {
				Files.createDirectories(target.getParent());
			}
			Files.writeString(target, HtmlReport.render(report), StandardCharsets.UTF_8);
			return Optional.of(target);
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("Could not write the HTML startup report to " + target + ": " + ex);
			return Optional.empty();
		}
	}

}
