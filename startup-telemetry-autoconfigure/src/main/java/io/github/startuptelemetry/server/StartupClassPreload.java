package io.github.startuptelemetry.server;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.internal.BootLine;

/**
 * Loads, on a daemon thread of its own, the starter's classes that a server's startup asks for
 * later on its own thread, so that the startup's thread finds them loaded instead of looking each
 * one up through every nested jar. Spring Boot's {@code BackgroundPreinitializer} does the same for
 * its own classes, and under the same rules this follows.
 */
final class StartupClassPreload implements Runnable {

	/** Boot's switch for its own background pre-initialisation, a system property: honoured here too. */
	static final String BOOT_IGNORE = "spring.backgroundpreinitializer.ignore";

	private static final AtomicBoolean started = new AtomicBoolean();

	/** In the order the startup needs them: the earliest first, so that the two threads rarely want the same one. */
	static final String[] CLASSES = {
			// the environment post-processor's (Boot 4 reads the Boot 3 one's key too)
			"io.github.startuptelemetry.lifecycle.TelemetryEnvironmentPostProcessor",
			"io.github.startuptelemetry.lifecycle.Boot3TelemetryEnvironmentPostProcessor",
			"io.github.startuptelemetry.lifecycle.TelemetryEnvironmentDefaults",
			"io.github.startuptelemetry.lifecycle.OtlpExportDefaults",
			"io.github.startuptelemetry.internal.BootLine",
			"io.github.startuptelemetry.lifecycle.NemoDefaults",
			"io.github.startuptelemetry.lifecycle.internal.BootOtlpProperties",
			"io.github.startuptelemetry.lifecycle.ResourceAttributeDefaults",
			"io.github.startuptelemetry.autoconfigure.internal.EarlyTelemetryProperties",
			"io.github.startuptelemetry.autoconfigure.internal.EarlyTelemetryProperties$LenientBindHandler",
			"io.github.startuptelemetry.lifecycle.internal.RunId",
			"io.github.startuptelemetry.lifecycle.internal.ProcessResourceAttributes$Identity",
			"io.github.startuptelemetry.lifecycle.internal.ProcessResourceAttributes",
			"io.github.startuptelemetry.internal.HostName",
			// the context's
			"io.github.startuptelemetry.autoconfigure.TelemetryProperties$Startup",
			"io.github.startuptelemetry.autoconfigure.TelemetryProperties$BeanSpans",
			"io.github.startuptelemetry.autoconfigure.TelemetryProperties$Report",
			"io.github.startuptelemetry.timeline.internal.SpawnHandOff",
			"io.github.startuptelemetry.timeline.internal.SpawnHandOff$Prelude",
			"io.github.startuptelemetry.timeline.Stage",
			"io.github.startuptelemetry.server.BeanSpanRecorder",
			"io.github.startuptelemetry.timeline.internal.ProcessTimeline",
			"io.github.startuptelemetry.server.BeansInstantiatedMarker",
			"io.github.startuptelemetry.server.BeanSpanRecorder$Node",
			// the auto-configurations and their beans
			"io.github.startuptelemetry.autoconfigure.internal.TelemetryAutoConfigurationFilter",
			"io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled",
			"io.github.startuptelemetry.autoconfigure.internal.ConditionalOnBootOpenTelemetry",
			"io.github.startuptelemetry.autoconfigure.internal.ConditionalOnBootOpenTelemetryTracing",
			"io.github.startuptelemetry.autoconfigure.internal.OnBootOpenTelemetryCondition",
			"io.github.startuptelemetry.autoconfigure.internal.OnBootOpenTelemetryCondition$Sdk",
			"io.github.startuptelemetry.autoconfigure.internal.OnBootOpenTelemetryCondition$Tracing",
			"io.github.startuptelemetry.export.internal.StartupExportConfiguration",
			"io.github.startuptelemetry.export.internal.StartupExport",
			"io.github.startuptelemetry.export.internal.StartupHistograms",
			"io.github.startuptelemetry.lifecycle.TelemetryLifecycleAutoConfiguration$SpanGroupConfiguration",
			"io.github.startuptelemetry.lifecycle.TelemetryLifecycleAutoConfiguration$TypedResourceConfiguration",
			"io.github.startuptelemetry.lifecycle.TelemetryLifecycleAutoConfiguration",
			"io.github.startuptelemetry.lifecycle.OtlpMetricsTypingAutoConfiguration$OtlpRegistry",
			"io.github.startuptelemetry.lifecycle.BoundedTelemetryShutdown",
			"io.github.startuptelemetry.lifecycle.TypedResourcePostProcessor",
			"io.github.startuptelemetry.lifecycle.TelemetryHandle$Registration",
			"io.github.startuptelemetry.autoconfigure.TelemetryProperties",
			"io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration",
			"io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration$SamplerConfiguration",
			"io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration$TimelineEndpointConfiguration",
			"io.github.startuptelemetry.server.ServerStartupReporter",
			"io.github.startuptelemetry.server.StartupStageMetrics",
			"io.github.startuptelemetry.server.StartupTimelineEndpoint",
			"io.github.startuptelemetry.autoconfigure.TelemetryProperties$Export",
			"io.github.startuptelemetry.supervisor.SupervisorAutoConfiguration",
			"io.github.startuptelemetry.supervisor.SupervisorRole$Declared",
			"io.github.startuptelemetry.supervisor.SupervisorRole",
			"io.github.startuptelemetry.supervisor.SupervisorTracingAutoConfiguration",
			"io.github.startuptelemetry.supervisor.SupervisorStartup",
			"io.github.startuptelemetry.supervisor.ChildTelemetryEnvironment",
			"io.github.startuptelemetry.autoconfigure.TelemetryProperties$Otlp",
			"io.github.startuptelemetry.autoconfigure.TelemetryProperties$Zipkin",
			"io.github.startuptelemetry.tracing.internal.StartupSamplerPostProcessor",
			"io.github.startuptelemetry.tracing.internal.TypedResource",
			"io.github.startuptelemetry.contract.ResourceAttributes",
			"io.github.startuptelemetry.contract.SpanGroups",
			"io.github.startuptelemetry.tracing.internal.StartupSampler",
			"io.github.startuptelemetry.export.internal.ExportSettings",
			"io.opentelemetry.api.OpenTelemetry",
			"io.opentelemetry.api.metrics.MeterProvider",
			"io.github.startuptelemetry.contract.MetricNames",
			"io.github.startuptelemetry.lifecycle.TelemetryHandle",
			"io.opentelemetry.api.common.Attributes",
			"io.opentelemetry.api.metrics.DoubleHistogram",
			// ready
			"io.github.startuptelemetry.timeline.ServerTimeline",
			"io.github.startuptelemetry.timeline.internal.PlatformPrelude",
			"io.github.startuptelemetry.timeline.JvmInfo",
			"io.github.startuptelemetry.timeline.internal.PlatformStages",
			"io.github.startuptelemetry.lifecycle.BoundedTelemetryShutdown$Position",
			"io.github.startuptelemetry.timeline.StepTiming",
			"io.github.startuptelemetry.server.ServerStartupRecorder$WebServerEvents",
			"io.github.startuptelemetry.server.ServerStartupReporter$Export",
			"io.github.startuptelemetry.internal.DaemonThreads" };

