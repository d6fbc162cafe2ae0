package io.github.startuptelemetry.timeline.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.timeline.JvmCounters;

/**
 * The current thread's CPU time in nanoseconds, or {@link JvmCounters#UNAVAILABLE} where the JVM
 * does not measure it (or not yet: {@link #warmUp()}): what tells a slow bean that worked from one
 * that waited. Never throws.
 */
public final class ThreadCpuClock implements LongSupplier {

	private static final ThreadCpuClock INSTANCE = new ThreadCpuClock();

	private final AtomicBoolean lookingUp = new AtomicBoolean();

	/** The JVM's thread bean once looked up and able to time threads; {@code null} until then or for good. */
	private volatile @Nullable ThreadMXBean threads;

	private ThreadCpuClock() {
	}

	/** The clock (one instance: no lambda to load for it); starts its lookup if {@link #warmUp()} did not. */
	public static LongSupplier source() {
		warmUp();
		return INSTANCE;
	}

	/** Look the thread bean up on a daemon thread, once per JVM; returns at once. */
	public static void warmUp() {
		// not on the startup's thread: the first lookup initialises java.lang.management (about 20 ms
		// of CPU), and the clock is needed only seconds later, once beans are created
		if (INSTANCE.lookingUp.compareAndSet(false, true)) {
			try {
				// a thread of its own, not DaemonThreads: its factory's lambdas would link on the startup's thread
				Thread lookUp = new Thread(new LookUp(), "startup-telemetry-cpu-clock");
				lookUp.setDaemon(true);
				lookUp.start();
			}
			catch (RuntimeException | Error ex) {
				// no thread: the clock stays unavailable, the startup goes on
			}
		}
	}

	@Override
	public long getAsLong() {
		ThreadMXBean threads = this.threads;
		if (threads == null) {
			return JvmCounters.UNAVAILABLE;
		}
		try {
			// about a microsecond: a system call, no allocation
			long ns = threads.getCurrentThreadCpuTime();
			return (ns < 0) ? JvmCounters.UNAVAILABLE : ns;
		}
		catch (RuntimeException ex) {
			return JvmCounters.UNAVAILABLE;
		}
	}

	/** The lookup, as a class: a lambda would cost the startup's thread its linkage. */
	static final class LookUp implements Runnable {

		@Override
		public void run() {
			try {
				ThreadMXBean threads = ManagementFactory.getThreadMXBean();
				if (threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled()) {
					INSTANCE.threads = threads;
				}
			}
			catch (RuntimeException | LinkageError ex) {
				// the clock stays unavailable
			}
		}

	}

}
