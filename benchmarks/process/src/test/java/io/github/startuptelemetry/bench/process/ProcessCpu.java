package io.github.startuptelemetry.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time a process has used so far (user + system), from Linux's /proc: in all, or per
 * thread name (numbers stripped, so that a pool's threads add up), to say where it went.
 */
final class ProcessCpu {

	/** USER_HZ: /proc counts in clock ticks of 10 ms on Linux. */
	private static final double MS_PER_TICK = 10;

	private ProcessCpu() {
	}

	static double ms(long pid) throws IOException {
		return ticksMs(Files.readString(Path.of("/proc/" + pid + "/stat")));
	}

	/** By thread name; threads that ended are missing. */
	static Map<String, Double> byThread(long pid) throws IOException {
		Map<String, Double> threads = new TreeMap<>();
		try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
			for (Path task : tasks.toList()) {
				try {
					String stat = Files.readString(task.resolve("stat"));
					String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("\\d+", "N");
					threads.merge(name, ticksMs(stat), Double::sum);
				}
				catch (IOException ex) {
					// the thread ended meanwhile
				}
			}
		}
		return threads;
	}

	/** utime + stime: fields 14 and 15, counted after the command name in parentheses. */
	private static double ticksMs(String stat) {
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * MS_PER_TICK;
	}

}
