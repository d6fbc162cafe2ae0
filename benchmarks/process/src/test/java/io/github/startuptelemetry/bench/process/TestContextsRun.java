package io.github.startuptelemetry.bench.process;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;

import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * The child JVM of {@link TestContextCostBenchmark}: runs the named test classes through a
 * launcher session, as Surefire and Gradle do, and prints how long running them took (the
 * contexts' starts) and how long the session's close took (where startup-telemetry-test writes
 * its report), in wall and test-thread CPU time, and when the tests ended (where
 * {@link TestContextAttribution} splits its recording).
 */
public final class TestContextsRun {

	private TestContextsRun() {
	}

	public static void main(String[] args) {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		SummaryGeneratingListener summary = new SummaryGeneratingListener();
		long start = System.nanoTime();
		long startCpu = threads.getCurrentThreadCpuTime();
		long executed;
		long executedCpu;
		long executedEpochMs;
		try (LauncherSession session = LauncherFactory.openSession()) {
			List<ClassSelector> classes = Arrays.stream(args).map((name) -> selectClass(name)).toList();
			session.getLauncher().execute(request().selectors(classes).build(), summary);
			executed = System.nanoTime();
			executedCpu = threads.getCurrentThreadCpuTime();
			executedEpochMs = System.currentTimeMillis();
		}
		long end = System.nanoTime();
		long endCpu = threads.getCurrentThreadCpuTime();
		System.out.printf("tests=%d failed=%d executeNs=%d closeNs=%d executeCpuNs=%d closeCpuNs=%d executedEpochMs=%d%n",
				summary.getSummary().getTestsSucceededCount(), summary.getSummary().getTotalFailureCount(),
				executed - start, end - executed, executedCpu - startCpu, endCpu - executedCpu, executedEpochMs);
	}

}
