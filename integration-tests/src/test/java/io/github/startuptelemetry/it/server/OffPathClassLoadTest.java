package io.github.startuptelemetry.it.server;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.it.support.ClassLoadLog;
import io.github.startuptelemetry.it.support.FirstResponse;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;

/**
 * What "off is free" means in classes (issue 14; not timed, the timing is {@code bench/run.sh
 * startup}): the startup benchmark's app with the starter and {@code TELEMETRY_ENABLED=false},
 * started as a real JVM exactly as the benchmark starts it, until the first {@code 200} from
 * {@code /actuator/health}, against the same app without the starter. The off path loads no
 * Zipkin class (the starter no longer brings Zipkin), no OpenTelemetry class beyond plain
 * Boot's, and only a handful of the starter's own gate classes. Beside it, the on path's cuts of
 * issue 14 that a class-load log can hold (classes it once loaded only to ask about them).
 */
class OffPathClassLoadTest {

	/**
	 * Issue 14's target: at most 10. Exactly these load: the gates every process needs (the
	 * listener, the run listener, the switch they ask, the environment post-processor with what
	 * it does, and Boot 3's registration of it, which Boot 4 reads too and which does nothing
	 * there), the starter's import filter, and the supervisor's API configuration as far as
	 * parsing it loads it ({@code SupervisorAutoConfiguration}, and the types of its two lazy
	 * beans, which a plain server never creates).
	 */
	static final Set<String> OURS = Set.of("server.ServerStartupListener", "server.ReadyReportRunListener",
			"autoconfigure.internal.TelemetrySwitch", "lifecycle.TelemetryEnvironmentPostProcessor",
			"lifecycle.Boot3TelemetryEnvironmentPostProcessor", "lifecycle.TelemetryEnvironmentDefaults",
			"autoconfigure.internal.TelemetryAutoConfigurationFilter", "supervisor.SupervisorAutoConfiguration",
			"supervisor.SupervisorStartup", "supervisor.ChildTelemetryEnvironment");

	/**
	 * What Boot loads once it reads one of the auto-configurations the import filter drops (their
	 * conditions): absent, so the filter dropped them by name before their class files were read.
	 */
	static final Set<String> FILTERED_CONDITIONS = Set.of("autoconfigure.ConditionalOnTelemetryEnabled",
			"launch.OnFleetCondition");

	private static final Duration TIMEOUT = Duration.ofSeconds(120);

	@TempDir
	Path tmp;

	@Test
	void offLoadsNoZipkinNoExtraOpenTelemetryAndFewOfOurClasses() throws Exception {
		ClassLoadLog off = run(SampleJars.startupApp(), "off", true, false);
		ClassLoadLog plain = run(SampleJars.plainBoot(), "plain", false, false);

		assertThat(off.inPackage("io.opentelemetry.exporter.zipkin.")).as("Zipkin exporter classes").isEmpty();
		assertThat(off.inPackage("zipkin2.")).as("zipkin2 classes").isEmpty();

		Set<String> plainOtel = stable(plain, "io.opentelemetry.");
		Set<String> extraOtel = new TreeSet<>(stable(off, "io.opentelemetry."));
		extraOtel.removeAll(plainOtel);
		assertThat(extraOtel).as("io.opentelemetry classes the off path loads beyond plain Boot + OpenTelemetry")
			.isEmpty();

		List<String> ours = off.inPackage("io.github.startuptelemetry.")
			.stream()
			.filter((name) -> !name.startsWith("io.github.startuptelemetry.bench."))
			.toList();
		Set<String> extra = new TreeSet<>(stable(off, ""));
		extra.removeAll(stable(plain, ""));
		System.out.printf("Off path: %d classes of ours (expected %d):%n  %s%n", ours.size(), OURS.size(),
				String.join("\n  ", ours));
		System.out.printf("Loaded by the off path and not by plain Boot (%d):%n  %s%n", extra.size(),
				String.join("\n  ", extra));
		Set<String> expected = ours(OURS);
		assertThat(ours).as("classes of ours on the off path: these, and nothing more")
			.containsExactlyInAnyOrderElementsOf(expected)
			.doesNotContainAnyElementsOf(ours(FILTERED_CONDITIONS))
			.hasSizeLessThanOrEqualTo(10);
	}

