package io.github.startuptelemetry.testcontexts;

import java.lang.reflect.Field;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;
import org.springframework.util.ReflectionUtils;

/**
 * Which test classes used which context ({@code spring.factories}): first before a class, so that
 * a context it dirties is said to be its, and last after it, once its context is known. Reads the
 * class's key from the test context (Spring has no getter for it); never asks for the context
 * itself, which would change who loads it.
 */
final class TestContextsListener implements TestExecutionListener, Ordered {

	private static final Log logger = LogFactory.getLog(TestContextsListener.class);

	private static final @Nullable Field MERGED_CONFIG = mergedConfigField();

	@Override
	public void beforeTestClass(TestContext testContext) {
		if (TestContextsSwitch.on()) {
			TestRun.jvm().classStarts(testContext.getTestClass());
		}
	}

	@Override
	public void afterTestClass(TestContext testContext) {
		if (TestContextsSwitch.on()) {
			try {
				TestRun.jvm().classDone(testContext.getTestClass(), mergedConfig(testContext));
			}
			catch (RuntimeException | LinkageError ex) {
				logger.debug("Could not tell which context a test class used", ex);
			}
		}
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	/** The test class's key, or {@code null} from a test context of another kind than Spring's own. */
	static @Nullable MergedContextConfiguration mergedConfig(TestContext testContext) {
		Field field = MERGED_CONFIG;
		if (field == null || !field.getDeclaringClass().isInstance(testContext)) {
			return null;
		}
		return (ReflectionUtils.getField(field, testContext) instanceof MergedContextConfiguration config) ? config
				: null;
	}

	private static @Nullable Field mergedConfigField() {
		try {
			Field field = ReflectionUtils.findField(
					Class.forName("org.springframework.test.context.support.DefaultTestContext"), "mergedConfig",
					MergedContextConfiguration.class);
			if (field != null) {
				ReflectionUtils.makeAccessible(field);
			}
			return field;
		}
		catch (ClassNotFoundException | RuntimeException | LinkageError ex) {
			return null;
		}
	}

}
