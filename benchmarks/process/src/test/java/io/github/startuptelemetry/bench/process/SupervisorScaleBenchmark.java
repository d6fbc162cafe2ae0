package io.github.startuptelemetry.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.Request;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.SharedHealthEndpoint;
import io.github.startuptelemetry.it.support.SimulatedLauncher;
import io.github.startuptelemetry.it.support.SimulatedSupervisor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench/run.sh scale [RUNS]}: the supervisor at the scale NeMo fleets run (issue 34). Each
 * scenario is one supervisor run, keyed {@code <launcher>-<servers>-<size>}:
 * <ul>
 * <li>{@code local-health-N}: the sample supervisor spawns N {@code sleep}s (no JVM), all ready
 * from one {@link SharedHealthEndpoint} of this JVM's, with {@code exit-when-ready};</li>
 * <li>{@code local-callback-N}: N {@code benchmarks/fleet/call_back.py}, which ask for the clock,
 * post their ready callback and exec {@code sleep}; their ports answer nothing;</li>
 * <li>{@code local-timeout-N}: N {@code sleep}s never ready (their ports answer nothing), aborted by
 * a short {@code ready-timeout};</li>
 * <li>{@code sim-ready-N}, {@code sim-timeout-N}: N {@link SimulatedLauncher simulated servers} of a
 * {@link SimulatedSupervisor} (the starter's fleet run in a JVM of its own), which call back over
 * real HTTP, or only ask for the clock and are aborted by the timeout.</li>
 * </ul>
 * Per run: the supervisor JVM's CPU (utime + stime) from its "Starting" line to its report and to
 * its exit, its heap after GC (its GC log) and resident peak ({@code VmHWM}), the last ready
 * (its JSON report) to the report and to its exit, the stop ("Stopping" to its last server gone),
 * every OTLP request's size at a receiver with a Collector's default limit (what arrived: the
 * root and the server spans), its longest log line, with the load at its start and end. Not
 * part of the normal build (surefire excludes {@code *Benchmark}).
 */
class SupervisorScaleBenchmark {

	/** A full run's scenarios, the small ones first: each ready kind with the small fleet its marginal cost is taken against. */
	private static final List<String> DEFAULT = List.of("local-health-10", "local-health-100", "local-callback-10",
			"local-callback-100", "sim-ready-100", "local-timeout-600", "local-health-1000", "local-callback-1000",
			"sim-ready-10000", "sim-timeout-10000");

	private static final Pattern KEY = Pattern.compile("(local|sim)-(health|callback|timeout|ready)-(\\d+)");

	private static final long MIB = 1L << 20;

	/** The bound on one OTLP request: what a Collector's gRPC receiver takes by default. */
	private static final long REQUEST_TARGET = 4 * MIB;

	/** The bound on one log line. */
	private static final int LINE_TARGET = 4096;

	/** A failure run's {@code ready-timeout}: every server still pending then. */
	private static final String READY_TIMEOUT = "5s";

	/** The simulated servers' pool: as many calls at once as the callback server's backlog. */
	private static final int POSTERS = 64;

	/** A simulated server's startup, from its launch to its ready callback. */
	private static final String SIM_STARTUP = "2s";

	/** Longest a run may take before it is stopped and reported as such. */
	private static final Duration RUN_TIMEOUT = Duration.ofMinutes(15);

	private static final String STARTING = "Starting ";

	private static final String REPORT = "Startup report";

	private static final String STOPPING = "Stopping ";

	/** What the starter logs when the telemetry's flush at exit ran out of {@code telemetry.shutdown-timeout}. */
	private static final String ABANDONED = "Telemetry shutdown abandoned";

	private static final String OUT_OF_MEMORY = "OutOfMemoryError";

	/** The attribute of the series the OpenTelemetry SDK folds points into past a metric's cardinality limit. */
	private static final String OVERFLOW = "otel.metric.overflow";

	/** Where each run's supervisor log is kept, for a person to read after the run's directory is gone. */
	private static final Path LOGS = Path.of("target", "scale-logs");

	/** The heading of the part written by hand, which a re-run keeps. */
	private static final String BY_HAND = "## Reading the numbers (by hand)";

	private static final Pattern GC = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");

	@TempDir
	Path tmp;

	private String python;

	@Test
	void scale() throws Exception {
		int runs = Integer.getInteger("bench.runs", 1);
		String only = System.getProperty("bench.scale", "").strip();
		List<String> keys = only.isEmpty() ? DEFAULT : List.of(only.split(","));
		this.python = python();
		BenchReport md = new BenchReport("Supervisor scale: fleets of 10 to 10,000 (issue 34)", "bench/run.sh scale");
		Map<String, List<Result>> results = new LinkedHashMap<>();
		for (int run = 0; run < runs; run++) {
			for (String key : keys) {
				Result result = run(Scenario.of(key.strip()), run);
				results.computeIfAbsent(key.strip(), (k) -> new ArrayList<>()).add(result);
				System.err.printf("%s (run %d/%d): %s%n", key, run + 1, runs, result.oneLine());
			}
		}
		write(md, results, runs);
		assertThat(results).isNotEmpty();
	}

	private Result run(Scenario scenario, int index) throws Exception {
		Path dir = Files.createDirectories(this.tmp.resolve(scenario.key() + "-" + index));
		Result result = new Result(scenario);
		result.loadStart = loadAverage();
		try (OtlpReceiver receiver = OtlpReceiver.limitedTo(OtlpReceiver.COLLECTOR_MAX_REQUEST_BYTES);
				SharedHealthEndpoint health = scenario.sharedHealth() ? SharedHealthEndpoint.start(true) : null;
				JavaProcess supervisor = supervisor(scenario, dir, receiver, health).start(dir.resolve("supervisor.log"))) {
			Process process = supervisor.process();
			LogTail log = new LogTail(supervisor.logFile(), List.of(STARTING, REPORT, STOPPING, ABANDONED,
					OUT_OF_MEMORY, SimulatedLauncher.SUMMARY));
			try (ProcessSampler sampler = new ProcessSampler(supervisor.pid())) {
				long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
				if (log.await(STARTING, process, RUN_TIMEOUT) == null) {
					throw new IllegalStateException("no 'Starting' line:\n" + tail(supervisor.log()));
				}
				double cpuAtStart = sampler.cpuMs();
				// a thousand process reapers: a sample reads each of their files, so seldom there
				ThreadCpu threads = new ThreadCpu(supervisor.pid(), scenario.simulated() ? 25 : 500);
				Children children = scenario.simulated() ? null : new Children(supervisor.pid(), scenario.servers());
				String report = log.await(REPORT, process, left(deadline));
				result.cpuWindowMs = sampler.cpuMs() - cpuAtStart;
				result.threadsMs = threads.stop();
				result.reportNs = LogTail.timeNs(report);
				String stopping = log.await(STOPPING, process, left(deadline));
				result.stoppingNs = LogTail.timeNs(stopping);
				if (children != null) {
					result.trackedServers = children.stop().size();
					result.goneNs = (stopping != null) ? children.awaitGone(left(deadline)) : -1;
				}
				boolean exited = process.waitFor(left(deadline).toMillis(), TimeUnit.MILLISECONDS);
				result.exitNs = nowEpochNs();
				result.cpuRunMs = sampler.cpuMs() - cpuAtStart;
				result.peakRssKb = sampler.peakRssKb();
				if (!exited) {
					result.note = "stopped by the benchmark after " + RUN_TIMEOUT.toMinutes() + " min";
				}
				else {
					result.exitCode = process.exitValue();
				}
			}
			log.poll();
			result.longestLine = log.longest();
			result.longestLineStart = log.longestStart();
			result.simulation = parseSummary(log.line(SimulatedLauncher.SUMMARY));
			result.shutdownAbandoned = log.line(ABANDONED) != null;
			result.outOfMemory = log.line(OUT_OF_MEMORY) != null;
			Files.createDirectories(LOGS);
			Files.copy(supervisor.logFile(), LOGS.resolve(scenario.key() + "-" + index + ".log"),
					StandardCopyOption.REPLACE_EXISTING);
			result.healthRequests = (health != null) ? health.requests() : -1;
			result.requests = receiver.requests();
			startupDurationSeries(result, receiver.metrics());
			result.rootSpans = receiver.spans().stream().filter((s) -> s.name().equals(SpanNames.SUPERVISOR_ROOT)).count();
			Set<String> arrived = receiver.spans()
				.stream()
				.filter((s) -> s.name().equals(SpanNames.SUPERVISOR_SERVER))
				.map((s) -> s.attribute(SpanAttributes.SERVER_NAME))
				.collect(Collectors.toSet());
			result.serverSpans = arrived.size();
			result.missingSpans = IntStream.range(0, scenario.servers())
				.mapToObj((i) -> serverName(scenario) + "-" + i)
				.filter((name) -> !arrived.contains(name))
				.limit(10)
				.toList();
			readReports(result, dir);
			readGcLog(result, dir.resolve("gc.log"));
		}
		catch (RuntimeException | IOException | AssertionError ex) {
			result.note = "failed: " + String.valueOf(ex.getMessage()).lines().findFirst().orElse("");
		}
		result.loadEnd = loadAverage();
		return result;
	}

	/** The supervisor of a scenario, exporting to the receiver, its fleet on the command line. */
	private JavaProcess.Builder supervisor(Scenario scenario, Path dir, OtlpReceiver receiver,
			SharedHealthEndpoint health) throws IOException {
		String server = "--telemetry.supervisor.servers[0].";
		List<String> args = new ArrayList<>(List.of(server + "replicas=" + scenario.servers(),
				"--telemetry.supervisor.run-dir=" + dir.resolve("run"),
				"--telemetry.supervisor.report.html=" + dir.resolve("startup-report.html"),
				"--telemetry.supervisor.report.json=" + dir.resolve("startup-report.json"),
				server + "health-url=" + ((health != null) ? health.healthUrl() : "http://127.0.0.1:{port}/health")));
		args.add(scenario.ready() ? "--telemetry.supervisor.exit-when-ready=true"
				: "--telemetry.supervisor.ready-timeout=" + READY_TIMEOUT);
		List<String> command = switch (scenario.mode()) {
			case "callback" -> List.of(this.python, "-S", repository("benchmarks/fleet/call_back.py"), "{port}");
			case "health", "timeout" -> List.of("sleep", "3600");
			default -> List.of(SimulatedLauncher.NAME, "{port}");
		};
		args.add(server + "name=" + serverName(scenario));
		for (int i = 0; i < command.size(); i++) {
			args.add(server + "command[" + i + "]=" + command.get(i));
		}
		JavaProcess.Builder builder;
		if (scenario.simulated()) {
			args.addAll(List.of("--telemetry.supervisor.launcher=" + SimulatedLauncher.NAME,
					"--spring.application.name=simulated-supervisor", "--simulated.posters=" + POSTERS,
					"--simulated.startup=" + SIM_STARTUP, "--simulated.ready=" + scenario.ready()));
			builder = JavaProcess.jar(SimulatedSupervisor.jar(dir));
		}
		else {
			builder = JavaProcess.jar(SampleJars.supervisor());
		}
		return builder.jvmArgs("-Xlog:gc:file=" + dir.resolve("gc.log"))
			.env("MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT", receiver.tracesEndpoint())
			.env("MANAGEMENT_OTLP_METRICS_EXPORT_URL", receiver.metricsEndpoint())
			.args(args.toArray(String[]::new));
	}

	/** The name of the scenario's servers: its replicas are {@code <name>-0} and on. */
	private static String serverName(Scenario scenario) {
		return scenario.simulated() ? "sim" : "callback".equals(scenario.mode()) ? "py" : "sleep";
	}

	/** The last ready server, the abort, the spawns: from the supervisor's JSON report; and the reports' sizes. */
	private static void readReports(Result result, Path dir) throws IOException {
		Path json = dir.resolve("startup-report.json");
		Path html = dir.resolve("startup-report.html");
		result.htmlBytes = Files.exists(html) ? Files.size(html) : -1;
		if (!Files.exists(json)) {
			return;
		}
		result.jsonBytes = Files.size(json);
		JsonNode report = new ObjectMapper().readTree(json.toFile());
		result.outcome = report.path("outcome").asString();
		result.endNs = report.path("endEpochNs").asLong();
		long firstSpawn = Long.MAX_VALUE;
		long lastReady = -1;
		int ready = 0;
		for (JsonNode server : report.path("servers")) {
			if (server.path("spawnEpochNs").isNumber()) {
				firstSpawn = Math.min(firstSpawn, server.path("spawnEpochNs").asLong());
			}
			if ("ready".equals(server.path("outcome").asString())) {
				ready++;
				lastReady = Math.max(lastReady, server.path("endEpochNs").asLong());
			}
		}
		result.readyServers = ready;
		result.firstSpawnNs = (firstSpawn == Long.MAX_VALUE) ? -1 : firstSpawn;
		result.lastReadyNs = lastReady;
	}

	/** The heap after each collection, from the supervisor's {@code -Xlog:gc}: its peak, and how many there were. */
	private static void readGcLog(Result result, Path gcLog) throws IOException {
		if (!Files.exists(gcLog)) {
			return;
		}
		for (String line : Files.readAllLines(gcLog)) {
			Matcher matcher = GC.matcher(line);
			if (line.contains("Pause") && matcher.find()) {
				result.collections++;
				result.peakHeapAfterGcMb = Math.max(result.peakHeapAfterGcMb, Long.parseLong(matcher.group(2)));
				result.peakHeapCommittedMb = Math.max(result.peakHeapCommittedMb, Long.parseLong(matcher.group(3)));
			}
		}
	}

	/**
	 * The series of the supervisor's per-server metric that arrived (distinct attribute sets over
	 * every export), and whether the SDK folded some into its overflow series, past its cardinality
	 * limit.
	 */
	private static void startupDurationSeries(Result result, List<ResourceMetrics> metrics) {
		Set<List<KeyValue>> series = new HashSet<>();
		for (ResourceMetrics resource : metrics) {
			for (ScopeMetrics scope : resource.getScopeMetricsList()) {
				for (Metric metric : scope.getMetricsList()) {
					if (metric.getName().equals(MetricNames.STARTUP_DURATION)) {
						metric.getHistogram().getDataPointsList().forEach((point) -> series.add(point.getAttributesList()));
						metric.getExponentialHistogram().getDataPointsList().forEach((point) -> series.add(point.getAttributesList()));
						metric.getSummary().getDataPointsList().forEach((point) -> series.add(point.getAttributesList()));
					}
				}
			}
		}
		result.metricOverflow = series.stream()
			.anyMatch((attributes) -> attributes.stream().anyMatch((kv) -> kv.getKey().equals(OVERFLOW)));
		result.metricSeries = series.size();
	}

	/** The simulated servers' summary line, {@code key=value} pairs. */
	private static Map<String, String> parseSummary(String line) {
		Map<String, String> values = new LinkedHashMap<>();
		if (line != null) {
			Matcher pair = Pattern.compile("(\\S+)=(\\S+)").matcher(line);
			while (pair.find()) {
				values.put(pair.group(1), pair.group(2));
			}
		}
		return values;
	}

	private void write(BenchReport md, Map<String, List<Result>> results, int runs) throws IOException {
		List<Result> first = results.values().stream().map((all) -> all.get(0)).toList();
		List<Result> ready = first.stream().filter((r) -> r.scenario.ready()).toList();
		List<Result> failed = first.stream().filter((r) -> !r.scenario.ready()).toList();
		md.line("**Code**: %s. **The box is shared**: several developers build and test on its 2 cores "
				+ "while this runs, so each run has its load beside it; CPU figures are CPU time (not wall) but still "
				+ "indicative under load. Bytes, span counts, line lengths and request sizes are deterministic: they "
				+ "matter most.", gitHead());
		md.line("");
		md.line("%d run(s) of each scenario%s. Servers: `local-health` the sample supervisor spawning `sleep 3600`s "
				+ "(no JVM), all ready from one shared health endpoint (`health-url` on this JVM's `SharedHealthEndpoint`), "
				+ "`exit-when-ready`; `local-callback` `benchmarks/fleet/call_back.py`s (ask `/clock`, post `/ready` with "
				+ "a timeline, exec `sleep`; their ports answer nothing); `sim-ready` simulated servers through the launcher "
				+ "SPI (`it.support.SimulatedSupervisor`: the starter's fleet run in a JVM of its own, "
				+ "`SimulatedLauncher`: `/clock` at launch, `/ready` %s later, over real HTTP from a pool of %d threads); "
				+ "`local-timeout`, `sim-timeout` the same servers never ready, aborted by `ready-timeout=%s`. Every run "
				+ "exports to an in-process OTLP/HTTP receiver refusing (413) a request over %d MiB, as a Collector "
				+ "does by default. Where a scenario ran more than once, the tables show the first run; every run is "
				+ "listed at the end.", runs, (runs > 1) ? "" : " (the heavy ones once: the box is shared)", SIM_STARTUP,
				POSTERS, READY_TIMEOUT, OtlpReceiver.COLLECTOR_MAX_REQUEST_BYTES / MIB);
		md.line("");
		if (!ready.isEmpty()) {
			md.line("## Ready fleets");
			md.line("");
			table(md, ready, first);
		}
		if (!failed.isEmpty()) {
			md.line("## The failure path: every server pending at the timeout");
			md.line("");
			table(md, failed, first);
		}
		md.line("## Targets (issue 34)");
		md.line("");
		targets(md, first);
		md.line("");
		md.line("## Where the supervisor's CPU went, by thread (ms per server, \"Starting\" → report)");
		md.line("");
		md.line("Each thread's run time from `/proc/<pid>/task/<tid>/schedstat`, numbers in names folded; sampled every "
				+ "25 ms in the simulated runs, every 500 ms in the local ones (a thousand process reapers: each sample reads "
				+ "every thread's file), so a thread that lived less than that may be missing. `sim-server` is the "
				+ "simulation's own pool, not the supervisor's work.");
		md.line("");
		for (Result result : first) {
			md.line("- `%s`: %s", result.scenario.key(), threads(result));
		}
		md.line("");
		md.line("## Every run");
		md.line("");
		results.forEach((key, all) -> all.forEach((result) -> md.line("- `%s`: %s", key, result.oneLine())));
		md.line("");
		md.line("How: CPU is utime+stime of the supervisor JVM (10 ms ticks, sampled every 50 ms: the last sample before "
				+ "its exit ends the run), from its \"Starting N server(s)\" line; simulated runs have their pool's CPU "
				+ "(`ThreadMXBean`, printed by the launcher) taken off. Marginal: (this run − the small fleet of the same "
				+ "kind) / (the difference in servers). Heap after GC: the largest `A->B(C)` of `-Xlog:gc`'s pauses; RSS "
				+ "peak: `VmHWM`. Last ready: the largest `endEpochNs` of a ready server in the JSON report; abort: the "
				+ "report's `endEpochNs`; report: its \"Startup report\" line's time stamp; stop: from its \"Stopping\" line "
				+ "to the last of its child processes (the servers: the launch shell execs them) gone, polled every 20 ms. "
				+ "OTLP bytes: each request's body as sent (uncompressed here); spans: `%s` and `%s` kept by the "
				+ "receiver, against 1 + the servers. The servers export nothing themselves (no JVM), so the bytes are "
				+ "the supervisor's own trace and metrics.", SpanNames.SUPERVISOR_ROOT, SpanNames.SUPERVISOR_SERVER);
		md.keepByHand("scale", BY_HAND);
		md.write(System.getProperty("bench.scale", "").isBlank() ? "scale" : "scale-" + System.getProperty("bench.scale"));
	}

	/** One column per run: the measures as rows. */
	private static void table(BenchReport md, List<Result> columns, List<Result> all) {
		md.line("| measure | %s |", columns.stream().map((r) -> "`" + r.scenario.key() + "`").collect(Collectors.joining(" | ")));
		md.line("|---|%s", "---|".repeat(columns.size()));
		row(md, columns, "load average (1 min) at start → end", (r) -> fmt("%.1f → %.1f", r.loadStart, r.loadEnd));
		row(md, columns, "outcome (exit code)", (r) -> r.outcome + " (" + ((r.exitCode != null) ? r.exitCode : "-") + ")"
				+ ((r.note != null) ? "; " + r.note : ""));
		row(md, columns, "servers ready (JSON report)", (r) -> r.readyServers + " of " + r.scenario.servers());
		row(md, columns, "first spawn → last ready (s)", (r) -> seconds(r.firstSpawnNs, r.lastReadyNs));
		row(md, columns, "supervisor CPU, \"Starting\" → report (s)", (r) -> fmt("%.1f", r.supervisorCpu(r.cpuWindowMs) / 1000));
		row(md, columns, "… per server (ms)", (r) -> fmt("%.2f", r.supervisorCpu(r.cpuWindowMs) / r.scenario.servers()));
		row(md, columns, "supervisor CPU, \"Starting\" → exit (s)", (r) -> fmt("%.1f", r.supervisorCpu(r.cpuRunMs) / 1000));
		row(md, columns, "… per server (ms)", (r) -> fmt("%.2f", r.supervisorCpu(r.cpuRunMs) / r.scenario.servers()));
		row(md, columns, "… marginal per server, against the small fleet of its kind (ms)", (r) -> marginal(r, all));
		if (columns.stream().anyMatch((r) -> r.scenario.simulated())) {
			row(md, columns, "the simulation's pool CPU, taken off the above (s)",
					(r) -> r.scenario.simulated() ? fmt("%.1f", r.posterCpuMs() / 1000) : "-");
		}
		row(md, columns, "peak heap after GC (MB; collections; heap committed)",
				(r) -> (r.collections == 0) ? "no GC" : r.peakHeapAfterGcMb + " (" + r.collections + "; " + r.peakHeapCommittedMb + ")");
		row(md, columns, "peak RSS, VmHWM (MB)", (r) -> fmt("%.0f", r.peakRssKb / 1024.0));
		if (columns.stream().anyMatch((r) -> r.scenario.ready())) {
			row(md, columns, "last ready → report logged (ms)", (r) -> millis(r.lastReadyNs, r.reportNs));
			row(md, columns, "last ready → exit (ms)", (r) -> millis(r.lastReadyNs, r.exitNs));
		}
		else {
			row(md, columns, "abort → report logged (ms)", (r) -> millis(r.endNs, r.reportNs));
			row(md, columns, "abort → exit (ms)", (r) -> millis(r.endNs, r.exitNs));
			row(md, columns, "abort → last server gone (ms)", (r) -> millis(r.endNs, r.goneNs));
		}
		row(md, columns, "stop: \"Stopping\" → last server gone (ms; servers tracked)",
				(r) -> r.scenario.simulated() ? "- (no processes)" : millis(r.stoppingNs, r.goneNs) + " (" + r.trackedServers + ")");
		row(md, columns, "stop: \"Stopping\" → exit (ms)", (r) -> millis(r.stoppingNs, r.exitNs));
		row(md, columns, "OTLP trace requests (refused: over 20 MiB; aborted by the sender mid-body)",
				(r) -> r.traces().size() + " (" + r.traces().stream().filter(Request::refused).count() + "; "
						+ r.traces().stream().filter(Request::aborted).count() + ")");
		row(md, columns, "OTLP trace bytes, total (per server)", (r) -> fmt("%s (%s)", bytes(r.traceBytes()), bytes(r.traceBytes() / r.scenario.servers())));
		row(md, columns, "largest trace request", (r) -> bytes(r.traces().stream().mapToLong(Request::bytes).max().orElse(0)));
		row(md, columns, "trace requests over 4 MiB", (r) -> Long.toString(r.traces().stream().filter((q) -> q.bytes() > REQUEST_TARGET).count()));
		row(md, columns, "spans arrived: root + server spans / expected", (r) -> (r.rootSpans + r.serverSpans) + " / " + (1 + r.scenario.servers())
				+ ((r.rootSpans == 0) ? " (no root)" : ""));
		row(md, columns, "OTLP metrics bytes, total (requests)", (r) -> bytes(r.metricBytes()) + " (" + r.metrics().size() + ")");
		row(md, columns, "`" + MetricNames.STARTUP_DURATION + "` series that arrived (past the SDK's cardinality limit: overflow)",
				(r) -> r.metricSeries + (r.metricOverflow ? " (**overflow**)" : ""));
		row(md, columns, "\"Telemetry shutdown abandoned\" logged at exit", (r) -> r.shutdownAbandoned ? "yes" : "no");
		row(md, columns, "`OutOfMemoryError` in its log", (r) -> r.outOfMemory ? "**yes**" : "no");
		row(md, columns, "HTML report / JSON report", (r) -> bytes(r.htmlBytes) + " / " + bytes(r.jsonBytes));
		row(md, columns, "longest log line (bytes)", (r) -> Long.toString(r.longestLine));
		if (columns.stream().anyMatch(SupervisorScaleBenchmark::sharedHealth)) {
			row(md, columns, "requests to the shared health endpoint", (r) -> (r.healthRequests >= 0) ? Long.toString(r.healthRequests) : "-");
		}
		if (columns.stream().anyMatch((r) -> r.scenario.simulated())) {
			row(md, columns, "simulated `/clock`: answered, failed attempts; p50 / p99 / max (ms)", (r) -> calls(r, "clock"));
			row(md, columns, "simulated `/ready`: accepted, failed attempts, lost; p50 / p99 / max (ms)", (r) -> calls(r, "ready"));
		}
		md.line("");
		for (Result result : columns) {
			if (result.longestLine > LINE_TARGET) {
				md.line("`%s`'s longest line starts: `%s…`", result.scenario.key(), result.longestLineStart.replace("`", "'"));
			}
		}
		md.line("");
	}

	private static boolean sharedHealth(Result result) {
		return result.scenario.sharedHealth();
	}

	private static void targets(BenchReport md, List<Result> all) {
		md.line("| target | measured | verdict |");
		md.line("|---|---|---|");
		Optional<Result> local = find(all, "local-health-1000");
		local.ifPresent((r) -> {
			double perServer = r.supervisorCpu(r.cpuRunMs) / r.scenario.servers();
			String marginal = marginal(r, all);
			target(md, "1,000 local servers: supervisor CPU ≤ 5 ms per server (goal 2)", fmt("%.1f ms per server, \"Starting\" → exit; marginal %s",
					perServer, marginal), r.complete() ? perServer <= 5 : null);
			target(md, "1,000 local servers: stop ≤ 5 s", millis(r.stoppingNs, r.goneNs) + " ms, \"Stopping\" → last server gone",
					(r.goneNs > 0 && r.stoppingNs > 0) ? (r.goneNs - r.stoppingNs) <= 5e9 : null);
			target(md, "1,000 local servers: supervisor heap ≤ 512 MB", r.peakHeapAfterGcMb + " MB after GC (" + r.collections + " collections)",
					(r.collections > 0) ? r.peakHeapAfterGcMb <= 512 : null);
		});
		find(all, "sim-ready-10000").ifPresent((r) -> {
			double perServer = r.supervisorCpu(r.cpuRunMs) / r.scenario.servers();
			target(md, "10,000 simulated servers: ≤ 2 ms CPU per server", fmt("%.2f ms per server, \"Starting\" → exit", perServer),
					r.complete() ? perServer <= 2 : null);
			spansTarget(md, r, "10,000 simulated servers: no span lost");
			requestsTarget(md, r, "10,000 simulated servers: every OTLP request ≤ 4 MiB");
		});
		for (String key : List.of("local-timeout-600", "sim-timeout-10000")) {
			find(all, key).ifPresent((r) -> {
				String what = "failure path, " + r.scenario.servers() + " pending (`" + key + "`): ";
				spansTarget(md, r, what + "root and all server spans at the receiver");
				requestsTarget(md, r, what + "no request over 4 MiB");
				target(md, what + "no log line over 4 KB", r.longestLine + " bytes", (r.longestLine > 0) ? r.longestLine <= LINE_TARGET : null);
			});
		}
	}

	private static void spansTarget(BenchReport md, Result r, String target) {
		long arrived = r.rootSpans + r.serverSpans;
		target(md, target, arrived + " of " + (1 + r.scenario.servers()) + " (root " + r.rootSpans + ")",
				r.complete() ? arrived == 1 + r.scenario.servers() : null);
	}

	private static void requestsTarget(BenchReport md, Result r, String target) {
		long largest = r.traces().stream().mapToLong(Request::bytes).max().orElse(0);
		target(md, target, "largest " + bytes(largest) + "; " + r.traces().stream().filter((q) -> q.bytes() > REQUEST_TARGET).count()
				+ " of " + r.traces().size() + " over", r.traces().isEmpty() ? null : largest <= REQUEST_TARGET);
	}

	/** A verdict: met, missed, or unresolved when the run could not say ({@code null}). */
	private static void target(BenchReport md, String target, String measured, Boolean met) {
		md.line("| %s | %s | %s |", target, measured, (met == null) ? "unresolved" : met ? "met" : "MISSED");
	}

	private static Optional<Result> find(List<Result> all, String key) {
		return all.stream().filter((r) -> r.scenario.key().equals(key)).findFirst();
	}

	/** The marginal CPU per server, "Starting" → exit, against the smallest run of the same kind. */
	private static String marginal(Result result, List<Result> all) {
		Optional<Result> small = all.stream()
			.filter((r) -> r.scenario.kind().equals(result.scenario.kind()) && r.scenario.servers() < result.scenario.servers()
					&& r.complete())
			.min((a, b) -> Integer.compare(a.scenario.servers(), b.scenario.servers()));
		if (small.isEmpty() || !result.complete()) {
			return "-";
		}
		Result s = small.get();
		return fmt("%.2f (against %d)", (result.supervisorCpu(result.cpuRunMs) - s.supervisorCpu(s.cpuRunMs))
				/ (result.scenario.servers() - s.scenario.servers()), s.scenario.servers());
	}

	private static String calls(Result r, String kind) {
		Map<String, String> s = r.simulation;
		if (!r.scenario.simulated() || s.isEmpty()) {
			return "-";
		}
		return s.get(kind + ".ok") + ", " + s.get(kind + ".failed") + ("ready".equals(kind) ? ", " + s.get(kind + ".lost") : "")
				+ "; " + s.get(kind + ".p50Ms") + " / " + s.get(kind + ".p99Ms") + " / " + s.get(kind + ".maxMs");
	}

	private static String threads(Result result) {
		if (result.threadsMs == null || result.threadsMs.isEmpty()) {
			return "not measured";
		}
		return result.threadsMs.entrySet()
			.stream()
			.filter((thread) -> thread.getValue() / result.scenario.servers() >= 0.01)
			.sorted(Map.Entry.<String, Double>comparingByValue().reversed())
			.limit(12)
			.map((thread) -> fmt("%s %.2f", thread.getKey(), thread.getValue() / result.scenario.servers()))
			.collect(Collectors.joining(", "));
	}

	private static void row(BenchReport md, List<Result> columns, String name, Function<Result, String> value) {
		md.line("| %s | %s |", name, columns.stream().map((r) -> {
			try {
				return value.apply(r);
			}
			catch (RuntimeException ex) {
				return "-";
			}
		}).collect(Collectors.joining(" | ")));
	}

	private static String fmt(String format, Object... args) {
		return String.format(Locale.ROOT, format, args);
	}

	private static String millis(long fromNs, long toNs) {
		return (fromNs > 0 && toNs > 0) ? fmt("%.0f", (toNs - fromNs) / 1e6) : "-";
	}

	private static String seconds(long fromNs, long toNs) {
		return (fromNs > 0 && toNs > 0) ? fmt("%.1f", (toNs - fromNs) / 1e9) : "-";
	}

	private static String bytes(long bytes) {
		if (bytes < 0) {
			return "-";
		}
		if (bytes >= MIB) {
			return fmt("%.1f MiB", bytes / (double) MIB);
		}
		return (bytes >= 1024) ? fmt("%.1f KiB", bytes / 1024.0) : bytes + " B";
	}

	private static Duration left(long deadline) {
		return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
	}

	private static long nowEpochNs() {
		java.time.Instant now = java.time.Instant.now();
		return now.getEpochSecond() * 1_000_000_000L + now.getNano();
	}

	private static double loadAverage() {
		return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
	}

	private static String tail(String log) {
		return log.substring(Math.max(0, log.length() - 4000));
	}

	private static String repository(String path) {
		return SampleJars.repositoryRoot().resolve(path).toString();
	}

	private static String gitHead() {
		try {
			Process git = new ProcessBuilder("git", "log", "-1", "--format=%h %cs").directory(SampleJars.repositoryRoot().toFile())
				.redirectErrorStream(true)
				.start();
			String head = new String(git.getInputStream().readAllBytes()).strip();
			return (git.waitFor() == 0) ? "commit " + head : "commit unknown";
		}
		catch (IOException | InterruptedException ex) {
			return "commit unknown";
		}
	}

	/** The interpreter {@code python3} runs: a version manager's shim would add a shell to every server. */
	private static String python() throws Exception {
		Process process = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)").start();
		String executable = new String(process.getInputStream().readAllBytes()).strip();
		assertThat(process.waitFor()).isZero();
		return executable;
	}

	/**
	 * A scenario by its key.
	 *
	 * @param launcher {@code local} or {@code sim}
	 * @param mode what the servers are: {@code health}, {@code callback}, {@code timeout}, {@code ready}
	 * @param size how many
	 */
	private record Scenario(String launcher, String mode, int size) {

		static Scenario of(String key) {
			Matcher matcher = KEY.matcher(key);
			if (!matcher.matches()) {
				throw new IllegalArgumentException("not a scenario: " + key + " (e.g. local-health-100, sim-timeout-600)");
			}
			return new Scenario(matcher.group(1), matcher.group(2), Integer.parseInt(matcher.group(3)));
		}

		String key() {
			return this.launcher + "-" + this.mode + "-" + this.size;
		}

		/** Its kind, for the marginal cost: the key without the size. */
		String kind() {
			return this.launcher + "-" + this.mode;
		}

		int servers() {
			return this.size;
		}

		boolean simulated() {
			return "sim".equals(this.launcher);
		}

		boolean ready() {
			return !"timeout".equals(this.mode);
		}

		boolean sharedHealth() {
			return "health".equals(this.mode);
		}

	}

	/** What one run measured; -1 (or null) where it could not. */
	private static final class Result {

		final Scenario scenario;

		double loadStart;

		double loadEnd;

		String outcome = "-";

		Integer exitCode;

		String note;

		int readyServers;

		double cpuWindowMs = Double.NaN;

		double cpuRunMs = Double.NaN;

		Map<String, Double> threadsMs;

		long peakRssKb;

		long peakHeapAfterGcMb;

		long peakHeapCommittedMb;

		int collections;

		long firstSpawnNs = -1;

		long lastReadyNs = -1;

		long endNs = -1;

		long reportNs = -1;

		long stoppingNs = -1;

		long goneNs = -1;

		long exitNs = -1;

		int trackedServers;

		long longestLine;

		String longestLineStart = "";

		long healthRequests = -1;

		long htmlBytes = -1;

		long jsonBytes = -1;

		List<Request> requests = List.of();

		long rootSpans;

		long serverSpans;

		Map<String, String> simulation = Map.of();

		boolean shutdownAbandoned;

		boolean outOfMemory;

		int metricSeries;

		boolean metricOverflow;

		/** The first few servers whose span did not arrive. */
		List<String> missingSpans = List.of();

		Result(Scenario scenario) {
			this.scenario = scenario;
		}

		boolean complete() {
			return this.note == null && this.exitCode != null;
		}

		/** The supervisor's part of a CPU figure: the simulation's pool taken off. */
		double supervisorCpu(double ms) {
			return ms - posterCpuMs();
		}

		double posterCpuMs() {
			String cpu = this.simulation.get("posters.cpuMs");
			return (cpu != null) ? Double.parseDouble(cpu) : 0;
		}

		List<Request> traces() {
			return this.requests.stream().filter(Request::traces).toList();
		}

		List<Request> metrics() {
			return this.requests.stream().filter((r) -> !r.traces()).toList();
		}

		long traceBytes() {
			return traces().stream().mapToLong(Request::bytes).sum();
		}

		long metricBytes() {
			return metrics().stream().mapToLong(Request::bytes).sum();
		}

		String oneLine() {
			return fmt("load %.1f → %.1f; %s (exit %s)%s; CPU \"Starting\" → report %.1f s, → exit %.1f s; heap after GC %d MB, "
					+ "RSS peak %.0f MB; last ready → exit %s ms; stop %s ms; %d trace requests, %s, largest %s; spans %d / %d; "
					+ "longest line %d B", this.loadStart, this.loadEnd, this.outcome, this.exitCode,
					(this.note != null) ? " [" + this.note + "]" : "", supervisorCpu(this.cpuWindowMs) / 1000,
					supervisorCpu(this.cpuRunMs) / 1000, this.peakHeapAfterGcMb, this.peakRssKb / 1024.0,
					millis(this.scenario.ready() ? this.lastReadyNs : this.endNs, this.exitNs), millis(this.stoppingNs, this.goneNs),
					traces().size(), bytes(traceBytes()), bytes(traces().stream().mapToLong(Request::bytes).max().orElse(0)),
					this.rootSpans + this.serverSpans, 1 + this.scenario.servers(), this.longestLine)
					+ (this.missingSpans.isEmpty() ? "" : "; no span from " + String.join(", ", this.missingSpans)
							+ ((this.serverSpans + this.missingSpans.size() < this.scenario.servers()) ? ", …" : ""))
					+ (this.outOfMemory ? "; OutOfMemoryError" : "");
		}

	}

	/**
	 * The supervisor's child processes (its servers: the launch shell execs each), listed until all
	 * of them run, then watched until every one has ended. Listing reads every process of the host
	 * (the JDK's {@code children()}), so it is done only every {@value #LIST_MS} ms, before the stop.
	 */
	private static final class Children {

		private static final long LIST_MS = 250;

		private final Thread lister;

		private volatile List<ProcessHandle> listed = List.of();

		private volatile boolean stopped;

		Children(long pid, int expected) {
			this.lister = Sampling.every("children-lister", LIST_MS, () -> {
				Optional<ProcessHandle> supervisor = ProcessHandle.of(pid);
				if (this.stopped || supervisor.isEmpty()) {
					return false;
				}
				List<ProcessHandle> now = supervisor.get().children().toList();
				if (now.size() > this.listed.size()) {
					this.listed = now;
				}
				return this.listed.size() < expected;
			});
		}

		/** Stop listing; those listed. */
		List<ProcessHandle> stop() throws InterruptedException {
			this.stopped = true;
			this.lister.join();
			return this.listed;
		}

		/** When the last of them ended (epoch ns), polled every 20 ms; -1 if some still run after {@code timeout}. */
		long awaitGone(Duration timeout) throws InterruptedException {
			long deadline = System.nanoTime() + timeout.toNanos();
			List<ProcessHandle> running = new ArrayList<>(this.listed);
			while (true) {
				running.removeIf((process) -> !running(process));
				if (running.isEmpty()) {
					return nowEpochNs();
				}
				if (System.nanoTime() > deadline) {
					return -1;
				}
				// other processes end them: poll, bounded by the deadline
				TimeUnit.MILLISECONDS.sleep(20);
			}
		}

		private static boolean running(ProcessHandle process) {
			try {
				String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
				return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
			}
			catch (IOException ex) {
				return false;
			}
		}

	}

}
