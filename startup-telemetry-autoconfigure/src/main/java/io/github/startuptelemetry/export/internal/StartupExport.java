package io.github.startuptelemetry.export.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.metrics.MeterProvider;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import io.github.startuptelemetry.internal.BootLine;
import io.github.startuptelemetry.internal.DaemonThreads;
import io.github.startuptelemetry.tracing.internal.SdkFlush;

/**
 * This process's startup telemetry export and the thread it runs on: a startup's spans and
 * histograms are built and exported there after ready, off the path they measure, through the
 * application's OpenTelemetry, else an SDK of the starter's own, else nowhere. No SDK type is
 * in its signatures or fields, so that an application that never exports never loads one.
 */
public final class StartupExport {

	// the category by its inlined name, so that ExportLog loads with the SDK, off the startup's thread
	private static final Log logger = LogFactory.getLog(ExportLog.CATEGORY);

	private static final String OTLP_METER_REGISTRY = "io.micrometer.registry.otlp.OtlpMeterRegistry";

	private static final String SPAN_EXPORTER = "io.opentelemetry.sdk.trace.export.SpanExporter";

	private static final String TRACER_PROVIDER = "io.opentelemetry.sdk.trace.SdkTracerProvider";

	/** The oldest OpenTelemetry SDK the starter's code links against: Spring Boot 3.5's (checked by BootLineLinkTest). */
	static final String MINIMUM_SDK = "1.49";

	/** Where the SDK says its version ({@code sdk.version}). */
	private static final String SDK_VERSION = "io/opentelemetry/sdk/common/version.properties";

	/** Whether the SDK on the class path is supported, once looked up: one answer per class loader, as the SDK is. */
	private static volatile @Nullable Boolean sdkSupported;

	private static final String BOOT_TRACING_PACKAGE = BootLine.OPENTELEMETRY_TRACING_PACKAGE;

	/** Where Boot's tracer provider may send a span: each such bean is Boot's own or means "somewhere". */
	private static final String[] BOOT_TRACING_PARTS = { TRACER_PROVIDER,
			"io.opentelemetry.sdk.trace.SpanProcessor", BOOT_TRACING_PACKAGE + "SpanProcessors",
			BOOT_TRACING_PACKAGE + "SpanExporters" };

	/** Any bean of these sends spans somewhere (or may). */
	private static final String[] SPAN_DESTINATIONS = { SPAN_EXPORTER, "io.micrometer.tracing.exporter.SpanReporter",
			BOOT_TRACING_PACKAGE + "SdkTracerProviderBuilderCustomizer" };

	private final Environment environment;

	private final Map<String, String> processEnv;

	private final ObjectProvider<OpenTelemetry> applicationOpenTelemetry;

	private final ListableBeanFactory beanFactory;

	private final Object lock = new Object();

	/** Held while the starter's own SDK is built (hundreds of ms): not {@link #lock}, which {@link #submit} takes. */
	private final Object sdkLock = new Object();

	private @Nullable ExportSettings settings;

	private @Nullable ExecutorService worker;

	private boolean resolved;

	private @Nullable OpenTelemetry application;

	/** The starter's own SDK, once built (an {@code OpenTelemetrySdk}). */
	private @Nullable OpenTelemetry own;

	private boolean ownTried;

	private boolean closed;

	/** When the shutdown's budget runs out ({@link System#nanoTime()}), once the shutdown began; 0 before. */
	private long shutdownDeadlineNs;

	/**
	 * @param environment the application's configuration
	 * @param processEnv the process environment
	 * @param applicationOpenTelemetry the application's own OpenTelemetry, if it has one
	 * @param beanFactory where the application's meter registries and span exporters are looked up
	 */
	public StartupExport(Environment environment, Map<String, String> processEnv,
			ObjectProvider<OpenTelemetry> applicationOpenTelemetry, ListableBeanFactory beanFactory) {
		this.environment = environment;
		this.processEnv = processEnv;
		this.applicationOpenTelemetry = applicationOpenTelemetry;
		this.beanFactory = beanFactory;
	}

