package io.github.startuptelemetry.server;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanContext;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.Ordered;

import io.github.startuptelemetry.export.internal.StartupExport;
import io.github.startuptelemetry.lifecycle.internal.GymServerType;
import io.github.startuptelemetry.internal.DaemonThreads;
import io.github.startuptelemetry.timeline.internal.PlatformPrelude;
import io.github.startuptelemetry.timeline.internal.PlatformStages;
import io.github.startuptelemetry.timeline.internal.ReadyCallback;
import io.github.startuptelemetry.timeline.internal.TraceParent;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.timeline.JvmInfo;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

/**
 * Reports a server's startup once it is ready: the ready callback on the startup's thread right
 * after readiness flips, then on the export thread ({@link StartupExport}) the spans, the per-stage
 * histogram, one INFO line and what the {@code startuptimeline} endpoint shows. Each step is
 * guarded on its own, so a broken exporter still leaves the log line and the endpoint.
 */
class ServerStartupReporter implements ApplicationListener<ContextClosedEvent>, Ordered {

	private static final Log logger = LogFactory.getLog(ServerStartupReporter.class);

	private final StartupExport export;

	private final String serverName;

	/** {@code telemetry.startup.server-type}, or {@code null}. */
	private final @Nullable String configuredType;

	private volatile boolean typeKnown;

	private volatile @Nullable String serverType;

	private final boolean logSummary;

	private final Duration shutdownTimeout;

	private final List<Consumer<ServerTimeline>> consumers;

	private final @Nullable PlatformPrelude platform;

	/** The platform's stages as read after ready; completed with {@code null} when the server closes first. */
	private final CompletableFuture<@Nullable PlatformStages> platformStages = new CompletableFuture<>();

	private volatile @Nullable JvmInfo jvm;

	private volatile @Nullable ServerTimeline lastReport;

	private volatile @Nullable ServerStartupTimeline pending;

	/** Whether the report was handed to the export thread (once). */
	private boolean handedOver;

	/** Counted down once the report exists ({@link #awaitReport}). */
	private final CountDownLatch reported = new CountDownLatch(1);

	/**
	 * @param export where spans go, and the thread the report runs on
	 * @param serverName the name on spans, metrics and the summary
	 * @param serverType the type, or {@code null}
	 * @param logSummary whether to log the one-line summary
	 * @param shutdownTimeout the shutdown's budget, which waiting for the report at close shares
	 * @param consumers further uses of the report (metrics), each guarded
	 * @param platform the stages the server's platform ran before it, read after ready, or
	 * {@code null} for none
	 */
	ServerStartupReporter(StartupExport export, String serverName, @Nullable String serverType,
			boolean logSummary, Duration shutdownTimeout, List<Consumer<ServerTimeline>> consumers,
			@Nullable PlatformPrelude platform) {
		this.export = export;
		this.platform = platform;
		this.shutdownTimeout = shutdownTimeout;
		this.serverName = serverName;
		this.configuredType = serverType;
		this.logSummary = logSummary;
		this.consumers = List.copyOf(consumers);
	}

	/**
	 * Report {@code timeline}; only the first call per reporter does anything. On the calling
	 * thread only the ready callback goes out (first: the supervisor takes the instant it arrives as
	 * "ready"); the rest is handed to the export thread.
	 */
	synchronized void report(ServerStartupTimeline timeline) {
		if (this.handedOver) {
			return;
		}
		this.handedOver = true;
		SupervisorCallback callback = timeline.callback();
		if (callback != null) {
			// its body was built on the callback's own thread since ApplicationReadyEvent
			callback.announce();
			// a reporter not told at ApplicationReadyEvent (reportLater) has it built now, there
			callback.arm(new ReadyBody(this, timeline));
		}
		try {
			// a class, not a lambda: a lambda's first linkage here would cost the startup's thread
			this.export.submit(new Export(this, timeline));
		}
		catch (RuntimeException ex) {
			logger.debug("Could not hand the startup report over", ex);
			this.reported.countDown();
		}
	}

