package io.github.startuptelemetry.server;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.event.ApplicationContextInitializedEvent;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.autoconfigure.internal.EarlyTelemetryProperties;
import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;
import io.github.startuptelemetry.internal.BootLine;
import io.github.startuptelemetry.internal.Guarded;
import io.github.startuptelemetry.timeline.internal.JvmCounterReader;
import io.github.startuptelemetry.timeline.internal.ProcessTimeline;
import io.github.startuptelemetry.timeline.internal.SpawnHandOff;
import io.github.startuptelemetry.timeline.internal.ThreadCpuClock;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

/**
 * Times a server's startup from Spring Boot's lifecycle events, as handed on by
 * {@link ServerStartupListener}, observing only, and hands the timeline to the
 * {@link ServerStartupReporter} at {@link ApplicationReadyEvent} (in a test's context, to its test
 * run instead: {@link ProcessTimeline#TEST_RUN_BEAN_NAME}). Every event is handled inside a
 * guard; a failure turns the timeline off for the rest of this startup.
 */
final class ServerStartupRecorder {

	private static final Log logger = LogFactory.getLog(ServerStartupRecorder.class);

	/**
	 * The JVM's prelude: the time before the first Spring application in a JVM (the env stages
	 * before the JVM existed, the JVM start and {@code main} up to {@code SpringApplication.run})
	 * belongs to that first application only; a second application in the same JVM (a test
	 * suite, a child application) starts its timeline at its own {@code ApplicationStartingEvent}.
	 * That makes this per-JVM state by nature, not per application or per context, hence the
	 * static: one owner per JVM, decided by who asks first. (Here, not in a class of its own:
	 * one class fewer to load in every server.)
	 */
	private static final AtomicBoolean jvmPreludeOwned = new AtomicBoolean();

	private long startingNs;

	private boolean firstInJvm;

	/** {@code telemetry.startup.counters}, as the process environment says at the start. */
	private boolean counters;

	private @Nullable JvmCounters startingCounters;

	private long environmentPreparedNs;

	private boolean environmentPrepared;

	private @Nullable JvmCounters environmentPreparedCounters;

	private boolean begun;

	private @Nullable StartupClassPreload preload;

	private volatile @Nullable ServerStartupTimeline timeline;

	private @Nullable BeanSpanRecorder beanSpans;

	private @Nullable ApplicationContext context;

	private boolean webServerMarked;

	/** A test run's, in a test's context: it takes the startup in place of the reporter ({@link #begin}). */
	private @Nullable Consumer<ServerTimeline> testRun;

	/** Ready is still to come: let a ready callback write what of its body is final by now. */
	private void draftCallback(ApplicationContext context) {
		if (this.timeline.callback() != null) {
			ServerStartupReporter reporter = context.getBeanProvider(ServerStartupReporter.class).getIfAvailable();
			if (reporter != null) {
				reporter.draftCallback(this.timeline);
			}
		}
	}

	void onApplicationEvent(ApplicationEvent event) {
		if (this.timeline == null && !(event instanceof ApplicationStartingEvent)
				&& !(event instanceof ApplicationEnvironmentPreparedEvent)
				&& !(event instanceof ApplicationContextInitializedEvent)) {
			return;
		}
		if (!Guarded.run(logger, "time this startup; its timeline is off from here", () -> handle(event))) {
			this.timeline = null;
		}
	}

