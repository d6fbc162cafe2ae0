package io.github.startuptelemetry.fleet;

import io.github.startuptelemetry.report.gate.ReportTimes;

import io.github.startuptelemetry.contract.JsonFields;

import io.github.startuptelemetry.report.gate.ComparisonJson;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.report.internal.ReportFile;
import io.github.startuptelemetry.internal.HostName;
import io.github.startuptelemetry.timeline.internal.PlatformStages;
import io.github.startuptelemetry.report.gate.Compare;
import io.github.startuptelemetry.report.render.ConsoleReport;
import io.github.startuptelemetry.report.render.HtmlReport;
import io.github.startuptelemetry.report.gate.ReportTimes.ServerTimes;
import io.github.startuptelemetry.report.JsonReport;
import io.github.startuptelemetry.report.JvmCacheReport;
import io.github.startuptelemetry.report.gate.RegressionThreshold;
import io.github.startuptelemetry.report.gate.ReportComparison;
import io.github.startuptelemetry.report.gate.Settings;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.report.StartupReportBuilder;
import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * The report of a fleet's run: the supervisor's view of the startup with what only the run knows
 * (each server's own timeline, an early exit), written as the console table, the HTML waterfall
 * and the JSON document, and judged against a baseline when one is set.
 */
final class FleetReport {

	/** The run's own log: the report is the end of its story. */
	private static final Log logger = FleetLog.get();

	private final ReportFile htmlReport;

	private final ReportFile jsonReport;

	private final @Nullable String runId;

	private final List<List<ServerTimes>> baselines;

	private final Settings settings;

	private volatile @Nullable ReportComparison comparison;

	/** What the JVM caches did for the servers, when they are on. */
	private final @Nullable Function<List<FleetServer>, JvmCacheReport> jvmCache;

	/** Whether to keep the report to itself: a round of the JVM caches' compare, not the startup. */
	private final boolean quiet;

	private volatile @Nullable StartupReport last;

	/**
	 * @param properties where the files go
	 * @param runId the run's id ({@code telemetry.run-id}), or {@code null}
	 */
	FleetReport(SupervisorProperties.Report properties, @Nullable String runId) {
		this(properties, runId, null);
	}

	/**
	 * @param properties where the files go
	 * @param runId the run's id ({@code telemetry.run-id}), or {@code null}
	 * @param jvmCache what the JVM caches did for the servers, or {@code null} when they are off
	 */
	FleetReport(SupervisorProperties.Report properties, @Nullable String runId,
			@Nullable Function<List<FleetServer>, JvmCacheReport> jvmCache) {
		this.htmlReport = ReportFile.of(properties.getHtml(), "HTML startup report", HtmlReport::render);
		this.jsonReport = ReportFile.json(properties.getJson());
		this.runId = runId;
		// validated when bound (SupervisorProperties): read once, here, before anything starts
		this.baselines = properties.getBaseline().stream().map(Compare::read).toList();
		Map<String, RegressionThreshold> stageThresholds = new LinkedHashMap<>();
		properties.getStageMaxRegression()
			.forEach((stage, threshold) -> stageThresholds.put(stage, RegressionThreshold.parse(threshold)));
		this.settings = new Settings(RegressionThreshold.parse(properties.getMaxRegression()),
				stageThresholds, properties.getSpreadMultiplier(), properties.isSpeedCorrection());
		this.jvmCache = jvmCache;
		this.quiet = false;
	}

	private FleetReport(@Nullable String runId, Function<List<FleetServer>, JvmCacheReport> jvmCache) {
		this.htmlReport = ReportFile.of(null, "HTML startup report", HtmlReport::render);
		this.jsonReport = ReportFile.json(null);
		this.runId = runId;
		this.baselines = List.of();
		this.settings = Settings.DEFAULT;
		this.jvmCache = jvmCache;
		this.quiet = true;
	}

	/**
	 * A report that is assembled but neither printed nor written, for a start of the fleet that
	 * is a measurement (a round of the JVM caches' compare): {@link #last()} has it.
	 */
	static FleetReport quiet(@Nullable String runId, Function<List<FleetServer>, JvmCacheReport> jvmCache) {
		return new FleetReport(runId, jvmCache);
	}

	/** The report assembled last, if any (telemetry off: none). */
	Optional<StartupReport> last() {
		return Optional.ofNullable(this.last);
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
		this.last = report.orElse(null);
		if (this.quiet) {
			return;
		}
		if (report.isPresent()) {
			String json = JsonReport.render(report.get());
			// judged from the document alone, as the standalone compare judges it
			ReportComparison comparison = this.baselines.isEmpty() ? null
					: ReportComparison.compare(this.baselines, ReportTimes.readTimes(json), this.settings);
			this.comparison = comparison;
			if (comparison != null) {
				json = JsonReport.render(report.get(), JsonFields.COMPARISON, ComparisonJson.comparison(comparison));
			}
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
			if (!server.plan.dependsOn().isEmpty()) {
				report.waiting(server.name(), server.plan.dependsOn()
					.stream()
					.map((on) -> new ServerReport.DependsOn(on.name(), on.conditionName(), on.servers()))
					.toList(), server.releasedBy, server.blockedBy);
			}
			if (server.plan.oneShot()) {
				report.oneShot(server.name());
			}
			if (server.plan.replicaOf() != null) {
				report.replicaOf(server.name(), server.plan.replicaOf());
			}
		}
		if (this.jvmCache != null) {
			report.jvmCache(this.jvmCache.apply(servers));
		}
		return report.build();
	}

}
