package io.github.startuptelemetry.it.supervisor;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.StarterLog;

import static io.github.startuptelemetry.it.support.Fleets.assertAllStopped;
import static io.github.startuptelemetry.it.support.Fleets.byServer;
import static io.github.startuptelemetry.it.support.Fleets.count;
import static io.github.startuptelemetry.it.support.Fleets.server;
import static io.github.startuptelemetry.it.support.Fleets.startedProcesses;
import static io.github.startuptelemetry.it.support.Spans.assertContiguous;
import static io.github.startuptelemetry.it.support.Spans.only;
import static io.github.startuptelemetry.it.support.Spans.stages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The built sample-supervisor jar as its own JVM, spawning real servers, exporting over a real
 * OTLP/HTTP wire to an in-test receiver: one trace per startup, whether it ends ready or not,
 * and no process left behind. The cases run at once: each is a supervisor of its own (its own
 * receiver and directory), and several mostly wait (a ready timeout, a stop timeout).
 */
@Execution(ExecutionMode.CONCURRENT)
class SupervisorFleetProcessTest {

	private static final Duration TIMEOUT = Fleets.TIMEOUT;

	/** Gym's boundaries of its startup histograms, in ms. */
	private static final List<Double> BOUNDARIES = List.of(100.0, 250.0, 500.0, 1000.0, 2500.0, 5000.0, 10000.0,
			30000.0, 60000.0, 120000.0, 300000.0, 600000.0, 1800000.0, 3600000.0);

	@RegisterExtension
	final Fleets fleets = new Fleets();

