package io.github.startuptelemetry.fleet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.startuptelemetry.internal.DaemonThreads;

/**
 * The one thread that probes a whole fleet: timers and non-blocking sockets on one selector, so
 * that a hundred servers cost one thread, not a hundred. Tasks run one at a time on this thread,
 * so what they touch needs no lock; they must be short and never block.
 */
final class ProbeLoop implements Executor, AutoCloseable {

	private static final Log logger = LogFactory.getLog(ProbeLoop.class);

	private final Selector selector;

	private final Thread thread;

	/** Scheduled from any thread; moved into {@link #timers} by this loop. */
	private final Queue<Timer> submitted = new ConcurrentLinkedQueue<>();

	/** This loop's own: touched by its thread only. */
	private final PriorityQueue<Timer> timers = new PriorityQueue<>();

	private long sequence;

	private volatile boolean closed;

	public ProbeLoop(String name) {
		try {
			this.selector = Selector.open();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.thread = DaemonThreads.named(name).newThread(this::run);
		this.thread.start();
	}

	/**
	 * Run {@code task} on this loop after {@code delayNs}; from any thread.
	 * @return what cancels it, from this loop's thread
	 */
	public Scheduled schedule(Runnable task, long delayNs) {
		return scheduleAt(task, System.nanoTime() + Math.max(0, delayNs));
	}

	/**
	 * Run {@code task} on this loop once {@link System#nanoTime()} reaches {@code atNs}; from any
	 * thread.
	 * @return what cancels it, from this loop's thread
	 */
	Scheduled scheduleAt(Runnable task, long atNs) {
		if (this.closed) {
			throw new RejectedExecutionException("The probe loop is closed");
		}
		Timer timer = new Timer(atNs, task);
		this.submitted.add(timer);
		if (Thread.currentThread() != this.thread) {
			this.selector.wakeup();
		}
		return timer;
	}

	/** Run {@code task} on this loop as soon as it can. */
	@Override
	public void execute(Runnable task) {
		schedule(task, 0);
	}

	/**
	 * Register {@code channel} (non-blocking) with no interest yet; once interested, the key's
	 * {@code ready} runs on this loop whenever the channel is ready. From this loop's thread only.
	 */
	SelectionKey register(SelectableChannel channel, Runnable ready) throws IOException {
		return channel.register(this.selector, 0, ready);
	}

	boolean inLoop() {
		return Thread.currentThread() == this.thread;
	}

	@Override
	public void close() {
		this.closed = true;
		this.selector.wakeup();
	}

	private void run() {
		try {
			while (!this.closed) {
				runDue();
				long waitNs = nextDueNs();
				if (!this.submitted.isEmpty() || waitNs == 0) {
					this.selector.selectNow();
				}
				else if (waitNs < 0) {
					this.selector.select();
				}
				else {
					this.selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNs + 999_999)));
				}
				for (SelectionKey key : this.selector.selectedKeys()) {
					if (key.isValid()) {
						guarded((Runnable) key.attachment());
					}
				}
				this.selector.selectedKeys().clear();
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("Probing stopped: " + ex);
		}
		finally {
			this.closed = true;
			for (SelectionKey key : this.selector.keys()) {
				closeQuietly(key.channel());
			}
			closeQuietly(this.selector);
		}
	}

	private void runDue() {
		for (Timer timer; (timer = this.submitted.poll()) != null;) {
			timer.sequence = this.sequence++;
			this.timers.add(timer);
		}
		long now = System.nanoTime();
		while (!this.closed && !this.timers.isEmpty() && this.timers.peek().atNs - now <= 0) {
			Timer due = this.timers.poll();
			if (!due.cancelled) {
				guarded(due.task);
			}
		}
	}

	/** Nanoseconds until the next timer is due: 0 when one is, -1 without any. */
	private long nextDueNs() {
		// a cancelled timer (a GET's timeout, once it was answered) wakes nobody
		while (!this.timers.isEmpty() && this.timers.peek().cancelled) {
			this.timers.poll();
		}
		Timer next = this.timers.peek();
		return (next != null) ? Math.max(0, next.atNs - System.nanoTime()) : -1;
	}

	/** A task that throws is its own caller's bug: it must not end the probing of every server. */
	private static void guarded(Runnable task) {
		try {
			task.run();
		}
		catch (RuntimeException ex) {
			logger.warn("A probe task failed: " + ex, ex);
		}
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// closing anyway
		}
	}

	/** A scheduled task, which can be called off before it is due. */
	interface Scheduled {

		/** It will not run: from the loop's thread only. */
		void cancel();

	}

	/** A task due at a time; ties run in the order scheduled. */
	private static final class Timer implements Comparable<Timer>, Scheduled {

		final long atNs;

		final Runnable task;

		long sequence;

		/** Set and read on the loop's thread only. */
		boolean cancelled;

		Timer(long atNs, Runnable task) {
			this.atNs = atNs;
			this.task = task;
		}

		@Override
		public void cancel() {
			this.cancelled = true;
		}

		@Override
		public int compareTo(Timer other) {
			int byTime = Long.compare(this.atNs - other.atNs, 0);
			return (byTime != 0) ? byTime : Long.compare(this.sequence, other.sequence);
		}

	}

}
