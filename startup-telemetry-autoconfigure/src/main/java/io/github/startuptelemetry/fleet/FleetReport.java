package io.github.startuptelemetry.fleet;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.internal.report.RegressionThreshold;
import io.github.startuptelemetry.internal.report.ReportFile;
import io.github.startuptelemetry.internal.support.HostName;
import io.github.startuptelemetry.internal.timeline.PlatformStages;
import io.github.startuptelemetry.report.Compare;
import io.github.startuptelemetry.report.ConsoleReport;
import io.github.startuptelemetry.report.HtmlReport;
import io.github.startuptelemetry.report.JsonReport.ServerTimes;
import io.github.startuptelemetry.report.JsonReport;
import io.github.startuptelemetry.report.ReportComparison;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.report.StartupReportBuilder;
import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * The report of a {@link FleetRun}: the supervisor's view of the startup with what only the run
 * knows (each server's own timeline, an early exit), as the console table in the log and the
 * HTML waterfall and the JSON document in their files; against a baseline
 * ({@code telemetry.supervisor.report.baseline}) also what got slower or faster.
 */
final class FleetReport {

	/** The run's own log: the report is the end of its story. */
	private static final Log logger = LogFactory.getLog(FleetRun.class);

	private final ReportFile htmlReport;

	private final ReportFile jsonReport;

	private final @Nullable String runId;

	private final List<List<ServerTimes>> baselines;

	private final RegressionThreshold threshold;

	private final Map<String, RegressionThreshold> stageThresholds = new LinkedHashMap<>();

	private volatile @Nullable ReportComparison comparison;

	/**
	 * @param properties where the files go
	 * @param runId the run's id ({@code telemetry.run-id}), or {@code null}
	 */
	FleetReport(SupervisorProperties.Report properties, @Nullable String runId) {
		this.htmlReport = ReportFile.html(properties.getHtml());
		this.jsonReport = ReportFile.json(properties.getJson());
		this.runId = runId;
		// validated when bound (SupervisorProperties): read once, here, before anything starts
		this.baselines = properties.getBaseline().stream().map(Compare::read).toList();
		this.threshold = RegressionThreshold.parse(properties.getMaxRegression());
		properties.getStageMaxRegression()
			.forEach((stage, threshold) -> this.stageThresholds.put(stage, RegressionThreshold.parse(threshold)));
	}

	/** The comparison with the baseline of the startup printed last, if there was a baseline. */
	Optional<ReportComparison> comparison() {
		return Optional.ofNullable(this.comparison);
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
			String json = JsonReport.render(report.get());
			ReportComparison comparison = this.baselines.isEmpty() ? null
					: ReportComparison.compare(this.baselines, JsonReport.readTimes(json), this.threshold,
							this.stageThresholds);
			this.comparison = comparison;
			String files = this.htmlReport.write(HtmlReport.render(report.get(), comparison))
				.map((file) -> "\nHTML waterfall: " + file)
				.orElse("") + this.jsonReport.write(json).map((file) -> "\nJSON report: " + file).orElse("");
			logger.info("Startup report (server logs in " + runDir + "):\n" + ConsoleReport.render(report.get())
					+ ((comparison != null) ? "\n" + comparison.text() : "") + files);
		}
		else {
			logger.info(servers.stream().filter((server) -> server.ready).count() + "/" + servers.size()
					+ " server(s) ready (telemetry off: no report); server logs in " + runDir);
		}
	}

	private StartupReport assemble(StartupReport supervisor, List<FleetServer> servers) {
		StartupReportBuilder report = StartupReportBuilder.from(supervisor).run(this.runId, HostName.get());
		for (FleetServer server : servers) {
			ServerTimeline timeline = server.timeline;
			if (timeline != null) {
				// what the platform ran before the server (a pod's scheduling and setup) ahead of its own stages
				report.timeline(server.name(),
						(server.process != null) ? PlatformStages.ahead(timeline, server.process.stages()) : timeline);
			}
			Integer exitCode = server.exitCode;
			if (exitCode != null) {
				report.exited(server.name(), exitCode);
			}
		}
		return report.build();
	}

}
