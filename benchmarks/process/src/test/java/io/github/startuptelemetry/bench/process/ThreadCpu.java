package io.github.startuptelemetry.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Where another process's CPU goes, by thread name (numbers folded, so that a pool's threads add
 * up), over a window: each thread's run time from Linux's {@code schedstat} (nanoseconds, not the
 * 10 ms ticks of {@code stat}, which round a hundred short-lived helper threads down to nothing),
 * sampled every {@value #PERIOD_MS} ms (or as often as asked: each sample reads every thread's
 * file, which for a JVM with a thousand process reapers is this JVM's work on the measured one's
 * cores), so that a thread that ends within the window (a compiler thread the JVM stops) still
 * counts up to its last sample. It stops by itself once the process has ended.
 */
final class ThreadCpu {

	private static final long PERIOD_MS = 25;

	private final Path tasks;

	/** By thread id: its name and its run time when first and last seen, in ns. */
	private final Map<String, Seen> threads = new HashMap<>();

	private final Thread sampler;

	private volatile boolean stopped;

	/** Start sampling {@code pid}: what its threads ran before now does not count. */
	ThreadCpu(long pid) {
		this(pid, PERIOD_MS);
	}

	/** The same, sampling every {@code periodMs}. */
	ThreadCpu(long pid, long periodMs) {
		this.tasks = Path.of("/proc/" + pid + "/task");
		sample(true);
		this.sampler = Sampling.every("thread-cpu-sampler", periodMs, () -> {
			if (!this.stopped) {
				sample(false);
			}
			return !this.stopped;
		});
	}

	/** Stop sampling; each thread name's run time since the start, in ms (empty without {@code schedstat}). */
	Map<String, Double> stop() throws InterruptedException {
		this.stopped = true;
		this.sampler.join();
		sample(false);
		Map<String, Double> byName = new TreeMap<>();
		synchronized (this.threads) {
			this.threads.values()
				.forEach((seen) -> byName.merge(seen.name, (seen.lastNs - seen.firstNs) / 1e6, Double::sum));
		}
		return byName;
	}

	private void sample(boolean first) {
		try (Stream<Path> tasks = Files.list(this.tasks)) {
			for (Path task : tasks.toList()) {
				try {
					long ns = Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
					String id = task.getFileName().toString();
					synchronized (this.threads) {
						Seen seen = this.threads.get(id);
						if (seen == null) {
							String name = Files.readString(task.resolve("comm")).strip().replaceAll("\\d+", "N");
							// a thread started within the window counts from zero
							this.threads.put(id, new Seen(name, first ? ns : 0, ns));
						}
						else {
							seen.lastNs = ns;
						}
					}
				}
				catch (IOException | RuntimeException ex) {
					// the thread ended meanwhile, or the kernel keeps no schedstat
				}
			}
		}
		catch (IOException ex) {
			// the process ended: nothing more to sample
			this.stopped = true;
		}
	}

	private static final class Seen {

		final String name;

		final long firstNs;

		long lastNs;

		Seen(String name, long firstNs, long lastNs) {
			this.name = name;
			this.firstNs = firstNs;
			this.lastNs = lastNs;
		}

	}

}
