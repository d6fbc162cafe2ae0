package io.github.startuptelemetry.jvmcache.internal;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Reading a JVM's counters from its hsperfdata file, without attaching to it. */
class PerfCountersTest {

	@Test
	void thisJvmsCountersCountTheClassesItLoadedAndItsOptions() {
		long pid = ProcessHandle.current().pid();
		assumeTrue(Files.exists(Path.of("/tmp/hsperfdata_" + System.getProperty("user.name"), Long.toString(pid))),
				"this JVM keeps no hsperfdata file (-XX:-UsePerfData or -XX:+PerfDisableSharedMem)");
		long before = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();

		PerfCounters counters = PerfCounters.of(pid).orElseThrow();

		long after = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
		// the same counters the class-loading MXBean reads, bar classes loaded in between
		assertThat(counters.loadedClasses()).isBetween(before, after);
		assertThat(counters.sharedClasses()).isPositive().isLessThan(counters.loadedClasses());
		assertThat(counters.vmArgs()).isEqualTo(String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
	}

	@Test
	void aFileThatIsNoCounterFileReadsAsNone(@TempDir Path tmp) throws Exception {
		assertThat(PerfCounters.read(tmp.resolve("missing"))).isEmpty();
		assertThat(PerfCounters.read(Files.writeString(tmp.resolve("text"), "not a counter file, but long enough"))).isEmpty();
		assertThat(PerfCounters.parse(new byte[] { (byte) 0xca, (byte) 0xfe, (byte) 0xc0, (byte) 0xc0 })).isEmpty();
		byte[] notReady = new byte[64];
		notReady[0] = (byte) 0xca;
		notReady[1] = (byte) 0xfe;
		notReady[2] = (byte) 0xc0;
		notReady[3] = (byte) 0xc0;
		notReady[5] = 2;
		// not yet accessible: a JVM still setting it up
		assertThat(PerfCounters.parse(notReady)).isEmpty();
		notReady[7] = 1;
		notReady[24] = 0x7f;
		notReady[31] = 5;
		// entries said to lie beyond the file: none read, nothing thrown
		assertThat(PerfCounters.parse(notReady)).hasValueSatisfying((counters) -> assertThat(counters.longs()).isEmpty());
	}

}