	/**
	 * The classes of {@link #CLASSES} that only an application with Spring Boot's OpenTelemetry
	 * support loads (its SDK carries the startup: the sampler, the resource's types, the span
	 * groups, the handle on its SDK), and the actuator endpoint's, which such an application has
	 * (one with the actuator alone loads those two itself). Loaded only where Boot's OpenTelemetry
	 * SDK auto-configuration (either Boot line's, {@link BootLine#OPENTELEMETRY_SDK} or
	 * {@link BootLine#BOOT_3_OPENTELEMETRY_SDK}, looked up as a resource by the preload's thread) is
	 * on the class path, so that a plain server never looks up a class it does not use.
	 */
	static final List<String> WITH_BOOT_OPENTELEMETRY = List.of(
			"io.github.startuptelemetry.lifecycle.OtlpMetricsTypingAutoConfiguration$OtlpRegistry",
			"io.github.startuptelemetry.lifecycle.TelemetryLifecycleAutoConfiguration$SpanGroupConfiguration",
			"io.github.startuptelemetry.lifecycle.TelemetryLifecycleAutoConfiguration$TypedResourceConfiguration",
			"io.github.startuptelemetry.lifecycle.TypedResourcePostProcessor",
			"io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration$SamplerConfiguration",
			"io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration$TimelineEndpointConfiguration",
			"io.github.startuptelemetry.server.StartupTimelineEndpoint",
			"io.github.startuptelemetry.tracing.internal.StartupSamplerPostProcessor",
			"io.github.startuptelemetry.tracing.internal.TypedResource",
			"io.github.startuptelemetry.contract.ResourceAttributes",
			"io.github.startuptelemetry.contract.SpanGroups",
			"io.github.startuptelemetry.tracing.internal.StartupSampler",
			"io.github.startuptelemetry.lifecycle.TelemetryHandle");

