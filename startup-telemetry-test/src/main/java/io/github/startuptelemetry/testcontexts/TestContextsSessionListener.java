package io.github.startuptelemetry.testcontexts;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The end of the run in this JVM: the JUnit Platform closes a launcher session after a Surefire
 * fork's or a Gradle test worker's last test class, and the run's report is written then. Public
 * only because the JUnit Platform loads it as a service ({@code META-INF/services}); not API.
 */
public final class TestContextsSessionListener implements LauncherSessionListener {

	/**
	 * Open launcher sessions: the run ends when the outermost closes (a test may run a launcher of
	 * its own). Counted here, so that a session's opening, before any test, loads nothing more.
	 */
	private static final AtomicInteger OPEN = new AtomicInteger();

	@Override
	public void launcherSessionOpened(LauncherSession session) {
		if (TestContextsSwitch.on()) {
			OPEN.incrementAndGet();
		}
	}

	@Override
	public void launcherSessionClosed(LauncherSession session) {
		if (TestContextsSwitch.on() && OPEN.updateAndGet((open) -> Math.max(0, open - 1)) == 0) {
			TestRun.jvm().finish();
		}
	}

}
