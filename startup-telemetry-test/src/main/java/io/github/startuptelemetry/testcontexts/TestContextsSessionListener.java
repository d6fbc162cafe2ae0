package io.github.startuptelemetry.testcontexts;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The end of the run in this JVM: the JUnit Platform closes a launcher session after a Surefire
 * fork's or a Gradle test worker's last test class, and the run's report is written then. Public
 * only because the JUnit Platform loads it as a service ({@code META-INF/services}); not API.
 */
public final class TestContextsSessionListener implements LauncherSessionListener {

	@Override
	public void launcherSessionOpened(LauncherSession session) {
		if (TestRun.enabled()) {
			TestRun.jvm().sessionOpened();
		}
	}

	@Override
	public void launcherSessionClosed(LauncherSession session) {
		if (TestRun.enabled()) {
			TestRun.jvm().sessionClosed();
		}
	}

}