	private void handle(ApplicationEvent event) {
		if (event instanceof ApplicationStartingEvent) {
			this.startingNs = WallClock.nowNs();
			this.firstInJvm = jvmPreludeOwned.compareAndSet(false, true);
			// read here, not once the switch is known: this is where main_start ends
			this.counters = TelemetrySwitch.flagInEnv(TelemetryProperties.STARTUP_COUNTERS, true);
			this.startingCounters = this.counters ? JvmCounterReader.read() : null;
			if (this.counters) {
				// the bean steps' thread CPU clock is needed from refresh on: looked up meanwhile, off this thread
				ThreadCpuClock.warmUp();
			}
			if (TelemetrySwitch.flagInEnv(TelemetryProperties.STARTUP_PRELOAD, true)) {
				// what the startup asks for later, loaded meanwhile on a thread of its own
				this.preload = StartupClassPreload.start(ServerStartupRecorder.class.getClassLoader());
			}
		}
		else if (event instanceof ApplicationEnvironmentPreparedEvent) {
			// the stage ends here; whether there is a timeline at all is only known later (this listener
			// runs first, to time main_start, before Boot's own has loaded application.yml)
			this.environmentPreparedNs = WallClock.nowNs();
			this.environmentPrepared = true;
			this.environmentPreparedCounters = this.counters ? JvmCounterReader.read() : null;
		}
		else if (event instanceof ApplicationContextInitializedEvent initialized && !this.begun) {
			this.begun = true;
			begin(initialized.getApplicationContext());
		}
		else if (event instanceof ApplicationPreparedEvent prepared) {
			this.timeline.mark(StageNames.CONTEXT_PREPARED);
			if (this.beanSpans != null) {
				this.beanSpans.open();
			}
			this.context = prepared.getApplicationContext();
			prepared.getApplicationContext()
				.getBeanFactory()
				.registerSingleton(ProcessTimeline.BEAN_NAME, new ProcessTimeline(this.timeline, this.timeline::claim));
			registerBeansInstantiatedMarker(prepared.getApplicationContext());
		}
		else if (!this.webServerMarked && BootLine.isWebServerInitialized(event.getClass()) && ownContext(event)) {
			this.webServerMarked = true;
			this.timeline.port(WebServerEvents.port(event));
			this.timeline.mark(StageNames.WEB_SERVER_STARTED);
		}
		else if (event instanceof ContextRefreshedEvent refreshed && refreshed.getApplicationContext() == this.context) {
			this.timeline.mark(StageNames.CONTEXT_REFRESHED);
			draftCallback(refreshed.getApplicationContext());
		}
		else if (event instanceof ApplicationStartedEvent started) {
			this.timeline.mark(StageNames.APPLICATION_STARTED);
			draftCallback(started.getApplicationContext());
		}
		else if (event instanceof ApplicationReadyEvent ready) {
			ServerStartupTimeline done = this.timeline;
			this.timeline = null;
			done.mark(StageNames.APPLICATION_READY);
			// reporting is a claim too; a supervisor that claimed the timeline did so during refresh
			if (!done.claim()) {
				return;
			}
			if (this.testRun != null) {
				// a test's context: its run reports every context at its end, instead of each on its own
				this.testRun.accept(testTimeline(done, ready.getApplicationContext()));
				return;
			}
			// reported once readiness has flipped (ReadyReportRunListener), not while it waits for this
			ServerStartupReporter reporter = ready.getApplicationContext()
				.getBeanProvider(ServerStartupReporter.class)
				.getIfAvailable();
			if (reporter != null) {
				reporter.reportLater(done);
			}
		}
		else if (event instanceof ApplicationFailedEvent failed) {
			ServerStartupTimeline done = this.timeline;
			this.timeline = null;
			this.beanSpans = null;
			// a supervisor that claimed the timeline reports the failure itself, in gym.startup
			if (done != null && failed.getApplicationContext() != null && done.claim()) {
				if (this.testRun != null) {
					// the stage it failed in, as the failure's own report closes it
					done.mark(FailedStartup.failedStage(done.lastStageName(), failed.getApplicationContext()),
							WallClock.nowNs());
					this.testRun.accept(testTimeline(done, failed.getApplicationContext()));
				}
				else {
					FailedStartup.report(done, failed);
				}
			}
		}
	}

