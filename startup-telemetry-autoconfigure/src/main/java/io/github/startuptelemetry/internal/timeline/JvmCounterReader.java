package io.github.startuptelemetry.internal.timeline;

import java.lang.management.ClassLoadingMXBean;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.List;
import java.util.function.Supplier;

import io.github.startuptelemetry.timeline.JvmCounters;

/**
 * Reads {@link JvmCounters} from the platform MXBeans, cheaply enough for every stage boundary
 * (about 2 µs, see the JMH benchmark {@code jvmCounters}; the first read in a JVM looks the beans up, which loads a few hundred JDK classes): the beans are looked
 * up once, and a counter the JVM does not offer (no {@code com.sun.management}, JIT timing off)
 * reads {@link JvmCounters#UNAVAILABLE}. Never throws.
 */
public final class JvmCounterReader implements Supplier<JvmCounters> {

	private static final JvmCounterReader INSTANCE = new JvmCounterReader();

	private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();

	private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();

	private final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();

	private final ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();

	private final boolean processCpu = processCpuSupported(this.os);

	private final boolean compileTime = this.compiler != null && this.compiler.isCompilationTimeMonitoringSupported();

	private JvmCounterReader() {
	}

	/** The counters now. */
	public static JvmCounters read() {
		return INSTANCE.now();
	}

	/** The reader as a source of counters (the one instance: no lambda to load for it). */
	public static Supplier<JvmCounters> source() {
		return INSTANCE;
	}

	/** The counters now; the same as {@link #read()}. */
	@Override
	public JvmCounters get() {
		return now();
	}

	private JvmCounters now() {
		long gcMs = 0;
		long gcCount = 0;
		for (GarbageCollectorMXBean collector : this.collectors) {
			long time = collector.getCollectionTime();
			long count = collector.getCollectionCount();
			gcMs = (time < 0 || gcMs < 0) ? JvmCounters.UNAVAILABLE : gcMs + time;
			gcCount = (count < 0 || gcCount < 0) ? JvmCounters.UNAVAILABLE : gcCount + count;
		}
		return new JvmCounters(cpuNs(), gcMs, gcCount,
				this.compileTime ? this.compiler.getTotalCompilationTime() : JvmCounters.UNAVAILABLE,
				this.classes.getTotalLoadedClassCount());
	}

	private long cpuNs() {
		if (!this.processCpu) {
			return JvmCounters.UNAVAILABLE;
		}
		long ns = ((com.sun.management.OperatingSystemMXBean) this.os).getProcessCpuTime();
		return (ns < 0) ? JvmCounters.UNAVAILABLE : ns;
	}

	/** Whether the JDK's extension (module {@code jdk.management}) offers the process CPU time. */
	private static boolean processCpuSupported(OperatingSystemMXBean os) {
		try {
			return os instanceof com.sun.management.OperatingSystemMXBean;
		}
		catch (LinkageError ex) {
			return false;
		}
	}

}
