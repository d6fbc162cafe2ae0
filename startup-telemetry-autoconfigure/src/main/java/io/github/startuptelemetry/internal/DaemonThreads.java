package io.github.startuptelemetry.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * The threads telemetry starts of its own: daemons, so that none of them ever keeps a JVM
 * alive, each named after what it does.
 */
public final class DaemonThreads {

	private DaemonThreads() {
	}

	/** A factory of daemon threads that all carry this name. */
	public static ThreadFactory named(String name) {
		return (task) -> {
			Thread thread = new Thread(task, name);
			thread.setDaemon(true);
			return thread;
		};
	}

	/** An executor that runs each task on a new daemon thread of this name. */
	public static Executor ownThread(String name) {
		ThreadFactory threads = named(name);
		return (task) -> threads.newThread(task).start();
	}

}
