package io.github.startuptelemetry.timeline.internal;

import java.io.FileInputStream;
import java.io.IOException;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.internal.PerfData;
import io.github.startuptelemetry.timeline.JvmCounters;

/**
 * Reads {@link JvmCounters} cheaply enough for every stage boundary, the first included: from the
 * JVM's own performance counters ({@link PerfData}, mapped once) and {@code /proc/self/stat}, with
 * the platform MXBeans only where neither exists. Never throws.
 */
public final class JvmCounterReader implements Supplier<JvmCounters> {

	/** The Linux ABI's fixed clock tick for {@code /proc} times ({@code USER_HZ}). */
	private static final long NANOS_PER_TICK = 10_000_000L;

	private static final JvmCounterReader INSTANCE = new JvmCounterReader(ownCounterFile(), Path.of("/proc/self/stat"));

	/** The JVM's own counters, or {@code null} where it keeps no file. */
	private final @Nullable OwnCounters own;

	/** {@code /proc/self/stat}, or {@code null} without it (then the operating-system bean). */
	private final @Nullable Path procStat;

	private volatile @Nullable Beans beans;

	/**
	 * @param perfFile the JVM's counter file, or {@code null} for none
	 * @param procStat {@code /proc/self/stat}
	 */
	JvmCounterReader(@Nullable Path perfFile, Path procStat) {
		this.own = (perfFile != null) ? OwnCounters.map(perfFile) : null;
		this.procStat = (procCpuNs(procStat) >= 0) ? procStat : null;
	}

