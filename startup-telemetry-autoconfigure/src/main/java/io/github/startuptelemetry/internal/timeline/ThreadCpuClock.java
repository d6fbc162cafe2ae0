package io.github.startuptelemetry.internal.timeline;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;

import io.github.startuptelemetry.timeline.JvmCounters;

/**
 * The current thread's CPU time in nanoseconds, or {@link JvmCounters#UNAVAILABLE} where the
 * JVM does not measure it: what tells a slow bean that worked from one that waited (a sleep,
 * I/O, a remote call). About a microsecond a read (a system call, no allocation); read at the
 * start of every followed step and at the end of the slow ones only. Never throws.
 */
public final class ThreadCpuClock implements LongSupplier {

	private static final ThreadCpuClock INSTANCE = new ThreadCpuClock();

	private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private final boolean supported = supported(this.threads);

	private ThreadCpuClock() {
	}

	/** The clock (one instance: no lambda to load for it). */
	public static LongSupplier source() {
		return INSTANCE;
	}

	@Override
	public long getAsLong() {
		if (!this.supported) {
			return JvmCounters.UNAVAILABLE;
		}
		try {
			long ns = this.threads.getCurrentThreadCpuTime();
			return (ns < 0) ? JvmCounters.UNAVAILABLE : ns;
		}
		catch (RuntimeException ex) {
			return JvmCounters.UNAVAILABLE;
		}
	}

	private static boolean supported(ThreadMXBean threads) {
		try {
			return threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

}