	/**
	 * The report itself, on the export thread: spans (on the SDK that exists, or on one built
	 * now), the report the endpoint shows, the flush, the histograms, the line. Each step guarded
	 * on its own.
	 */
	void export(ServerStartupTimeline timeline) {
		JvmInfo jvm = jvm();
		PlatformStages platform = platformStages(timeline);
		SpanContext root = null;
		boolean exported = false;
		try {
			OpenTelemetry openTelemetry = this.export.tracing();
			// no spans for nothing to receive them (Boot's SDK with no exporter): they would only
			// compete with the first requests for CPU
			if (openTelemetry != null && !this.export.spansGoNowhere()) {
				root = ServerSpans.export(openTelemetry, this.serverName, serverType(), timeline, platform, null, null);
				exported = root != null && this.export.tracesExported();
			}
		}
		catch (Exception | LinkageError ex) {
			logger.debug("Could not export the startup spans", ex);
		}
		ServerTimeline report = report(timeline, (platform != null) ? platform.stages() : timeline.stages(),
				exported ? root.getTraceId() : null, exported ? root.getSpanId() : null, jvm);
		this.lastReport = report;
		try {
			this.export.flush();
		}
		catch (Exception | LinkageError ex) {
			logger.debug("Could not flush the startup spans", ex);
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
	 * The platform's stages ahead of the process's, or {@code null} without a platform or when the
	 * server closed before they were read. The read blocks (bounded by the platform's own
	 * timeouts), so it runs on a thread of its own, which a closing server does not wait for.
	 */
	private @Nullable PlatformStages platformStages(ServerStartupTimeline timeline) {
		if (this.platform == null || timeline.worker()) {
			return null;
		}
		try {
			DaemonThreads.ownThread("startup-platform-stages").execute(new PlatformRead(this, this.platform, timeline));
			return this.platformStages.join();
		}
		catch (RuntimeException ex) {
			logger.debug("Could not read the platform's stages; the startup is reported without them", ex);
			return null;
		}
	}

	/**
	 * The report of this application's startup, waiting at most {@code timeout} for its whole
	 * export (spans, flush, histograms and the other consumers, line) to be done once it has
	 * been handed over; {@code null} before ready.
	 */
	@Nullable ServerTimeline awaitReport(Duration timeout) {
		if (!handedOver()) {
			return this.lastReport;
		}
		await(timeout);
		return this.lastReport;
	}

	/**
	 * The report as soon as it exists (its spans made, before their flush and the consumers):
	 * what the endpoint shows, which a slow collector must not hold back; waiting at most
	 * {@code timeout} once it has been handed over; {@code null} before ready.
	 */
	@Nullable ServerTimeline awaitTimeline(Duration timeout) {
		ServerTimeline report = this.lastReport;
		if (report != null || !handedOver()) {
			return report;
		}
		await(timeout);
		return this.lastReport;
	}

	private void await(Duration timeout) {
		try {
			this.reported.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private synchronized boolean handedOver() {
		return this.handedOver;
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
	 * A start that failed after ready (in a ready listener) is still reported, as it closes:
	 * first among the closing listeners, so that the bounded shutdown, which waits for the export
	 * thread, finds the report there.
	 */
	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		reportPending();
		// the platform's stages are not worth the spans: report without them if they are still being read
		if (this.platformStages.complete(null) && this.platform != null) {
			logger.debug("The server closes before its platform's stages were read: reported without them");
		}
		// its spans and histograms exist before what carries them closes (within the shutdown's budget)
		this.export.awaitIdle(this.export.shutdownDeadline(this.shutdownTimeout));
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
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
		return new ServerTimeline(this.serverName, serverType(), timeline.worker(), ProcessHandle.current().pid(),
				traceId, spanId, start, timeline.endNs(), stages, timeline.ignoredEnv(), timeline.steps(), jvm);
	}

	/** Reads the platform's stages on a thread of its own, guarded: a broken read reports without them. */
	private static final class PlatformRead implements Runnable {

		private final ServerStartupReporter reporter;

		private final PlatformPrelude platform;

		private final ServerStartupTimeline timeline;

		PlatformRead(ServerStartupReporter reporter, PlatformPrelude platform, ServerStartupTimeline timeline) {
			this.reporter = reporter;
			this.platform = platform;
			this.timeline = timeline;
		}

		@Override
		public void run() {
			PlatformStages stages = null;
			try {
				stages = this.platform.read(this.timeline.stages());
			}
			catch (Exception | LinkageError ex) {
				logger.debug("Could not read the platform's stages; the startup is reported without them", ex);
			}
			finally {
				this.reporter.platformStages.complete(stages);
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

	/** The report's task on the export thread. */
	private static final class Export implements Runnable {

		private final ServerStartupReporter reporter;

		private final ServerStartupTimeline timeline;

		Export(ServerStartupReporter reporter, ServerStartupTimeline timeline) {
			this.reporter = reporter;
			this.timeline = timeline;
		}

		@Override
		public void run() {
			try {
				this.reporter.export(this.timeline);
			}
			finally {
				this.reporter.reported.countDown();
			}
		}

	}

	/** This host's name for people (the supervisor probes the address the callback came from). */
	private static String hostName() {
		String name = System.getenv("HOSTNAME");
		return (name != null && !name.isBlank()) ? name : "";
	}

	/**
	 * The server's type: configured, else what a Gym supervisor's configuration says (as a
	 * Python server of Gym's reports it); read once, off the startup's path.
	 */
	private @Nullable String serverType() {
		if (!this.typeKnown) {
			String type = this.configuredType;
			if (type == null) {
				try {
					type = GymServerType.of(System.getenv());
				}
				catch (RuntimeException | LinkageError ex) {
					logger.debug("Could not read the Gym configuration's server type", ex);
				}
			}
			this.serverType = type;
			this.typeKnown = true;
		}
		return this.serverType;
	}

	/** The report of this application's startup, or {@code null} before it is ready. */
	@Nullable ServerTimeline lastReport() {
		return this.lastReport;
	}

}
