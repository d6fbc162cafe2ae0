package io.github.startuptelemetry.server;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The time before the first Spring application in a JVM: the env stages before the JVM existed,
 * the JVM start and {@code main} up to {@code SpringApplication.run}. It belongs to that first
 * application only; a second application in the same JVM (a test suite, a child application)
 * starts its timeline at its own {@code ApplicationStartingEvent}. That makes this per-JVM
 * state by nature, not per application or per context, hence the static: one owner per JVM,
 * decided by who asks first.
 */
final class JvmPrelude {

	private static final AtomicBoolean owned = new AtomicBoolean();

	private JvmPrelude() {
	}

	/** Whether the calling application is the first in this JVM, and so owns the prelude. */
	static boolean claimForThisApplication() {
		return owned.compareAndSet(false, true);
	}

}
