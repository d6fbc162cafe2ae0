package io.github.startuptelemetry.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time a process has used so far (user + system), from Linux's /proc (the per-thread split
 * is {@link ThreadCpu}'s, from schedstat).
 */
final class ProcessCpu {

	/** USER_HZ: /proc counts in clock ticks of 10 ms on Linux. */
	private static final double MS_PER_TICK = 10;

	private ProcessCpu() {
	}

	static double ms(long pid) throws IOException {
		return ticksMs(Files.readString(Path.of("/proc/" + pid + "/stat")));
	}

	/** utime + stime: fields 14 and 15, counted after the command name in parentheses. */
	private static double ticksMs(String stat) {
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * MS_PER_TICK;
	}

}
