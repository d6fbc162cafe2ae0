package io.github.startuptelemetry.testcontexts;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Called once each time the TestContext framework creates a context, with the context's key
 * ({@link MergedContextConfiguration}): for Boot's loader and any other, and for a context that will
 * fail. Part of every key, and equal to itself only by its class: every key gains the same element,
 * so that no context is split from another by it.
 */
final class TestContextTiming implements ContextCustomizer {

	static final TestContextTiming INSTANCE = new TestContextTiming();

	private static final Log logger = LogFactory.getLog(TestContextTiming.class);

	private TestContextTiming() {
	}

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		try {
			TestRun.jvm().created(context, mergedConfig);
		}
		catch (RuntimeException | LinkageError ex) {
			logger.debug("Could not follow a test context", ex);
		}
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other != null && other.getClass() == getClass();
	}

	@Override
	public int hashCode() {
		return getClass().getName().hashCode();
	}

	@Override
	public String toString() {
		return "StartupTelemetryTestContexts";
	}

}
