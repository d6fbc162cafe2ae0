package io.github.startuptelemetry.supervisor;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.startuptelemetry.report.ConsoleReport;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.report.StartupReportBuilder;
import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * The report of a {@link FleetRun}: the supervisor's view of the startup with what only the run
 * knows (each server's own timeline, an early exit), as the console table in the log and the
 * HTML waterfall in its file.
 */
final class FleetReport {

	/** The run's own log: the report is the end of its story. */
	private static final Log logger = LogFactory.getLog(FleetRun.class);

	private final HtmlReportFile htmlReport;

	FleetReport(SupervisorProperties.Report properties) {
		this.htmlReport = new HtmlReportFile(properties.getHtml());
	}

	/**
	 * Print the startup's report.
	 * @param supervisor the supervisor's own report, empty when telemetry is off
	 * @param servers the run's servers, once the verdict is in
	 * @param runDir where their logs are
	 */
	void print(Optional<StartupReport> supervisor, List<FleetServer> servers, Path runDir) {
		Optional<StartupReport> report = supervisor.map((startup) -> assemble(startup, servers));
		if (report.isPresent()) {
			String html = this.htmlReport.write(report.get()).map((file) -> "\nHTML waterfall: " + file).orElse("");
			logger.info("Startup report (server logs in " + runDir + "):\n" + ConsoleReport.render(report.get()) + html);
		}
		else {
			logger.info(servers.stream().filter((server) -> server.ready).count() + "/" + servers.size()
					+ " server(s) ready (telemetry off: no report); server logs in " + runDir);
		}
	}

	private static StartupReport assemble(StartupReport supervisor, List<FleetServer> servers) {
		StartupReportBuilder report = StartupReportBuilder.from(supervisor);
		for (FleetServer server : servers) {
			ServerTimeline timeline = server.timeline;
			if (timeline != null) {
				report.timeline(server.name(), timeline);
			}
			Integer exitCode = server.exitCode;
			if (exitCode != null) {
				report.exited(server.name(), exitCode);
			}
		}
		return report.build();
	}

}