	/**
	 * The on path, up to the first response, loads nothing it only asks about or needs later: not
	 * protobuf or the OTLP metrics proto (only the OTLP meter registry's wire needs them, silenced
	 * here as in the benchmark, and the typing configuration's condition once loaded them), not the SDK's
	 * metric reader and exporter types (the bounded shutdown once loaded them to ask whether they exist), not the
	 * shutdown's closing code, no supervisor callback when no supervisor asked for one, none of the
	 * supervisor's metrics (nor the server report type they name), no nested configuration for the
	 * stage metrics or the endpoint, no parser of an env variable the process does not have (no
	 * traceparent, not on Slurm, no {@code OTEL_RESOURCE_ATTRIBUTES}), and of the supervisor's
	 * decision only one lambda (it once made five, and warmed a meter up on a thread).
	 */
	@Test
	void onLoadsNothingItOnlyAsksAboutOrNeedsLater() throws Exception {
		ClassLoadLog on = run(SampleJars.startupApp(), "on", false, true);
		assertThat(on.inPackage("com.google.protobuf.")).as("protobuf classes").isEmpty();
		assertThat(on.inPackage("io.opentelemetry.proto.")).as("OTLP proto classes").isEmpty();
		assertThat(on.inPackage("io.opentelemetry.sdk.metrics.export.")).as("SDK metrics-export classes")
			.doesNotContain("io.opentelemetry.sdk.metrics.export.MetricReader",
					"io.opentelemetry.sdk.metrics.export.MetricExporter");
		assertThat(on.inPackage("io.github.startuptelemetry."))
			.as("classes of ours up to the first response (killed there, so no shutdown ran)")
			.contains("io.github.startuptelemetry.lifecycle.BoundedTelemetryShutdown")
			.doesNotContain("io.github.startuptelemetry.lifecycle.BoundedTelemetryShutdown$Closing",
					"io.github.startuptelemetry.server.SupervisorCallback",
					"io.github.startuptelemetry.supervisor.SupervisorStartupMetrics",
					"io.github.startuptelemetry.supervisor.SupervisorTracingAutoConfiguration$MetricsConfiguration",
					"io.github.startuptelemetry.report.ServerReport",
					"io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration$StageMetricsConfiguration",
					"io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration$EndpointConfiguration",
					"io.github.startuptelemetry.timeline.internal.TraceParent",
					"io.github.startuptelemetry.lifecycle.SlurmResourceAttributes",
					"io.github.startuptelemetry.lifecycle.internal.OtelListValues")
			.noneMatch((name) -> name.contains(".kubernetes."));
		assertThat(on.all()
			.stream()
			.map(ClassLoadLog.Loaded::stableName)
			.filter((name) -> name.startsWith("io.github.startuptelemetry.supervisor.") && name.endsWith("$$Lambda")))
			.as("supervisor lambdas in a plain server: the role's guarded look at its own beans, no warm-up")
			.containsExactly("io.github.startuptelemetry.supervisor.SupervisorRole$$Lambda");
	}

	/**
	 * Outside Kubernetes, a server that has the Kubernetes support on its class path (the sample
	 * server adds {@code startup-telemetry-kubernetes}, as a user who runs it in pods does) loads none
	 * of it up to its first response, telemetry on: no fabric8 class, no class of ours of it (the
	 * import filter drops the pod stages' configuration by name, before its class file is read).
	 */
	@Test
	void outsideKubernetesAServerWithTheClientLoadsNoneOfTheKubernetesSupport() throws Exception {
		ClassLoadLog on = run(SampleJars.server(), "sample-server", false, true);
		assertThat(on.inPackage("io.fabric8.")).as("fabric8 classes").isEmpty();
		assertThat(on.inPackage("io.github.startuptelemetry.")).as("our classes")
			.isNotEmpty()
			.noneMatch((name) -> name.contains(".kubernetes."));
	}

	/** With {@code kill}, SIGKILL at the first response (as the benchmark ends a start): no shutdown's classes. */
	private ClassLoadLog run(Path jar, String name, boolean off, boolean kill) throws Exception {
		Path classes = this.tmp.resolve(name + "-classes.log");
		int port = Ports.free();
		JavaProcess.Builder app = JavaProcess.jar(jar)
			.jvmArgs(ClassLoadLog.jvmArg(classes))
			.withoutEnv("SLURM_JOB_ID") // inside an allocation, a server rightly loads Slurm's attributes
			.withoutEnv("KUBERNETES_SERVICE_HOST") // in a pod, a server rightly reads its pod
			// Boot samples 1 request in 10: sample all, so that both runs trace their health requests alike
			.args("--server.port=" + port, "--management.tracing.sampling.probability=1.0");
		if (off) {
			app.env("TELEMETRY_ENABLED", "false");
		}
		try (JavaProcess process = app.start(this.tmp.resolve(name + ".log"))) {
			FirstResponse.await(process, URI.create("http://127.0.0.1:" + port + "/actuator/health"), TIMEOUT);
			if (kill) {
				process.process().destroyForcibly().waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
			}
		}
		return ClassLoadLog.read(classes);
	}

	private static Set<String> ours(Set<String> names) {
		return names.stream().map((name) -> "io.github.startuptelemetry." + name).collect(Collectors.toSet());
	}

	private static Set<String> stable(ClassLoadLog log, String packagePrefix) {
		return log.all()
			.stream()
			.filter((c) -> c.name().startsWith(packagePrefix))
			.map(ClassLoadLog.Loaded::stableName)
			.filter((n) -> !n.startsWith("jdk.internal.") && !n.startsWith("java.lang.invoke."))
			.collect(Collectors.toCollection(TreeSet::new));
	}

}
