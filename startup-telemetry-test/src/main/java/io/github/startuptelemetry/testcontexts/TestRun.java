package io.github.startuptelemetry.testcontexts;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.MergedContextConfiguration;

import io.github.startuptelemetry.internal.HostName;
import io.github.startuptelemetry.testcontexts.internal.ReportDirectory;
import io.github.startuptelemetry.testcontexts.internal.TestContextReport;
import io.github.startuptelemetry.testcontexts.internal.TestJvm;
import io.github.startuptelemetry.testcontexts.internal.TestReport;
import io.github.startuptelemetry.testcontexts.internal.TestReportFiles;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.internal.ProcessTimeline;
import io.github.startuptelemetry.timeline.internal.WallClock;

/**
 * This JVM's test run: every application context the TestContext framework created in it (seen
 * by {@link TestContextTiming}), the test classes that used each, and the report at the run's end
 * ({@link TestContextsSessionListener}, else the JVM's shutdown). One per JVM, as the context
 * cache is.
 */
final class TestRun {

	/**
	 * Nothing but this, created with the first context: neither logging, JMX nor the report's
	 * classes are loaded on a test's time (they are at the run's end).
	 */
	private static final TestRun JVM = new TestRun();

	private final List<ContextRecord> records = new ArrayList<>();

	/** Test classes whose context this run never saw created (their key has no customizer of ours). */
	private final List<String> unseen = new ArrayList<>();

	private volatile @Nullable String currentTestClass;

	/** Changes since the report was last written. */
	private int changes;

	private boolean hookInstalled;

	private TestRun() {
	}

	/** This JVM's. */
	static TestRun jvm() {
		return JVM;
	}

	/**
	 * A context is being created for {@code config}: record it, hand its startup to it rather
	 * than to the server's own outputs, and listen to what happens to it.
	 */
	void created(ConfigurableApplicationContext context, MergedContextConfiguration config) {
		ContextRecord record;
		synchronized (this) {
			record = new ContextRecord(this.records.size() + 1, config, context, WallClock.nowNs());
			this.records.add(record);
			this.changes++;
			installShutdownHook();
		}
		// a lambda, not the record: Spring reflects on every singleton's methods for @EventListener,
		// which would load the report's classes (in the record's signatures) on the test's time
		Consumer<ServerTimeline> startup = record::accept;
		context.getBeanFactory().registerSingleton(ProcessTimeline.TEST_RUN_BEAN_NAME, startup);
		context.addApplicationListener(new ContextEvents(record, this::currentTestClass, this::changed));
	}

	void classStarts(Class<?> testClass) {
		this.currentTestClass = TypeNames.simple(testClass);
	}

	/** The test class that is running (for a context it dirties), or {@code null}. */
	@Nullable String currentTestClass() {
		return this.currentTestClass;
	}

	/**
	 * A test class is done with the context of {@code config}: the latest created of that
	 * configuration was its (one created since its start, or the cached one it found).
	 */
	synchronized void classDone(Class<?> testClass, @Nullable MergedContextConfiguration config) {
		if (config == null) {
			return;
		}
		String name = TypeNames.simple(testClass);
		for (int i = this.records.size() - 1; i >= 0; i--) {
			ContextRecord record = this.records.get(i);
			if (record.config().equals(config)) {
				record.usedBy(name);
				this.changes++;
				return;
			}
		}
		this.unseen.add(name);
	}

	synchronized @Nullable ContextRecord recordOf(ApplicationContext context) {
		for (int i = this.records.size() - 1; i >= 0; i--) {
			if (this.records.get(i).is(context)) {
				return this.records.get(i);
			}
		}
		return null;
	}

	/** A context failed to load (Spring's failure processor, with the load's own exception). */
	void failed(ApplicationContext context, Throwable failure) {
		ContextRecord record = recordOf(context);
		if (record != null) {
			record.failed(describe(failure), WallClock.nowNs());
			changed();
		}
	}

	synchronized void changed() {
		this.changes++;
	}

	/**
	 * Report what is new since the last report: this JVM's part, the run's merged files, its
	 * trace, the console summary. Nothing without a context (the build tool's own scan of the
	 * test classes opens a session too). Never fails the run.
	 */
	void finish() {
		TestReport report;
		synchronized (this) {
			if (this.records.isEmpty() || this.changes == 0) {
				return;
			}
			this.changes = 0;
			report = report();
		}
		try {
			TestReportFiles.finish(report, ReportDirectory.resolve(), System.out);
		}
		catch (Exception | LinkageError ex) {
			Log logger = LogFactory.getLog(TestRun.class);
			logger.warn("Could not write the test contexts' report: " + ex);
			logger.debug("The test contexts' report", ex);
		}
	}

	/** This JVM's part of the report, as it stands. */
	synchronized TestReport report() {
		long pid = ProcessHandle.current().pid();
		List<TestContextReport> contexts = WhyNew.explain(this.records, pid);
		long firstContext = contexts.isEmpty() ? -1 : contexts.get(0).startNs();
		int testClasses = (int) contexts.stream()
			.flatMap((context) -> context.testClasses().stream())
			.distinct()
			.count() + (int) this.unseen.stream().distinct().count();
		long jvmStartNs = ManagementFactory.getRuntimeMXBean().getStartTime() * 1_000_000L;
		TestJvm jvm = new TestJvm(pid, jvmStartNs, firstContext, WallClock.nowNs(), testClasses, null);
		// the kernel's name, no lookup: a slow DNS must not hold the test JVM's exit
		return new TestReport(ReportDirectory.runId(), HostName.local(), List.of(jvm), contexts);
	}

	/** The test classes whose context this run did not see created. */
	synchronized List<String> unseen() {
		return List.copyOf(this.unseen);
	}

	/** Where no launcher session ends the run (another engine, a plain main): the JVM's end. */
	private void installShutdownHook() {
		if (!this.hookInstalled) {
			this.hookInstalled = true;
			try {
				Runtime.getRuntime().addShutdownHook(new Thread(this::finish, "startup-telemetry-test-report"));
			}
			catch (IllegalStateException ex) {
				// shutting down already
			}
		}
	}

	/** The failure's innermost cause, one line: what a developer fixes. */
	static String describe(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		String message = (cause.getMessage() != null) ? cause.getMessage().lines().findFirst().orElse("") : "";
		String line = cause.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
		return (line.length() > 300) ? line.substring(0, 299) + "…" : line;
	}

}
