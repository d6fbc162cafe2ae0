package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A bounded background CPU load, as other builds put on a shared CI runner: a child JVM whose
 * threads spin until it is stopped, its parent dies (its standard input closes) or its time is
 * up, whichever comes first, so it can outlive neither the test nor its deadline. Each thread
 * keeps one core busy: {@code threads} adds that many to the load average.
 */
public final class CpuBurner implements AutoCloseable {

	private final Process process;

	private final int threads;

	private CpuBurner(Process process, int threads) {
		this.process = process;
		this.threads = threads;
	}

	/**
	 * Start {@code threads} spinning threads in a child JVM for at most {@code atMost}.
	 * @param threads how many cores' worth of load
	 * @param atMost when it stops on its own
	 * @return the running burner; close it to stop it
	 */
	public static CpuBurner start(int threads, Duration atMost) throws IOException {
		Path classes;
		try {
			classes = Path.of(CpuBurner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException ex) {
			throw new IOException(ex);
		}
		Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xmx16m", "-XX:TieredStopAtLevel=1", "-cp", classes.toString(), CpuBurner.class.getName(),
				Integer.toString(threads), Long.toString(atMost.toSeconds()))
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		return new CpuBurner(process, threads);
	}

	public int threads() {
		return this.threads;
	}

	public boolean running() {
		return this.process.isAlive();
	}

	/** Stop it: its standard input closes, it exits; killed should it not within 5 s. */
	@Override
	public void close() throws InterruptedException {
		try (OutputStream stdin = this.process.getOutputStream()) {
			stdin.flush();
		}
		catch (IOException ex) {
			// gone already
		}
		if (!this.process.waitFor(5, TimeUnit.SECONDS)) {
			this.process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
		}
	}

	/**
	 * The child: {@code <threads> <seconds>}. Spins until its standard input ends (its parent
	 * closed it or died) or the seconds are up.
	 */
	public static void main(String[] args) throws Exception {
		int threads = Integer.parseInt(args[0]);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[1]));
		List<Thread> spinners = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			Thread spinner = new Thread(() -> {
				long sink = 0;
				while (System.nanoTime() < deadline) {
					for (int j = 0; j < 1_000_000; j++) {
						sink += j ^ (sink >>> 3);
					}
				}
				if (sink == 42) {
					System.out.println(sink);
				}
			}, "burner-" + i);
			spinner.setDaemon(true);
			spinner.start();
			spinners.add(spinner);
		}
		Thread watcher = new Thread(() -> {
			try {
				while (System.in.read() >= 0) {
					// nothing is written to it: only its end matters
				}
			}
			catch (IOException ex) {
				// an unreadable input is an ended one
			}
			System.exit(0);
		}, "burner-stdin");
		watcher.setDaemon(true);
		watcher.start();
		for (Thread spinner : spinners) {
			spinner.join();
		}
	}

}