	/**
	 * The sample's default fleet, exiting once ready: one trace, each server under its own
	 * supervisor span; and the supervisor's own {@code gym.server.startup_duration_ms}, given
	 * nothing but Boot's trace endpoint property, reaches the collector its traces go to before
	 * the {@code exit-when-ready} exit: one histogram point per server, in {@code ms}, with Gym's
	 * boundaries and attributes (one fleet run for both: a fleet start is 4 JVMs).
	 */
	@Test
	void defaultFleetIsOneTraceWithEachServerUnderItsOwnSupervisorSpan() throws Exception {
		try (JavaProcess supervisor = this.fleets.supervisor("--telemetry.supervisor.exit-when-ready=true")
			.withoutEnv("MANAGEMENT_OTLP_METRICS_EXPORT_URL")
			.workingDir(SampleJars.repositoryRoot())
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).as(supervisor.log()).isZero();
			// what had arrived when it exited, before any waiting for the rest
			assertSupervisorHistogram(this.fleets.receiver().metrics());
			List<ReceivedSpan> spans = this.fleets.receiver().awaitSpans((all) -> count(all, "gym.startup") == 1
					&& count(all, "gym.server.startup") == 3 && count(all, "gym.server.startup.application_ready") == 3,
					TIMEOUT);
			ReceivedSpan root = only(spans, "gym.startup");
			assertThat(spans).filteredOn((s) -> s.name().startsWith("gym."))
				.allSatisfy((span) -> assertThat(span.traceId()).isEqualTo(root.traceId()));
			assertThat(root.parentSpanId()).isEmpty();
			assertThat(root.attribute("nemo.gym.startup.outcome")).isEqualTo("ready");
			assertThat(root.isError()).isFalse();
			assertThat(root.serviceName()).isEqualTo("sample-supervisor");

			List<ReceivedSpan> supervisorStages = stages(spans, root);
			assertContiguous(supervisorStages, root);
			assertThat(supervisorStages).extracting((s) -> s.attribute("nemo.gym.startup.stage"))
				.startsWith("main_start", "environment_prepared", "context_prepared")
				.endsWith("application_ready", "spawn_servers", "wait_for_servers");

			Map<String, ReceivedSpan> supervisorSpans = byServer(spans, "gym.startup.server");
			Map<String, ReceivedSpan> serverRoots = byServer(spans, "gym.server.startup");
			assertThat(supervisorSpans).containsOnlyKeys("model-0", "model-1", "resources");
			assertThat(serverRoots).containsOnlyKeys("model-0", "model-1", "resources");
			for (String name : supervisorSpans.keySet()) {
				ReceivedSpan spawn = supervisorSpans.get(name);
				ReceivedSpan server = serverRoots.get(name);
				assertThat(spawn.parentSpanId()).isEqualTo(root.spanId());
				assertThat(spawn.attribute("nemo.gym.startup.outcome")).isEqualTo("ready");
				assertThat(server.parentSpanId()).as(name).isEqualTo(spawn.spanId());
				List<ReceivedSpan> serverStages = stages(spans, server);
				assertContiguous(serverStages, server);
				assertThat(serverStages.get(0).attribute("nemo.gym.startup.stage")).isEqualTo("venv_setup");
				assertThat(serverStages.get(0).startNs()).isEqualTo(spawn.startNs());
				ReceivedSpan applicationReady = serverStages.get(serverStages.size() - 1);
				assertThat(applicationReady.name()).isEqualTo("gym.server.startup.application_ready");
				assertThat(spawn.endNs()).as("%s noticed ready before it was", name)
					.isGreaterThanOrEqualTo(applicationReady.endNs());
				assertThat(spawn.endNs()).isLessThanOrEqualTo(root.endNs());
			}
			assertThat(root.endNs())
				.isEqualTo(supervisorSpans.values().stream().mapToLong(ReceivedSpan::endNs).max().getAsLong());
			assertThat(supervisor.log()).contains("Startup ready after", "held back by", "probe lag", "beans_instantiated",
					"supervisor: main_start", "HTML waterfall: " + this.fleets.tmp().resolve("startup-report.html"));
			assertThat(this.fleets.tmp().resolve("startup-report.html")).content().contains(root.traceId(), "model-0", "resources");
			assertThat(startupDurationSeries()).as("each server's series, with its one startup")
				.isEqualTo(Map.of("model-0", 1L, "model-1", 1L, "resources", 1L));
		}
	}

	@Test
	void aServerThatExitsBeforeReadyAbortsTheStartupAsCrashedAndStopsTheOthers() throws Exception {
		try (JavaProcess supervisor = this.fleets.supervisor(server(0, "crasher", "/bin/sh", "-c",
				"while [ ! -e go ]; do sleep 0.05; done; echo boom; exit 3"))
			.args(server(1, "sleeper", "sleep", "300"))
			.args("--telemetry.supervisor.servers[0].working-dir=" + this.fleets.tmp(),
					"--telemetry.supervisor.servers[1].setup=sleep 300 & echo $! > " + this.fleets.tmp().resolve("bg.pid"))
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitLog("Spawned 2 server(s)", TIMEOUT);
			supervisor.awaitFile(this.fleets.tmp().resolve("bg.pid"), TIMEOUT);
			List<ProcessHandle> started = startedProcesses(supervisor, this.fleets.tmp().resolve("bg.pid"));
			Files.writeString(this.fleets.tmp().resolve("go"), "");

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			ReceivedSpan root = this.fleets.abortedRoot("crashed");
			assertThat(root.span().getStatus().getMessage()).contains("'crasher' exited with code 3", "boom");
			assertThat(supervisor.log()).contains("The fleet did not start (crashed)", "Startup crashed after");
			// one wording per server in both renderings: the crasher's exit, the other stopped for it
			Document page = Jsoup.parse(this.fleets.tmp().resolve("startup-report.html").toFile());
			Map<String, String> words = Map.of("crasher", "crashed (exit 3)", "sleeper", "crashed (stopped)");
			words.forEach((name, word) -> {
				assertThat(page.select(".row[data-row=server][data-server=" + name + "] .badge").text()).as("%s's HTML badge", name)
					.isEqualTo(word);
				assertThat(supervisor.log().lines().filter((line) -> line.startsWith(name + " ")))
					.as("%s's row of the console table", name)
					.singleElement(InstanceOfAssertFactories.STRING)
					.endsWith("  " + word);
			});
			assertAllStopped(started, 3);
		}
	}

	@Test
	void aServerThatNeverGetsReadyAbortsTheStartupAsTimeout() throws Exception {
		try (JavaProcess supervisor = this.fleets.supervisor(server(0, "stuck", "sleep", "300"))
			.args("--telemetry.supervisor.servers[0].setup=sleep 300 & echo $! > " + this.fleets.tmp().resolve("bg.pid"),
					"--telemetry.supervisor.ready-timeout=5s")
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitLog("Spawned 1 server(s)", TIMEOUT);
			supervisor.awaitFile(this.fleets.tmp().resolve("bg.pid"), TIMEOUT);
			List<ProcessHandle> started = startedProcesses(supervisor, this.fleets.tmp().resolve("bg.pid"));

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			ReceivedSpan root = this.fleets.abortedRoot("timeout");
			assertThat(root.span().getStatus().getMessage()).contains("Not ready after 5000 ms: stuck");
			ReceivedSpan stuck = only(this.fleets.receiver().spans(), "gym.startup.server");
			assertThat(stuck.isError()).isTrue();
			assertThat(stuck.attribute("nemo.gym.startup.outcome")).isEqualTo("timeout");
			assertThat(supervisor.log()).contains("waiting for stuck", "The fleet did not start (timeout)");
			assertAllStopped(started, 2);
		}
	}

	@ParameterizedTest
	@CsvSource({ "TERM, 15", "INT, 2" })
	void aSignalDuringStartupAbortsItAsInterruptedAndStopsEveryServer(String signal, int number) throws Exception {
		try (JavaProcess supervisor = this.fleets.supervisor(server(0, "slow-model", "{java}", "-XX:TieredStopAtLevel=1", "-jar",
				SampleJars.server().toString(), "--server.port={port}", "--sample.model-loader.duration=10m"))
			.args(server(1, "sleeper", "sleep", "300"))
			.args("--telemetry.supervisor.servers[1].setup=sleep 300 & echo $! > " + this.fleets.tmp().resolve("bg.pid"),
					"--telemetry.supervisor.stop-timeout=5s")
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			supervisor.awaitLog("Spawned 2 server(s)", TIMEOUT);
			supervisor.awaitFile(this.fleets.tmp().resolve("bg.pid"), TIMEOUT);
			List<ProcessHandle> started = startedProcesses(supervisor, this.fleets.tmp().resolve("bg.pid"));

			assumeFalse(supervisor.ignores(number), "SIG" + signal + " is ignored where these tests run (inherited)");
			supervisor.signal(signal);

			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			this.fleets.abortedRoot("interrupted");
			assertThat(this.fleets.receiver().spans()).filteredOn((s) -> s.name().equals("gym.startup.server"))
				.hasSize(2)
				.allSatisfy((s) -> assertThat(s.attribute("nemo.gym.startup.outcome")).isEqualTo("interrupted"));
			assertThat(supervisor.log()).contains("Startup interrupted after");
			assertAllStopped(started, 3);
		}
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = { "telemetry.supervisor.servers[0].name=lonely | servers[0].command | must not be empty",
			"telemetry.supervisor.servers[0].name=a;telemetry.supervisor.servers[0].command=x;telemetry.supervisor.servers[1].name=a;telemetry.supervisor.servers[1].command=x | servers[1].name | server name 'a' is already taken",
			"telemetry.supervisor.servers[0].name=a;telemetry.supervisor.servers[0].command=x;telemetry.supervisor.servers[0].health-url=not a url | servers[0].health-url | must be an absolute http or https URL",
			"telemetry.supervisor.servers[0].name=a;telemetry.supervisor.servers[0].command=x;telemetry.supervisor.servers[1].name=b;telemetry.supervisor.servers[1].command=x;telemetry.supervisor.servers[1].depends-on.nobody=ready | servers[1].depends-on[nobody] | no server of the fleet is named 'nobody'; its servers: a, b",
			"telemetry.supervisor.servers[0].name=a;telemetry.supervisor.servers[0].command=x;telemetry.supervisor.servers[0].depends-on.b=ready;telemetry.supervisor.servers[1].name=b;telemetry.supervisor.servers[1].command=x;telemetry.supervisor.servers[1].depends-on.a=started | servers[0].depends-on[b] | depends-on makes a cycle, a → b → a: none of these servers could ever be spawned" })
	void aBadFleetFailsTheSupervisorAtStartNamingTheProperty(String properties, String property, String reason)
			throws Exception {
		List<String> args = new ArrayList<>();
		for (String assignment : properties.split(";")) {
			args.add("--" + assignment);
		}
		try (JavaProcess supervisor = JavaProcess.jar(SampleJars.supervisor())
			.args(args.toArray(String[]::new))
			.start(this.fleets.tmp().resolve("supervisor.log"))) {
			assertThat(supervisor.awaitExit(TIMEOUT)).isNotZero();
			String log = supervisor.log();
			assertThat(log).contains("Property: telemetry.supervisor." + property, "Reason: " + reason)
				.doesNotContain("Spawned")
				.doesNotContain(StarterLog.FAILED_DESTROY);
			// above INFO the starter says nothing: Boot reports the failure (issue 38)
			assertThat(log).contains("Startup of 'sample-supervisor' failed in ");
			assertThat(StarterLog.warnings(log)).as("the starter's lines above INFO").isEmpty();
		}
	}


	/**
	 * The supervisor's startup histogram in {@code metrics}: in {@code ms}, Gym's boundaries and
	 * attributes (all strings, as Gym's: no worker flag here), a point for each server.
	 */
	private static void assertSupervisorHistogram(List<ResourceMetrics> metrics) {
		List<HistogramDataPoint> points = metrics.stream()
			.filter((resource) -> resource.getResource().toString().contains("sample-supervisor"))
			.flatMap((resource) -> resource.getScopeMetricsList().stream())
			.flatMap((scope) -> scope.getMetricsList().stream())
			.filter((metric) -> metric.getName().equals("gym.server.startup_duration_ms"))
			.peek((metric) -> {
				assertThat(metric.getDataCase()).isEqualTo(Metric.DataCase.HISTOGRAM);
				assertThat(metric.getUnit()).isEqualTo("ms");
			})
			.flatMap((metric) -> metric.getHistogram().getDataPointsList().stream())
			.toList();
		assertThat(points).isNotEmpty().allSatisfy((point) -> {
			assertThat(point.getExplicitBoundsList()).isEqualTo(BOUNDARIES);
			assertThat(attributes(point)).containsKeys("nemo.gym.server.name", "nemo.gym.startup.outcome");
			assertThat(attributes(point)).doesNotContainKey("nemo.gym.server.worker")
				.allSatisfy((key, value) -> assertThat(value.getValueCase()).isEqualTo(AnyValue.ValueCase.STRING_VALUE));
		});
		assertThat(points.stream().map((point) -> attributes(point).get("nemo.gym.server.name").getStringValue()))
			.contains("model-0", "model-1", "resources");
	}

	private static Map<String, AnyValue> attributes(HistogramDataPoint point) {
		return point.getAttributesList().stream().collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue));
	}

	/**
	 * The supervisor's startup histogram at the receiver: each server's series and the most
	 * startups one of its points counts. A run that outlasts the metric interval on a loaded box
	 * exports the (cumulative) series once more at exit, so points are not counted: series are.
	 */
	private Map<String, Long> startupDurationSeries() {
		return this.fleets.receiver()
			.metrics()
			.stream()
			.flatMap((resource) -> resource.getScopeMetricsList().stream())
			.flatMap((scope) -> scope.getMetricsList().stream())
			.filter((metric) -> metric.getName().equals("gym.server.startup_duration_ms"))
			.flatMap((metric) -> metric.getHistogram().getDataPointsList().stream())
			.collect(Collectors.toMap((point) -> attributes(point).get("nemo.gym.server.name").getStringValue(),
					HistogramDataPoint::getCount, Math::max));
	}

}
