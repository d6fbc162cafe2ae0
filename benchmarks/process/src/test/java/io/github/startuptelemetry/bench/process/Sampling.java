package io.github.startuptelemetry.bench.process;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** A daemon thread that samples another process periodically, for as long as its sample says to go on. */
final class Sampling {

	private Sampling() {
	}

	/**
	 * Start a thread named {@code name} that calls {@code sample} every {@code periodMs} until it
	 * answers {@code false} or the thread is interrupted.
	 */
	static Thread every(String name, long periodMs, BooleanSupplier sample) {
		Thread thread = new Thread(() -> {
			while (sample.getAsBoolean()) {
				try {
					TimeUnit.MILLISECONDS.sleep(periodMs);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}, name);
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

}
