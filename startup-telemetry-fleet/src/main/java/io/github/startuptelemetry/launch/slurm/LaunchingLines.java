package io.github.startuptelemetry.launch.slurm;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.github.startuptelemetry.internal.DaemonThreads;

/**
 * Reads srun's {@code launching StepId=J.S on host H} line from the log of every step still
 * pending, for all the launcher's steps on one thread: srun writes into the server's log, whose
 * directory is watched (inotify on Linux) while a step logging there pends, and every pending
 * log is looked at once a second besides, in case a change went unseen. A thread per step that
 * read srun's output cost a thousand-step fleet a thousand threads for the steps' whole lives.
 */
final class LaunchingLines {

	/** A step whose log is read for its launching line (a {@code SlurmStep}). */
	interface Pending {

		/** Where srun writes, the server's log. */
		Path log();

		/** Look for the launching line in the log now; done with this reader once found. */
		void readLaunchingLine();

	}

	/** How often every pending log is read whatever the watch said (a full event queue, a directory it could not watch). */
	private static final long SWEEP_MS = 1000;

	private final Map<Path, Pending> pending = new ConcurrentHashMap<>();

	/** Each directory watched, while a pending step logs there, and how many do; guarded by {@code this}. */
	private final Map<Path, Watched> watched = new HashMap<>();

	/** {@code null} before the first step, or where the platform has none. Guarded by {@code this}. */
	private WatchService watch;

	private boolean started;

	/** Read {@code step}'s log until its launching line is found, or {@link #done done}. */
	void add(Pending step) {
		Path log = step.log().toAbsolutePath();
		Path dir = log.getParent();
		synchronized (this) {
			if (!this.started) {
				start();
			}
			if (this.pending.put(log, step) == null && dir != null) {
				this.watched.computeIfAbsent(dir, this::watch).steps++;
			}
		}
		// srun may have written it before the watch was there
		step.readLaunchingLine();
	}

	/** Stop reading {@code step}'s log: its line was found or srun is gone. */
	void done(Pending step) {
		Path log = step.log().toAbsolutePath();
		Path dir = log.getParent();
		synchronized (this) {
			if (this.pending.remove(log) == null || dir == null) {
				return;
			}
			Watched watched = this.watched.get(dir);
			// the servers' own output goes to the same logs: unwatched once no step logging there pends
			if (watched != null && --watched.steps == 0) {
				this.watched.remove(dir);
				if (watched.key != null) {
					watched.key.cancel();
				}
			}
		}
	}

	/** Under the lock. */
	private Watched watch(Path dir) {
		try {
			return new Watched((this.watch != null) ? dir.register(this.watch, StandardWatchEventKinds.ENTRY_MODIFY) : null);
		}
		catch (IOException ex) {
			// no watch (inotify's limit reached, say): the sweep reads its logs
			return new Watched(null);
		}
	}

	/** Under the lock. */
	private void start() {
		this.started = true;
		try {
			this.watch = FileSystems.getDefault().newWatchService();
		}
		catch (IOException ex) {
			this.watch = null;
		}
		WatchService watch = this.watch;
		DaemonThreads.ownThread("slurm-launching").execute(() -> run(watch));
	}

	private static final class Watched {

		final WatchKey key;

		int steps;

		Watched(WatchKey key) {
			this.key = key;
		}

	}

	private void run(WatchService watch) {
		long nextSweep = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SWEEP_MS);
		while (true) {
			try {
				if (watch != null) {
					WatchKey key = watch.poll(SWEEP_MS, TimeUnit.MILLISECONDS);
					if (key != null) {
						changed(key);
					}
				}
				else {
					TimeUnit.MILLISECONDS.sleep(SWEEP_MS);
				}
				if (System.nanoTime() - nextSweep >= 0) {
					List.copyOf(this.pending.values()).forEach(Pending::readLaunchingLine);
					nextSweep = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SWEEP_MS);
				}
			}
			catch (InterruptedException | ClosedWatchServiceException ex) {
				return;
			}
		}
	}

	private void changed(WatchKey key) {
		Path dir = (Path) key.watchable();
		for (WatchEvent<?> event : key.pollEvents()) {
			if (event.context() instanceof Path name) {
				Pending step = this.pending.get(dir.resolve(name));
				if (step != null) {
					step.readLaunchingLine();
				}
			}
			else {
				// overflow: which logs changed is lost; read every one pending there
				List.copyOf(this.pending.values())
					.stream()
					.filter((step) -> dir.equals(step.log().toAbsolutePath().getParent()))
					.forEach(Pending::readLaunchingLine);
			}
		}
		key.reset();
	}

}