	private final ClassLoader classLoader;

	private final String[] names;

	private final List<String> gated;

	private final List<String> gates;

	private volatile boolean cancelled;

	StartupClassPreload(ClassLoader classLoader, String[] names) {
		this(classLoader, names, List.of(), List.of());
	}

	/**
	 * @param gated the names of {@code names} to load only where a class named in {@code gates} is
	 * on the class path
	 */
	StartupClassPreload(ClassLoader classLoader, String[] names, List<String> gated, List<String> gates) {
		this.classLoader = classLoader;
		this.names = names;
		this.gated = gated;
		this.gates = gates;
	}

	/**
	 * Starts loading {@link #CLASSES} with {@code classLoader} where it may help: the first time
	 * in this JVM, with more than one processor, unless Boot's switch says not to.
	 * @return the preload, to cancel, or {@code null} where none was started
	 */
	static @Nullable StartupClassPreload start(@Nullable ClassLoader classLoader) {
		if (classLoader == null || Boolean.parseBoolean(System.getProperty(BOOT_IGNORE))
				|| Runtime.getRuntime().availableProcessors() < 2 || !started.compareAndSet(false, true)) {
			return null;
		}
		StartupClassPreload preload = new StartupClassPreload(classLoader, CLASSES, WITH_BOOT_OPENTELEMETRY,
				List.of(BootLine.OPENTELEMETRY_SDK, BootLine.BOOT_3_OPENTELEMETRY_SDK));
		try {
			// a thread of its own, not DaemonThreads: its factory's lambdas would link on the startup's thread
			Thread thread = new Thread(preload, "startup-telemetry-preload");
			thread.setDaemon(true);
			thread.start();
			return preload;
		}
		catch (RuntimeException | Error ex) {
			// no thread: the startup's thread loads them itself, as it would without this
			return null;
		}
	}

	/**
	 * Whether the class is there, by its class file: nothing loaded or initialised (not
	 * {@code OtlpExportDefaults.present}, which would initialise a listed class on this thread).
	 */
	private boolean onClassPath(String className) {
		try {
			return this.classLoader.getResource(className.replace('.', '/') + ".class") != null;
		}
		catch (RuntimeException ex) {
			return false; // then the startup's thread loads those itself
		}
	}

	/** Stops after the class being loaded: telemetry turned out to be off, and the startup needs none of the rest. */
	void cancel() {
		this.cancelled = true;
	}

	@Override
	public void run() {
		// looked up first, before the startup's thread needs the earliest of them (it has its environment to prepare)
		boolean gateOpen = false;
		for (String gate : this.gates) {
			gateOpen = gateOpen || (!this.gated.isEmpty() && onClassPath(gate));
		}
		for (String name : this.names) {
			if (this.cancelled) {
				return;
			}
			if (!gateOpen && this.gated.contains(name)) {
				continue;
			}
			try {
				Class.forName(name, false, this.classLoader);
			}
			catch (ClassNotFoundException | LinkageError ex) {
				// left to the startup's thread, which meets the same where it matters
			}
		}
	}

}
