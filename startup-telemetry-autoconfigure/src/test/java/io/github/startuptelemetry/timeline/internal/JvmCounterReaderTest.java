package io.github.startuptelemetry.timeline.internal;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.internal.PerfData;
import io.github.startuptelemetry.timeline.JvmCounters;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counters from the JVM's own hsperfdata file and {@code /proc} say what the management
 * beans say (read before and after, so each value is bracketed), and the beans stand in where
 * there is neither.
 */
class JvmCounterReaderTest {

	private static final long TICK_NS = 10_000_000L;

	@TempDir
	Path tmp;

	private final JvmCounterReader own = new JvmCounterReader(PerfData.file(ProcessHandle.current().pid()),
			Path.of("/proc/self/stat"));

	@Test
	void theJvmsOwnCountersAgreeWithItsManagementBeans() {
		assertThat(this.own.fromCounterFile()).as("this JVM keeps an hsperfdata file").isTrue();
		long classesBefore = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
		long jitBefore = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
		long cpuBefore = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
		JvmCounters counters = this.own.now();
		long classesAfter = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
		long jitAfter = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
		long cpuAfter = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
		assertThat(counters.classesLoaded()).isBetween(classesBefore, classesAfter);
		// the same counter, in ticks here and in whole milliseconds there
		assertThat(counters.jitMs()).isBetween(jitBefore - 1, jitAfter + 1);
		// both in the OS's 10 ms steps
		assertThat(counters.cpuNs()).isBetween(cpuBefore - TICK_NS, cpuAfter + TICK_NS);
		long beanCollections = 0;
		for (var collector : ManagementFactory.getGarbageCollectorMXBeans()) {
			beanCollections += collector.getCollectionCount();
		}
		// every pause the beans count, and with G1 on JDK 17 its remark and cleanup pauses too
		assertThat(counters.gcCount()).isGreaterThanOrEqualTo(beanCollections);
		assertThat(counters.gcMs()).isNotNegative();
	}

	@Test
	void countersMoveForwardAsTheJvmWorks() {
		JvmCounters before = this.own.now();
		for (int i = 0; i < 50; i++) {
			new ClassLoaderProbe(i).load();
		}
		JvmCounters after = this.own.now();
		assertThat(after.since(before).classesLoaded()).isGreaterThanOrEqualTo(50);
	}

	@Test
	void theJvmsStartIsTheRuntimeBeansStartTime() {
		assertThat(JvmCounterReader.jvmStartMillis()).isEqualTo(ManagementFactory.getRuntimeMXBean().getStartTime());
	}

	@Test
	void withoutACounterFileOrProcTheManagementBeansStandIn() throws Exception {
		Path notAFile = this.tmp.resolve("missing");
		Path garbage = Files.write(this.tmp.resolve("garbage"), new byte[64]);
		for (Path perf : new Path[] { null, notAFile, garbage }) {
			JvmCounterReader reader = new JvmCounterReader(perf, notAFile);
			assertThat(reader.fromCounterFile()).isFalse();
			JvmCounters counters = reader.now();
			assertThat(counters.classesLoaded()).isPositive();
			assertThat(counters.cpuNs()).isPositive();
			assertThat(counters.gcCount()).isNotNegative();
			assertThat(reader.startMillis()).isEqualTo(ManagementFactory.getRuntimeMXBean().getStartTime());
		}
	}

	@Test
	void procStatIsReadAfterTheCommandWhateverItHolds() throws Exception {
		// utime 250 and stime 50 ticks: fields 14 and 15, the command holding spaces and parentheses
		Path stat = Files.writeString(this.tmp.resolve("stat"),
				"4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 30 0 12345 1000 100\n");
		assertThat(JvmCounterReader.procCpuNs(stat)).isEqualTo(300 * TICK_NS);
		assertThat(JvmCounterReader.procCpuNs(Files.writeString(this.tmp.resolve("short"), "4242 (x) S 1 2"))).isEqualTo(-1);
		assertThat(JvmCounterReader.procCpuNs(Files.writeString(this.tmp.resolve("bad"),
				"4242 (x) S 1 4242 4242 0 -1 4194560 100 0 0 0 abc 50 0"))).isEqualTo(-1);
		assertThat(JvmCounterReader.procCpuNs(this.tmp.resolve("none"))).isEqualTo(-1);
	}

	@Test
	void theThreadClockReadsOnceItsBeanIsLookedUp() {
		new ThreadCpuClock.LookUp().run();
		long first = ThreadCpuClock.source().getAsLong();
		assertThat(first).isPositive();
		// work until the thread's CPU time moves on: the clock reads this thread, not a constant
		long now = first;
		for (long i = 0; now == first; i++) {
			now = ThreadCpuClock.source().getAsLong() + (i & 0);
		}
		assertThat(now).isGreaterThan(first);
	}

	/** Loads a fresh class each time, in a loader of its own. */
	private record ClassLoaderProbe(int i) {

		void load() {
			try {
				byte[] bytes;
				try (var in = JvmCounterReaderTest.class.getResourceAsStream("JvmCounterReaderTest$ClassLoaderProbe.class")) {
					bytes = in.readAllBytes();
				}
				new ClassLoader(null) {
					Class<?> define() {
						return defineClass(null, bytes, 0, bytes.length);
					}
				}.define();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
