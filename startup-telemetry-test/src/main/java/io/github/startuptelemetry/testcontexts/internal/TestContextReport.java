package io.github.startuptelemetry.testcontexts.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * One application context a test JVM created: where its startup went, which test classes used
 * it, why it was new.
 *
 * @param name its configuration in short and a hash of the whole: the same run after run, so that
 * the regression gate compares it with itself (a configuration created again in its JVM has
 * {@code (again, #n)} after it)
 * @param number its number in its JVM, 1 for the first created
 * @param pid its JVM's process id
 * @param boot whether Spring Boot started it ({@code @SpringBootTest} and the slices)
 * @param applicationContext the context's class
 * @param contextLoader the loader's class
 * @param outcome {@code ready}, or {@code error} when it failed to start
 * @param error what failed it, or {@code null}
 * @param testClasses the test classes that used it, the one that created it first
 * @param why why it was created rather than taken from the cache
 * @param closedBy what closed it before the run ended ({@code @DirtiesContext in X}, an eviction),
 * or {@code null}
 * @param pauses how often it was paused while another was used
 * @param configuration its configuration, aspect by aspect
 * @param timeline its startup: stages (from Boot's start to ready, or the context's creation to
 * its refresh without Boot), slow beans, JVM counters
 */
public record TestContextReport(String name, int number, long pid, boolean boot, String applicationContext,
		String contextLoader, String outcome, @Nullable String error, List<String> testClasses, Why why,
		@Nullable String closedBy, int pauses, Map<String, List<String>> configuration, ServerTimeline timeline) {

	public TestContextReport {
		testClasses = List.copyOf(testClasses);
		Map<String, List<String>> copy = new LinkedHashMap<>();
		configuration.forEach((aspect, values) -> copy.put(aspect, List.copyOf(values)));
		configuration = Collections.unmodifiableMap(copy);
	}

	public long startNs() {
		return this.timeline.startEpochNs();
	}

	public long readyNs() {
		return this.timeline.readyEpochNs();
	}

	/** Its startup: its start to ready (or to its failure). */
	public long startupNs() {
		return readyNs() - startNs();
	}

	public boolean ready() {
		return StartupOutcome.READY.equals(this.outcome);
	}

	/** The test class that created it, or an empty string when none was seen. */
	public String creator() {
		return this.testClasses.isEmpty() ? "" : this.testClasses.get(0);
	}

	/** {@code #3}, or {@code #3 (JVM 1234)} when the report holds several JVMs. */
	public String reference(boolean withJvm) {
		return "#" + this.number + (withJvm ? " (JVM " + this.pid + ")" : "");
	}

	public TestContextReport withWhy(Why why) {
		return new TestContextReport(this.name, this.number, this.pid, this.boot, this.applicationContext,
				this.contextLoader, this.outcome, this.error, this.testClasses, why, this.closedBy, this.pauses,
				this.configuration, this.timeline);
	}

}
