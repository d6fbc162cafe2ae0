package io.github.startuptelemetry.server.kubernetes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.kubernetes.internal.PodTimes;

/**
 * When this container's first process (PID 1) started, read inside the container on the node's
 * clock, which the server's own process reads too: its start in clock ticks since boot
 * ({@code /proc/1/stat}) against the time since boot now ({@code /proc/uptime}), to the kernel's
 * 10 ms. The container's status says the same in whole seconds. JDK only.
 */
final class ContainerStart {

	/** The kernel's clock ticks per second in {@code /proc} (USER_HZ): 100 on every architecture Linux ships. */
	static final int TICKS_PER_SECOND = 100;

	private final Path proc;

	/** @param proc the proc file system ({@code /proc}) */
	ContainerStart(Path proc) {
		this.proc = proc;
	}

	/**
	 * PID 1's start on this process's wall clock, or {@code null} when it cannot be read (not Linux)
	 * or PID 1 is the pod's {@code pause} process (a process namespace shared by the pod's containers).
	 * @param nowEpochNs the wall clock now, read as close as can be to the uptime
	 */
	PodTimes.@Nullable Boundary read(long nowEpochNs) {
		try {
			String comm = Files.readString(this.proc.resolve("1/comm"), StandardCharsets.US_ASCII).strip();
			if (comm.equals("pause")) {
				return null;
			}
			String stat = Files.readString(this.proc.resolve("1/stat"), StandardCharsets.US_ASCII);
			String uptime = Files.readString(this.proc.resolve("uptime"), StandardCharsets.US_ASCII);
			Long ticks = startTicks(stat);
			double up = Double.parseDouble(uptime.strip().split("\\s+")[0]);
			if (ticks == null || ticks < 0 || ticks / (double) TICKS_PER_SECOND > up) {
				return null;
			}
			long sinceStartNs = Math.round((up - ticks / (double) TICKS_PER_SECOND) * 1e9);
			return PodTimes.Boundary.containerProcess(nowEpochNs - sinceStartNs, 1000.0 / TICKS_PER_SECOND);
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Field 22 of a {@code /proc/<pid>/stat} line, its start time in clock ticks since boot: counted
	 * after the command's closing parenthesis, since the command itself may hold spaces and parentheses.
	 */
	static @Nullable Long startTicks(String stat) {
		int close = stat.lastIndexOf(')');
		if (close < 0) {
			return null;
		}
		String[] fields = stat.substring(close + 1).strip().split("\\s+");
		// fields[0] is field 3 (the state): field 22 is fields[19]
		if (fields.length < 20) {
			return null;
		}
		try {
			return Long.valueOf(fields[19]);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
