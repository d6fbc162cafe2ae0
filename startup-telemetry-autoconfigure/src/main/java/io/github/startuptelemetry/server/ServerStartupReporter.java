package io.github.startuptelemetry.server;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;

import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.internal.support.DaemonThreads;
import io.github.startuptelemetry.internal.timeline.PlatformPrelude;
import io.github.startuptelemetry.internal.timeline.PlatformStages;
import io.github.startuptelemetry.internal.timeline.ReadyCallback;
import io.github.startuptelemetry.internal.timeline.TraceParent;
import io.github.startuptelemetry.internal.timeline.WallClock;
import io.github.startuptelemetry.internal.tracing.SdkFlush;
import io.github.startuptelemetry.internal.tracing.StartupSpans;
import io.github.startuptelemetry.timeline.JvmInfo;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * Reports a server's startup once it is ready: spans through the application's own
 * {@link OpenTelemetry}, the per-stage histogram, one INFO line, and the report the
 * {@code startuptimeline} endpoint shows. Each step is guarded on its own, so a broken exporter
 * still leaves the log line and the endpoint. The listener hands the timeline over at
 * {@code ApplicationReadyEvent} ({@link #reportLater}) and {@link ReadyReportRunListener} has it
 * reported once readiness has flipped, so that reporting never holds readiness back. On a
 * platform that ran stages of its own before the process (a Kubernetes pod: a
 * {@link PlatformPrelude} bean), the report, but for the ready callback, waits for them on a thread
 * of its own, and has them ahead of the process's own stages.
 */
class ServerStartupReporter implements ApplicationListener<ContextClosedEvent> {

	private static final Log logger = LogFactory.getLog(ServerStartupReporter.class);

	/** How long a closing server waits for its platform's stages before it reports without them. */
	static final long PLATFORM_AT_CLOSE_MS = 2000;

	private final @Nullable OpenTelemetry openTelemetry;

	private final String serverName;

	private final @Nullable String serverType;

	private final boolean logSummary;

	private final List<Consumer<ServerTimeline>> consumers;

	private final @Nullable PlatformPrelude platform;

	private boolean reported;

	/** The platform's stages being read, when they are. */
	private volatile @Nullable PlatformReport platformReport;

	private volatile @Nullable JvmInfo jvm;

	private volatile @Nullable ServerTimeline lastReport;

	private volatile @Nullable ServerStartupTimeline pending;

	/**
	 * @param openTelemetry where spans go, or {@code null} for none
	 * @param serverName the name on spans, metrics and the summary
	 * @param serverType the type, or {@code null}
	 * @param logSummary whether to log the one-line summary
	 * @param consumers further uses of the report (metrics), each guarded
	 */
	ServerStartupReporter(@Nullable OpenTelemetry openTelemetry, String serverName, @Nullable String serverType,
			boolean logSummary, List<Consumer<ServerTimeline>> consumers) {
		this(openTelemetry, serverName, serverType, logSummary, consumers, null);
	}

	/**
	 * @param platform the stages the server's platform ran before it, read after ready, or
	 * {@code null} for none
	 */
	ServerStartupReporter(@Nullable OpenTelemetry openTelemetry, String serverName, @Nullable String serverType,
			boolean logSummary, List<Consumer<ServerTimeline>> consumers, @Nullable PlatformPrelude platform) {
		this.openTelemetry = openTelemetry;
		this.serverName = serverName;
		this.serverType = serverType;
		this.logSummary = logSummary;
		this.consumers = List.copyOf(consumers);
		this.platform = platform;
	}

	/** Export and log {@code timeline}; only the first call per reporter does anything. */
	synchronized void report(ServerStartupTimeline timeline) {
		if (this.reported) {
			return;
		}
		this.reported = true;
		SupervisorCallback callback = timeline.callback();
		if (callback != null) {
			// first, before anything else: the supervisor takes the instant this arrives as "ready";
			// its body was built on the callback's own thread since ApplicationReadyEvent
			callback.announce();
			// a reporter not told at ApplicationReadyEvent (reportLater) has it built now, there
			callback.arm(new ReadyBody(this, timeline));
		}
		if (this.platform != null && !timeline.worker()) {
			// the platform's stages are read from its API: not on the main thread, not before ready
			PlatformReport platformReport = new PlatformReport(this, timeline, this.platform);
			this.platformReport = platformReport;
			DaemonThreads.ownThread("startup-platform-stages").execute(platformReport);
			return;
		}
		publish(timeline, null);
	}

	/**
	 * The report's spans, metrics and log line, with the platform's stages ahead of the
	 * process's when there are any.
	 */
	private void publish(ServerStartupTimeline timeline, @Nullable PlatformStages platform) {
		List<Stage> stages = (platform != null) ? platform.stages() : timeline.stages();
		JvmInfo jvm = jvm();
		// each step guarded on its own, as support.Guarded does, but without its lambdas: each
		// would be linked here, on the main thread, while the first requests come in
		SpanContext root = null;
		try {
			root = exportSpans(timeline, stages, platform);
		}
		catch (Exception | LinkageError ex) {
			logger.debug("Could not export the startup spans", ex);
		}
		ServerTimeline report = report(timeline, stages, (root != null) ? root.getTraceId() : null,
				(root != null) ? root.getSpanId() : null, jvm);
		this.lastReport = report;
		if (this.openTelemetry != null) {
			try {
				SdkFlush.flush(this.openTelemetry);
			}
			catch (Exception | LinkageError ex) {
				logger.debug("Could not flush the startup spans", ex);
			}
		}
		for (Consumer<ServerTimeline> consumer : this.consumers) {
			try {
				consumer.accept(report);
			}
			catch (Exception | LinkageError ex) {
				logger.debug("Could not record the startup metrics", ex);
			}
		}
		if (this.logSummary) {
			logger.info(report.summary());
		}
	}

	/**
	 * Keep {@code timeline} for {@link #reportPending()}: reported once the application accepts
	 * traffic, so that reporting does not hold its readiness back.
	 */
	void reportLater(ServerStartupTimeline timeline) {
		this.pending = timeline;
		SupervisorCallback callback = timeline.callback();
		if (callback != null) {
			// ready is a few ms away: let the callback's thread connect and build its body meanwhile
			// (a class, not a lambda: a lambda's first linkage here would cost the main thread)
			callback.arm(new ReadyBody(this, timeline));
		}
	}

	/**
	 * Part of the startup is done, ready is still to come: let the callback's thread write the
	 * parts of its body that are final by now, so that at ready it only writes the rest.
	 */
	void draftCallback(ServerStartupTimeline timeline) {
		SupervisorCallback callback = timeline.callback();
		if (callback != null) {
			callback.draft(new ReadyBody(this, timeline));
		}
	}

	/** Report what {@link #reportLater} kept, if anything; as with {@link #report}, only once. */
	void reportPending() {
		ServerStartupTimeline timeline = this.pending;
		this.pending = null;
		if (timeline != null) {
			report(timeline);
		}
	}

	/**
	 * A start that failed after ready (in a ready listener) is still reported, as it closes. A
	 * server that closes while its platform's stages are still being read waits for them a moment
	 * ({@link #PLATFORM_AT_CLOSE_MS}), then reports without them: its spans must be out before the
	 * telemetry shuts down.
	 */
	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		reportPending();
		PlatformReport platformReport = this.platformReport;
		if (platformReport != null) {
			platformReport.atClose(PLATFORM_AT_CLOSE_MS);
		}
	}

	/**
	 * This JVM, described once for the ready callback's copy and the report alike, by whichever
	 * thread needs it first (two racing describe the same JVM); {@code null} if it could not be.
	 */
	private @Nullable JvmInfo jvm() {
		JvmInfo jvm = this.jvm;
		if (jvm == null) {
			try {
				jvm = JvmInfo.current();
			}
			catch (Exception | LinkageError ex) {
				logger.debug("Could not describe this JVM", ex);
			}
			this.jvm = jvm;
		}
		return jvm;
	}

	private ServerTimeline report(ServerStartupTimeline timeline, @Nullable String traceId, @Nullable String spanId,
			@Nullable JvmInfo jvm) {
		return report(timeline, timeline.stages(), traceId, spanId, jvm);
	}

	private ServerTimeline report(ServerStartupTimeline timeline, List<Stage> stages, @Nullable String traceId,
			@Nullable String spanId, @Nullable JvmInfo jvm) {
		long start = stages.isEmpty() ? timeline.startNs() : stages.get(0).startNs();
		return new ServerTimeline(this.serverName, this.serverType, timeline.worker(), ProcessHandle.current().pid(),
				traceId, spanId, start, timeline.endNs(), stages, timeline.ignoredEnv(), timeline.steps(), jvm);
	}

	/**
	 * Reads the platform's stages, then publishes the report with them, on a thread of its own
	 * (a class, not a lambda, as {@link ReadyBody}); guarded, so that a broken platform read still
	 * leaves the report without its stages.
	 */
	private static final class PlatformReport implements Runnable {

		private final ServerStartupReporter reporter;

		private final ServerStartupTimeline timeline;

		private final PlatformPrelude platform;

		private final AtomicBoolean published = new AtomicBoolean();

		private final CountDownLatch done = new CountDownLatch(1);

		PlatformReport(ServerStartupReporter reporter, ServerStartupTimeline timeline, PlatformPrelude platform) {
			this.reporter = reporter;
			this.timeline = timeline;
			this.platform = platform;
		}

		@Override
		public void run() {
			try {
				PlatformStages stages = null;
				try {
					stages = this.platform.read(this.timeline.stages());
				}
				catch (Exception | LinkageError ex) {
					logger.debug("Could not read the platform's stages; the startup is reported without them", ex);
				}
				if (this.published.compareAndSet(false, true)) {
					this.reporter.publish(this.timeline, stages);
				}
			}
			finally {
				this.done.countDown();
			}
		}

		/** The server closes: wait for the report at most {@code waitMs}, else report without the platform's stages. */
		void atClose(long waitMs) {
			try {
				if (this.done.await(waitMs, TimeUnit.MILLISECONDS)) {
					return;
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			if (this.published.compareAndSet(false, true)) {
				logger.debug("The server closes while its platform's stages are still being read: reported without them");
				this.reporter.publish(this.timeline, null);
			}
		}

	}

	/**
	 * What the ready callback says: the announced timeline (the endpoint's document, under the
	 * supervisor's trace) and this process. Built on the callback's thread, once every stage is
	 * known (and once before, for its draft), from immutable values and this JVM's description;
	 * guarded there.
	 */
	private static final class ReadyBody implements Supplier<ReadyCallback> {

		private final ServerStartupReporter reporter;

		private final ServerStartupTimeline timeline;

		ReadyBody(ServerStartupReporter reporter, ServerStartupTimeline timeline) {
			this.reporter = reporter;
			this.timeline = timeline;
		}

		@Override
		public ReadyCallback get() {
			TraceParent parent = this.timeline.traceParent();
			ServerTimeline announced = this.reporter.report(this.timeline, (parent != null) ? parent.traceId() : null,
					null, this.reporter.jvm());
			return new ReadyCallback(this.reporter.serverName, announced.pid(), hostName(), this.timeline.port(),
					WallClock.nowNs(), this.timeline.clock(), announced);
		}

	}

	/** This host's name for people (the supervisor probes the address the callback came from). */
	private static String hostName() {
		String name = System.getenv("HOSTNAME");
		return (name != null && !name.isBlank()) ? name : "";
	}

	/** The report of this application's startup, or {@code null} before it is ready. */
	@Nullable ServerTimeline lastReport() {
		return this.lastReport;
	}

	private @Nullable SpanContext exportSpans(ServerStartupTimeline timeline, List<Stage> stages,
			@Nullable PlatformStages platform) {
		if (this.openTelemetry == null) {
			return null;
		}
		Tracer tracer = this.openTelemetry.getTracer(SpanNames.SCOPE);
		AttributesBuilder common = Attributes.builder()
			.put(StartupSpans.SERVER_NAME, this.serverName)
			.put(StartupSpans.SERVER_WORKER, timeline.worker())
			.put(StartupSpans.PROCESS_PID, ProcessHandle.current().pid());
		if (this.serverType != null) {
			common.put(StartupSpans.SERVER_TYPE, this.serverType);
		}
		Attributes attributes = common.build();
		Attributes rootAttributes = timeline.ignoredEnv().isEmpty() ? attributes
				: attributes.toBuilder().put(StartupSpans.IGNORED_ENV, timeline.ignoredEnv()).build();
		if (platform != null && !platform.rootAttributes().isEmpty()) {
			rootAttributes = StartupSpans.with(rootAttributes, platform.rootAttributes());
		}
		String rootName = timeline.worker() ? SpanNames.WORKER_ROOT : SpanNames.SERVER_ROOT;
		long start = stages.isEmpty() ? timeline.startNs() : stages.get(0).startNs();
		Span root = StartupSpans.start(tracer, rootName, start, StartupSpans.parentContext(timeline.traceParent()),
				rootAttributes);
		Context rootContext = Context.root().with(root);
		for (Stage stage : stages) {
			// the bean spans hang from beans_instantiated, which says what of it they leave unexplained
			boolean beans = stage.name().equals(StageNames.BEANS_INSTANTIATED);
			Double unattributedMs = beans
					? (stage.durationNs() - StepTiming.coveredNs(timeline.steps(), stage.startNs(), stage.endNs()))
							/ 1_000_000.0
					: null;
			Span stageSpan = StartupSpans.stageSpan(tracer, stage, rootContext, rootName,
					(platform != null) ? StartupSpans.with(attributes, platform.spanAttributes(stage.name())) : attributes,
					unattributedMs);
			if (beans) {
				exportBeanSpans(tracer, timeline.steps(), stageSpan, stage.startNs(), stage.endNs(), rootName,
						attributes);
			}
			if (platform != null) {
				exportNested(tracer, platform, stage, stageSpan, rootName, attributes);
			}
		}
		root.end(timeline.endNs(), TimeUnit.NANOSECONDS);
		return root.getSpanContext().isValid() ? root.getSpanContext() : null;
	}

	/** The platform's spans inside a stage's (an image pull in the pod's setup), named as stages are. */
	private static void exportNested(Tracer tracer, PlatformStages platform, Stage stage, Span stageSpan,
			String rootName, Attributes attributes) {
		for (PlatformStages.Nested nested : platform.nested()) {
			if (nested.parent().equals(stage.name())) {
				StartupSpans.stageSpan(tracer, nested.stage(), Context.root().with(stageSpan), rootName,
						StartupSpans.with(attributes, nested.attributes()), null);
			}
		}
	}

	/**
	 * {@code <root>.bean.<name>} per slow bean, {@code <root>.step.<name>} per application
	 * step, nested as they ran and kept inside their parent's interval.
	 */
	private static void exportBeanSpans(Tracer tracer, List<StepTiming> beanSpans, Span parent, long parentStartNs,
			long parentEndNs, String prefix, Attributes attributes) {
		Context parentContext = Context.root().with(parent);
		for (StepTiming beanSpan : beanSpans) {
			long start = Math.min(Math.max(beanSpan.startNs(), parentStartNs), parentEndNs);
			long end = Math.min(Math.max(beanSpan.endNs(), start), parentEndNs);
			String bean = beanSpan.beanName();
			String name = (bean != null) ? prefix + ".bean." + bean : prefix + ".step." + beanSpan.step();
			// on the builder, not a copy of the common attributes per span
			SpanBuilder builder = StartupSpans.builder(tracer, name, start, parentContext, attributes)
				.setAttribute(StartupSpans.STEP, beanSpan.step())
				.setAttribute(StartupSpans.SELF_MS, beanSpan.selfMs());
			if (bean != null) {
				builder.setAttribute(StartupSpans.BEAN_NAME, bean);
				if (beanSpan.beanType() != null) {
					builder.setAttribute(StartupSpans.BEAN_TYPE, beanSpan.beanType());
				}
			}
			Span span = builder.startSpan();
			exportBeanSpans(tracer, beanSpan.children(), span, start, end, prefix, attributes);
			span.end(end, TimeUnit.NANOSECONDS);
		}
	}

}
