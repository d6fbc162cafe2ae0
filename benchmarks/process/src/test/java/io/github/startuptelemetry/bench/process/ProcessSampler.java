package io.github.startuptelemetry.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Another process's CPU (utime + stime, 10 ms ticks) and its resident memory's peak
 * ({@code VmHWM}), from Linux's /proc, sampled every {@value #PERIOD_MS} ms until it ends: what it
 * used up to its exit is its last sample, at most that much before the exit.
 */
final class ProcessSampler implements AutoCloseable {

	private static final long PERIOD_MS = 50;

	private final long pid;

	private final Thread sampler;

	private volatile boolean stopped;

	private volatile double cpuMs;

	private volatile long peakRssKb;

	ProcessSampler(long pid) {
		this.pid = pid;
		sample();
		this.sampler = Sampling.every("process-sampler", PERIOD_MS, () -> !this.stopped && sample());
	}

	/** Its CPU now, in ms (its last sample once it has ended). */
	double cpuMs() {
		sample();
		return this.cpuMs;
	}

	/** The peak of its resident set, in kB ({@code VmHWM}: the kernel's own high-water mark). */
	long peakRssKb() {
		return this.peakRssKb;
	}

	/** Whether it could still be read. */
	private synchronized boolean sample() {
		try {
			double cpu = ProcessCpu.ms(this.pid);
			for (String line : Files.readAllLines(Path.of("/proc/" + this.pid + "/status"))) {
				if (line.startsWith("VmHWM:")) {
					this.peakRssKb = Math.max(this.peakRssKb, Long.parseLong(line.replaceAll("\\D", "")));
				}
			}
			this.cpuMs = Math.max(this.cpuMs, cpu);
			return true;
		}
		catch (IOException | RuntimeException ex) {
			// it has ended (or is a zombie, whose status has no memory left)
			return false;
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.stopped = true;
		this.sampler.join();
	}

}
