package io.github.startuptelemetry.it.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.ClassLoadLog;
import io.github.startuptelemetry.it.support.FirstResponse;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.PreloadList;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.Spans;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application that has Boot's actuator and OpenTelemetry keeps them: its own SDK carries the
 * startup spans (the starter builds none beside it), its Micrometer OTLP registry the histograms;
 * and the OTLP wire is the same as a plain application's, whose histograms go through the
 * starter's OpenTelemetry meter: one wire, whichever way it was made.
 */
class BootAppProcessTest {

	private static final Duration TIMEOUT = PlainAppProcessTest.TIMEOUT;

	@TempDir
	Path tmp;

	@Test
	void theApplicationsOwnSdkCarriesTheStartupAndTheWireIsThePlainAppsWire() throws Exception {
		Path classes = this.tmp.resolve("classes.log");
		Run boot;
		try (OtlpReceiver receiver = OtlpReceiver.start()) {
			boot = run(JavaProcess.jar(SampleJars.startupApp()).jvmArgs(ClassLoadLog.jvmArg(classes)), receiver, "boot");
		}
		Run plain;
		try (OtlpReceiver receiver = OtlpReceiver.start()) {
			plain = run(JavaProcess.jar(SampleJars.plainAppWithStarter()), receiver, "plain");
		}
		// one SDK: the application's; none of the starter's own was built, nor the SDK's configuration code loaded
		ClassLoadLog loaded = ClassLoadLog.read(classes);
		// (GlobalOpenTelemetry looks the configuration code's class up, and finds global configuration off)
		assertThat(loaded.inPackage("io.opentelemetry.sdk.autoconfigure."))
			.as("the SDK's configuration code building an SDK")
			.doesNotContain("io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdkBuilder");
		assertThat(loaded.inPackage("io.github.startuptelemetry.export.internal.OwnSdk")).isEmpty();
		// its spans, as the plain app's
		assertThat(stageNames(boot.spans())).isEqualTo(stageNames(plain.spans()));
		ReceivedSpan root = Spans.only(boot.spans(), "gym.server.startup");
		assertThat(root.serviceName()).isEqualTo("startup-app");
		assertThat(root.resourceValue("nv.dl.rank").getValueCase()).isEqualTo(AnyValue.ValueCase.INT_VALUE);
		assertThat(root.resourceAttribute("host.name")).isNotBlank();
		assertThat(root.resourceAttribute("service.instance.id")).endsWith("-rank0");
		// the stage histogram, through Micrometer's OTLP registry there and an OpenTelemetry meter here: the same wire
		assertThat(shape(boot.metrics())).isNotEmpty().isEqualTo(shape(plain.metrics()));
	}

	/**
	 * The class preload's whole list, the classes only Boot's OpenTelemetry needs included, is
	 * what this application loads on its way to ready ({@link PreloadList#assertCovers}); each
	 * of those it loads.
	 */
	@Test
	void thePreloadListsWhatAnApplicationWithBootsOpenTelemetryLoadsOnItsWayToReady() throws Exception {
		Path classes = this.tmp.resolve("classes.log");
		int port = Ports.free();
		String log;
		try (JavaProcess app = JavaProcess.jar(SampleJars.startupApp())
			.jvmArgs(ClassLoadLog.jvmArg(classes))
			.withoutEnv("SLURM_JOB_ID")
			.env("TELEMETRY_STARTUP_PRELOAD", "false")
			.args("--server.port=" + port)
			.start(this.tmp.resolve("app.log"))) {
			FirstResponse.await(app, PlainAppProcessTest.hello(port), TIMEOUT);
			app.awaitLog("Startup of 'startup-app'", TIMEOUT);
			log = app.log();
		}
		PreloadList.assertCovers(classes, log, PreloadList.all(), PreloadList.withBootOpenTelemetry());
	}

	private Run run(JavaProcess.Builder app, OtlpReceiver receiver, String name) throws Exception {
		int port = Ports.free();
		try (JavaProcess process = app.withoutEnv("SLURM_JOB_ID")
			.env("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.baseUrl())
			.args("--server.port=" + port)
			.start(this.tmp.resolve(name + ".log"))) {
			FirstResponse.await(process, PlainAppProcessTest.hello(port), TIMEOUT);
			receiver.awaitSpansNamed("gym.server.startup.application_ready", 1, TIMEOUT);
			// the histograms go at close (Micrometer's registry, the SDK's reader alike)
			process.terminate();
			process.awaitExit(TIMEOUT);
			return new Run(Spans.ofProcess(receiver.spans(), process.pid()), receiver.metrics());
		}
	}

	private static List<String> stageNames(List<ReceivedSpan> spans) {
		ReceivedSpan root = Spans.only(spans, "gym.server.startup");
		return Spans.stages(spans, root).stream().map((span) -> span.attribute("nemo.gym.startup.stage")).toList();
	}

	/**
	 * What the wire says about the stage histogram, values aside: its name, unit, description,
	 * temporality and boundaries, and each point's attribute names with their wire types (a
	 * point's stage and server name replaced by their type), one entry per distinct shape.
	 */
	private static Map<String, String> shape(List<ResourceMetrics> resources) {
		Map<String, String> shape = new TreeMap<>();
		for (ResourceMetrics resource : resources) {
			resource.getScopeMetricsList()
				.stream()
				.flatMap((scope) -> scope.getMetricsList().stream())
				.filter((metric) -> metric.getName().equals("gym.server.startup_stage_duration_ms"))
				.forEach((metric) -> {
					shape.put("unit", metric.getUnit());
					shape.put("description", metric.getDescription());
					shape.put("kind", metric.getDataCase().toString());
					if (metric.getDataCase() == Metric.DataCase.HISTOGRAM) {
						shape.put("temporality", metric.getHistogram().getAggregationTemporality().toString());
						for (HistogramDataPoint point : metric.getHistogram().getDataPointsList()) {
							shape.put("bounds", point.getExplicitBoundsList().toString());
							shape.put("attributes", types(point.getAttributesList()));
						}
					}
				});
		}
		return shape;
	}

	private static String types(List<KeyValue> attributes) {
		Map<String, String> types = new TreeMap<>();
		attributes.forEach((kv) -> types.put(kv.getKey(), kv.getValue().getValueCase().toString()));
		return types.toString();
	}

	private record Run(List<ReceivedSpan> spans, List<ResourceMetrics> metrics) {
	}

}
