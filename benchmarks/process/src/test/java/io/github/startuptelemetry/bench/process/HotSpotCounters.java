package io.github.startuptelemetry.bench.process;

import java.util.Map;

import io.github.startuptelemetry.jvmcache.internal.PerfCounters;

/**
 * A running HotSpot JVM's own counters, read from its {@code hsperfdata} file (what {@code jcmd
 * PerfCounter.print} and {@code jstat} show) without attaching to it, so that reading them costs
 * the measured JVM nothing. Counts such as compilations or classes loaded are evidence the load
 * of a shared box does not blur, unlike CPU times.
 */
final class HotSpotCounters {

	/** Methods compiled by the JIT so far. */
	static final String COMPILES = "sun.ci.totalCompiles";

	/** Classes loaded so far from class files (not from the class data sharing archive). */
	static final String CLASSES = "java.cls.loadedClasses";

	/** Classes loaded from the class data sharing archive so far. */
	static final String SHARED_CLASSES = "java.cls.sharedLoadedClasses";

	/** Threads started so far. */
	static final String THREADS = "java.threads.started";

	private HotSpotCounters() {
	}

	/**
	 * Every counter of type long of the JVM {@code pid}, by name; empty when it keeps none
	 * ({@code -XX:-UsePerfData}) or the file cannot be read. The file's layout is read in one
	 * place, the supervisor's ({@link PerfCounters}, which its JVM caches read the same way).
	 */
	static Map<String, Long> of(long pid) {
		return PerfCounters.of(pid).map(PerfCounters::longs).orElse(Map.of());
	}

}
