package io.github.startuptelemetry.testcontexts;

/**
 * Whether this JVM's test contexts are followed. Apart from {@link TestRun}, so that asking,
 * as the launcher session does before any test, loads nothing else.
 */
final class TestContextsSwitch {

	/** The system property that turns it off: {@code -Dstartup.telemetry.test-contexts=false}. */
	static final String ENABLED_PROPERTY = "startup.telemetry.test-contexts";

	private TestContextsSwitch() {
	}

	static boolean on() {
		return !"false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY, "").strip());
	}

}