	private static @Nullable Path ownCounterFile() {
		try {
			return PerfData.file(ProcessHandle.current().pid());
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/** The counters now. */
	public static JvmCounters read() {
		return INSTANCE.now();
	}

	/** The reader as a source of counters (the one instance: no lambda to load for it). */
	public static Supplier<JvmCounters> source() {
		return INSTANCE;
	}

	/**
	 * When the JVM started, in epoch milliseconds: what {@code RuntimeMXBean.getStartTime()}
	 * says (the JVM's {@code sun.rt.vmInitDoneTime}), read without initialising the management beans.
	 */
	public static long jvmStartMillis() {
		return INSTANCE.startMillis();
	}

	/** The counters now; the same as {@link #read()}. */
	@Override
	public JvmCounters get() {
		return now();
	}

	JvmCounters now() {
		long cpuNs = cpuNs();
		OwnCounters own = this.own;
		if (own != null) {
			return new JvmCounters(cpuNs, own.gcMs(), own.gcCount(), own.jitMs(), own.classes());
		}
		return beans().counters(cpuNs);
	}

	long startMillis() {
		long start = (this.own != null) ? this.own.startMillis() : -1;
		return (start > 0) ? start : ManagementFactory.getRuntimeMXBean().getStartTime();
	}

	/** Whether the counters come from the JVM's own file (else from the MXBeans). */
	boolean fromCounterFile() {
		return this.own != null;
	}

	private long cpuNs() {
		Path procStat = this.procStat;
		long ns = (procStat != null) ? procCpuNs(procStat) : -1;
		return (ns >= 0) ? ns : beans().processCpuNs();
	}

	private Beans beans() {
		Beans beans = this.beans;
		if (beans == null) {
			beans = new Beans();
			this.beans = beans;
		}
		return beans;
	}

	/**
	 * utime + stime of {@code /proc/self/stat} (fields 14 and 15; counted after the command's
	 * closing parenthesis, since the command itself may hold spaces), or -1.
	 */
	static long procCpuNs(Path procStat) {
		try {
			// a FileInputStream, not Files.readAllBytes: its channel classes are not loaded yet at the first read
			String stat;
			try (FileInputStream in = new FileInputStream(procStat.toFile())) {
				stat = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
			}
			int field = 0;
			int i = stat.lastIndexOf(')') + 2;
			long utime = -1;
			while (i > 1 && i < stat.length()) {
				int end = stat.indexOf(' ', i);
				if (end < 0) {
					end = stat.length();
				}
				// after ')': state is field 0, utime field 11, stime field 12
				if (field == 11) {
					utime = Long.parseLong(stat, i, end, 10);
				}
				else if (field == 12) {
					return (utime >= 0) ? (utime + Long.parseLong(stat, i, end, 10)) * NANOS_PER_TICK : -1;
				}
				field++;
				i = end + 1;
			}
			return -1;
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	/** The JVM's own counter file, mapped, and where in it the counters lie. */
	private static final class OwnCounters {

		private final PerfData data;

		/** Ticks of the JVM's high-resolution timer per second: the unit of its times. */
		private final long frequency;

		private final List<String> gcTimes = new ArrayList<>();

		private final List<String> gcCounts = new ArrayList<>();

		private OwnCounters(PerfData data, long frequency) {
			this.data = data;
			this.frequency = frequency;
			for (int i = 0; data.has("sun.gc.collector." + i + ".time"); i++) {
				this.gcTimes.add("sun.gc.collector." + i + ".time");
				this.gcCounts.add("sun.gc.collector." + i + ".invocations");
			}
		}

		/** Our JVM's counters, or {@code null} when it keeps no usable file. */
		static @Nullable OwnCounters map(Path file) {
			try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
				long size = channel.size();
				if (size > PerfData.MAX_SIZE) {
					return null;
				}
				// the mapping outlives the channel; the JVM updates the counters in place
				PerfData data = PerfData.of(channel.map(FileChannel.MapMode.READ_ONLY, 0, size));
				long frequency = (data != null) ? data.get("sun.os.hrt.frequency") : -1;
				if (data == null || frequency <= 0 || !data.has("java.cls.loadedClasses")) {
					return null;
				}
				return new OwnCounters(data, frequency);
			}
			catch (IOException | RuntimeException ex) {
				return null;
			}
		}

		long gcMs() {
			long ticks = sum(this.gcTimes);
			return (ticks < 0) ? ticks : ticks * 1000 / this.frequency;
		}

		long gcCount() {
			return sum(this.gcCounts);
		}

		/** The counters' sum, each taken as at least 0; {@link JvmCounters#UNAVAILABLE} for none. */
		private long sum(List<String> names) {
			if (names.isEmpty()) {
				return JvmCounters.UNAVAILABLE;
			}
			long sum = 0;
			for (String name : names) {
				sum += Math.max(0, this.data.get(name));
			}
			return sum;
		}

		long jitMs() {
			long ticks = this.data.get("java.ci.totalTime");
			return (ticks < 0) ? JvmCounters.UNAVAILABLE : ticks * 1000 / this.frequency;
		}

		long classes() {
			long loaded = this.data.get("java.cls.loadedClasses");
			long shared = this.data.get("java.cls.sharedLoadedClasses");
			return (loaded < 0) ? JvmCounters.UNAVAILABLE : loaded + Math.max(0, shared);
		}

		long startMillis() {
			return this.data.get("sun.rt.vmInitDoneTime");
		}

	}

	/**
	 * The platform MXBeans: the fallback, looked up on first use only. A counter the JVM does
	 * not offer (no {@code com.sun.management}, JIT timing off) reads {@link JvmCounters#UNAVAILABLE}.
	 */
	private static final class Beans {

		private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();

		private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();

		private final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();

		private final ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();

		private final boolean processCpu = processCpuSupported(this.os);

		private final boolean compileTime = this.compiler != null && this.compiler.isCompilationTimeMonitoringSupported();

		JvmCounters counters(long cpuNs) {
			long gcMs = 0;
			long gcCount = 0;
			for (GarbageCollectorMXBean collector : this.collectors) {
				long time = collector.getCollectionTime();
				long count = collector.getCollectionCount();
				gcMs = (time < 0 || gcMs < 0) ? JvmCounters.UNAVAILABLE : gcMs + time;
				gcCount = (count < 0 || gcCount < 0) ? JvmCounters.UNAVAILABLE : gcCount + count;
			}
			return new JvmCounters(cpuNs, gcMs, gcCount,
					this.compileTime ? this.compiler.getTotalCompilationTime() : JvmCounters.UNAVAILABLE,
					this.classes.getTotalLoadedClassCount());
		}

		long processCpuNs() {
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

}