	/**
	 * Start the timeline once the configuration is known. The switch is read here, from the
	 * whole environment ({@code application.yml} included), because this is the first event
	 * that sees it and still before any bean definition is loaded: {@link ServerStartupListener}
	 * could only see the process environment, and the auto-configurations' condition comes too
	 * late for what is installed here (the timeline, the bean-span wrapper).
	 */
	private void begin(ConfigurableApplicationContext context) {
		ConfigurableEnvironment environment = context.getEnvironment();
		if (!this.environmentPrepared || !TelemetrySwitch.enabled(environment)) {
			// off in application.yml: what is left to load, this startup never asks for
			cancelPreload();
			return;
		}
		// telemetry.startup only: the whole tree is bound again, by the context
		TelemetryProperties.Startup startup = new TelemetryProperties.Startup();
		startup = EarlyTelemetryProperties.bind(environment, TelemetryProperties.STARTUP, Bindable.ofInstance(startup),
				startup, logger);
		if (!startup.isPreload()) {
			cancelPreload();
		}
		// off in application.yml: the counters read so far are dropped, none is read from here on
		JvmCounters starting = startup.isCounters() ? this.startingCounters : null;
		ServerStartupTimeline timeline;
		if (this.firstInJvm) {
			timeline = ServerStartupTimeline.fromJvmStart(SpawnHandOff.fromSystem(), startup.isWorker(),
					this.startingNs, starting, System.getenv());
		}
		else {
			timeline = new ServerStartupTimeline(this.startingNs, startup.isWorker(), null, List.of());
			if (starting != null) {
				timeline.countJvm(JvmCounterReader.source(), starting);
			}
		}
		timeline.mark(StageNames.ENVIRONMENT_PREPARED, this.environmentPreparedNs, this.environmentPreparedCounters);
		this.timeline = timeline;
		this.testRun = testRun(context);
		this.beanSpans = installBeanSpans(startup.getBeanSpans(), startup.isCounters(), context);
	}

	/**
	 * A test run's consumer of this startup ({@link ProcessTimeline#TEST_RUN_BEAN_NAME}), or
	 * {@code null}: registered by then, as a test's context customizers run before this event.
	 */
	@SuppressWarnings("unchecked")
	private static @Nullable Consumer<ServerTimeline> testRun(ConfigurableApplicationContext context) {
		Object testRun = context.getBeanFactory().getSingleton(ProcessTimeline.TEST_RUN_BEAN_NAME);
		return (testRun instanceof Consumer<?> consumer) ? (Consumer<ServerTimeline>) consumer : null;
	}

	/** The startup as a test run takes it: its stages so far and its slow beans, named as its context. */
	private static ServerTimeline testTimeline(ServerStartupTimeline timeline, ApplicationContext context) {
		List<Stage> stages = timeline.stages();
		long start = stages.isEmpty() ? timeline.startNs() : stages.get(0).startNs();
		return new ServerTimeline(String.valueOf(context.getId()), null, timeline.worker(),
				ProcessHandle.current().pid(), null, null, start, timeline.endNs(), stages, timeline.ignoredEnv(),
				timeline.steps());
	}

	private void cancelPreload() {
		if (this.preload != null) {
			this.preload.cancel();
			this.preload = null;
		}
	}

	/** Wrap the context's {@code ApplicationStartup}, unless bean spans are off. */
	private static @Nullable BeanSpanRecorder installBeanSpans(TelemetryProperties.BeanSpans beanSpans,
			boolean counters, ConfigurableApplicationContext context) {
		if (!beanSpans.isEnabled()) {
			return null;
		}
		BeanSpanRecorder recorder = new BeanSpanRecorder(beanSpans.getThreshold(), counters);
		context.setApplicationStartup(recorder.wrap(context.getApplicationStartup()));
		return recorder;
	}

	private boolean ownContext(ApplicationEvent event) {
		return BootLine.webServerContext(event) == this.context;
	}

	/**
	 * "All singletons instantiated" is the start of the first lifecycle phase: after every
	 * singleton and its {@code afterSingletonsInstantiated}, before the web server starts. A
	 * ready singleton, as the timeline's handle is: a bean definition with an instance supplier
	 * cost a lambda and two of Spring's classes only this loaded.
	 */
	private void registerBeansInstantiatedMarker(ConfigurableApplicationContext context) {
		if (context instanceof GenericApplicationContext generic) {
			ConfigurableListableBeanFactory beanFactory = generic.getBeanFactory();
			beanFactory.registerSingleton("startupTelemetryBeansInstantiatedMarker",
					new BeansInstantiatedMarker(this.timeline, this.beanSpans, beanFactory));
		}
	}

	/** Isolates the optional web-server type, so that its absence cannot break the listener. */
	private static final class WebServerEvents {

		/** The event's source is the web server on every Boot line, under the same name on each. */
		static int port(ApplicationEvent event) {
			return ((org.springframework.boot.web.server.WebServer) event.getSource()).getPort();
		}

	}

}