	/**
	 * The export of a process whose context is gone (a startup that failed while it refreshed, its
	 * beans already destroyed): only the starter's own SDK, built from {@code environment}'s
	 * settings.
	 */
	public static StartupExport standalone(Environment environment, Map<String, String> processEnv) {
		return new StartupExport(environment, processEnv, new org.springframework.beans.factory.support.StaticListableBeanFactory()
			.getBeanProvider(OpenTelemetry.class), new org.springframework.beans.factory.support.StaticListableBeanFactory());
	}

	/** Run {@code task} on the export thread, after what was submitted before it. */
	public void submit(Runnable task) {
		ExecutorService worker;
		synchronized (this.lock) {
			if (this.worker == null) {
				this.worker = Executors.newSingleThreadExecutor(DaemonThreads.named("startup-telemetry-export"));
			}
			worker = this.worker;
		}
		worker.execute(task);
	}

	/**
	 * Wait until everything submitted so far has run, at most until {@code deadlineNs}
	 * ({@link System#nanoTime()}); whether it has.
	 */
	public boolean awaitIdle(long deadlineNs) {
		ExecutorService worker;
		synchronized (this.lock) {
			worker = this.worker;
		}
		if (worker == null) {
			return true;
		}
		try {
			Future<?> marker = worker.submit(() -> {
			});
			marker.get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (Exception ex) {
			return false;
		}
	}

	/**
	 * The deadline of this process's telemetry shutdown: {@code budget} from the first call, the
	 * same for every later caller, so that the steps of one shutdown (waiting for the report,
	 * flushing, closing) share one budget.
	 */
	public long shutdownDeadline(java.time.Duration budget) {
		synchronized (this.lock) {
			if (this.shutdownDeadlineNs == 0) {
				this.shutdownDeadlineNs = System.nanoTime() + Math.max(0, budget.toNanos());
			}
			return this.shutdownDeadlineNs;
		}
	}

	/** What this process's configuration says about where its telemetry goes. */
	public ExportSettings settings() {
		synchronized (this.lock) {
			if (this.settings == null) {
				this.settings = ExportSettings.of(this.environment, this.processEnv);
				ProtocolAdvice.settled(this.settings);
			}
			return this.settings;
		}
	}

	/**
	 * Where startup spans go: the application's OpenTelemetry, else the starter's own SDK when
	 * spans have somewhere to go, else {@code null} (nothing to export to). The first call may
	 * build the SDK: call it off the startup's path.
	 */
	public @Nullable OpenTelemetry tracing() {
		if (!sdkSupported()) {
			return null;
		}
		OpenTelemetry application = application();
		if (application != null) {
			return application;
		}
		return settings().exportsTraces() ? own() : null;
	}

	/**
	 * Whether spans made through {@link #tracing()} leave the process: the starter's own SDK only
	 * exists when they do; the application's exports them when it has a span exporter or an
	 * endpoint is configured.
	 */
	public boolean tracesExported() {
		if (application() == null) {
			return settings().exportsTraces();
		}
		return settings().exportsTraces() || (ClassUtils.isPresent(SPAN_EXPORTER, getClass().getClassLoader())
				&& this.beanFactory.getBeanNamesForType(ClassUtils.resolveClassName(SPAN_EXPORTER,
						getClass().getClassLoader())).length > 0);
	}

	/**
	 * Whether spans made through {@link #tracing()} would reach nothing at all: the application's
	 * OpenTelemetry is Boot's, made of Boot's own tracer provider, span processor and (empty)
	 * exporter list, with no span exporter, reporter or tracer-provider customizer of the
	 * application's and no endpoint configured. Boot's batch processor then turns each span into
	 * Micrometer's finished span and hands it to no exporter: building the startup spans there
	 * only costs the first request CPU and classes. Any other shape (an OpenTelemetry or span
	 * processor of the application's, whose insides cannot be seen) counts as "somewhere". Read
	 * from bean definitions, creating nothing; called on the export thread.
	 */
	public boolean spansGoNowhere() {
		if (application() == null || settings().exportsTraces()
				|| !(this.beanFactory instanceof ConfigurableListableBeanFactory beanFactory)) {
			return false;
		}
		try {
			ClassLoader loader = getClass().getClassLoader();
			for (String destination : SPAN_DESTINATIONS) {
				if (ClassUtils.isPresent(destination, loader) && beanFactory
					.getBeanNamesForType(ClassUtils.resolveClassName(destination, loader), true, false).length > 0) {
					return false;
				}
			}
			if (!allDefinedBy(beanFactory, beanFactory.getBeanNamesForType(OpenTelemetry.class, true, false),
					BootLine.OPENTELEMETRY_SDK_CONFIGURATION)) {
				return false;
			}
			for (String part : BOOT_TRACING_PARTS) {
				if (!ClassUtils.isPresent(part, loader) || !allDefinedBy(beanFactory,
						beanFactory.getBeanNamesForType(ClassUtils.resolveClassName(part, loader), true, false),
						BootLine.OPENTELEMETRY_TRACING_CONFIGURATION)) {
					return false;
				}
			}
			return true;
		}
		catch (RuntimeException | LinkageError ex) {
			logger.debug("Could not tell where the application's spans go; the startup spans are made", ex);
			return false;
		}
	}

	/** Whether there is at least one of {@code names} and each is a bean method of {@code configuration}. */
	private static boolean allDefinedBy(ConfigurableListableBeanFactory beanFactory, String[] names,
			String configuration) {
		if (names.length == 0) {
			return false;
		}
		for (String name : names) {
			if (!beanFactory.containsBeanDefinition(name)) {
				return false;
			}
			BeanDefinition definition = beanFactory.getBeanDefinition(name);
			boolean instanceMethod = configuration.equals(definition.getFactoryBeanName());
			boolean staticMethod = definition.getFactoryBeanName() == null && definition.getFactoryMethodName() != null
					&& configuration.equals(definition.getBeanClassName());
			if (!instanceMethod && !staticMethod) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The OpenTelemetry meters the histograms go through, or {@code null}: none when the
	 * application's Micrometer registry pushes OTLP itself (the wire carries each histogram once);
	 * else the application's OpenTelemetry's; else the starter's own SDK's when metrics have
	 * somewhere to go.
	 */
	public @Nullable MeterProvider meters() {
		if (micrometerPushesOtlp() || !sdkSupported()) {
			return null;
		}
		OpenTelemetry application = application();
		if (application != null) {
			return application.getMeterProvider();
		}
		OpenTelemetry own = settings().exportsMetrics() ? own() : null;
		return (own != null) ? own.getMeterProvider() : null;
	}

	/** The application's bean factory, where its Micrometer registry is looked up. */
	ListableBeanFactory beanFactory() {
		return this.beanFactory;
	}

	/**
	 * An SDK for a startup that failed: the application's is closed by then (its context was), so
	 * the starter's own, when anything is configured; {@code null} otherwise.
	 */
	public @Nullable OpenTelemetry forFailedStartup() {
		return (sdkSupported() && settings().exportsTraces()) ? own() : null;
	}

	/**
	 * Whether the OpenTelemetry SDK on the class path is one the starter works with (its version
	 * from the SDK's own {@code version.properties}; none found counts as supported): else one WARN
	 * naming both versions, and the startup telemetry goes nowhere instead of failing at export.
	 */
	private boolean sdkSupported() {
		Boolean supported = sdkSupported;
		if (supported == null) {
			String version = sdkVersion(getClass().getClassLoader());
			supported = version == null || supportsSdk(version);
			if (!supported) {
				logger.warn("Startup telemetry is not exported: the OpenTelemetry SDK here is " + version
						+ ", older than " + MINIMUM_SDK + ", the oldest the starter works with (Spring Boot 3.5's); "
						+ "use the version Spring Boot's dependency management gives");
			}
			sdkSupported = supported;
		}
		return supported;
	}

	/** Whether {@code version} (major.minor[.patch...]) is {@link #MINIMUM_SDK} or later. */
	static boolean supportsSdk(String version) {
		String[] parts = version.strip().split("[.-]");
		String[] minimum = MINIMUM_SDK.split("\\.");
		try {
			for (int i = 0; i < minimum.length; i++) {
				int part = (i < parts.length) ? Integer.parseInt(parts[i]) : 0;
				int least = Integer.parseInt(minimum[i]);
				if (part != least) {
					return part > least;
				}
			}
			return true;
		}
		catch (NumberFormatException ex) {
			return true; // a version this cannot read: not refused for it
		}
	}

	private static @Nullable String sdkVersion(@Nullable ClassLoader loader) {
		try (InputStream in = (loader != null) ? loader.getResourceAsStream(SDK_VERSION) : null) {
			if (in == null) {
				return null;
			}
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("sdk.version");
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Start exporting the spans recorded so far, without waiting: they leave even a server that
	 * dies next, and the shutdown has less to drain. Called on the export thread, which starts
	 * after the application's ready listeners have run.
	 */
	public void flush() {
		OpenTelemetry application;
		OpenTelemetry own;
		synchronized (this.lock) {
			application = this.application;
			own = this.own;
		}
		if (application != null) {
			SdkFlush.flush(application);
		}
		if (own != null) {
			SdkFlush.flush(own);
		}
	}

	/**
	 * Flush and close the starter's own SDK, if it was built, waiting at most until
	 * {@code deadlineNs}; nothing is built after this.
	 */
	public void close(long deadlineNs) {
		OpenTelemetry own;
		synchronized (this.sdkLock) {
			this.closed = true;
			own = this.own;
		}
		if (own != null) {
			SdkFlush.close(own, deadlineNs);
		}
	}

	/** Whether the starter built an SDK of its own. */
	public boolean ownSdkBuilt() {
		synchronized (this.lock) {
			return this.own != null;
		}
	}

	private @Nullable OpenTelemetry application() {
		synchronized (this.lock) {
			if (!this.resolved) {
				this.resolved = true;
				OpenTelemetry application = this.applicationOpenTelemetry.getIfAvailable();
				this.application = (application != null && bareBootSdk()) ? null : application;
			}
			return this.application;
		}
	}

	/**
	 * Whether the application's OpenTelemetry is Boot's SDK without a tracer provider: what Boot 3
	 * builds in any application with the actuator once the starter brought the SDK, whose spans
	 * and meters go nowhere. The starter's own SDK carries the startup there, as without it.
	 */
	private boolean bareBootSdk() {
		if (!(this.beanFactory instanceof ConfigurableListableBeanFactory beanFactory)) {
			return false;
		}
		try {
			ClassLoader loader = getClass().getClassLoader();
			return allDefinedBy(beanFactory, beanFactory.getBeanNamesForType(OpenTelemetry.class, true, false),
					BootLine.OPENTELEMETRY_SDK_CONFIGURATION) && ClassUtils.isPresent(TRACER_PROVIDER, loader)
					&& beanFactory.getBeanNamesForType(ClassUtils.resolveClassName(TRACER_PROVIDER, loader), true,
							false).length == 0;
		}
		catch (RuntimeException | LinkageError ex) {
			return false;
		}
	}

	private @Nullable OpenTelemetry own() {
		synchronized (this.sdkLock) {
			synchronized (this.lock) {
				if (this.ownTried || this.closed) {
					return this.own;
				}
				this.ownTried = true;
			}
			OpenTelemetry built = null;
			try {
				built = OwnSdk.build(settings());
			}
			catch (Exception | LinkageError ex) {
				logger.warn("Startup telemetry is not exported: its OpenTelemetry SDK could not be built ("
						+ ExportLog.reason(ex) + ")");
				logger.debug("The SDK's failure", ex);
			}
			synchronized (this.lock) {
				this.own = built;
				return built;
			}
		}
	}

	private boolean micrometerPushesOtlp() {
		ClassLoader loader = getClass().getClassLoader();
		return ClassUtils.isPresent(OTLP_METER_REGISTRY, loader) && this.beanFactory
			.getBeanNamesForType(ClassUtils.resolveClassName(OTLP_METER_REGISTRY, loader), false, false).length > 0;
	}

}
