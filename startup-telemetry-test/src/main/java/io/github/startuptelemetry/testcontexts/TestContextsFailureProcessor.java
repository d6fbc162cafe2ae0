package io.github.startuptelemetry.testcontexts;

import org.springframework.context.ApplicationContext;
import org.springframework.test.context.ApplicationContextFailureProcessor;

/** A test context that failed to load, with the load's own exception ({@code spring.factories}). */
final class TestContextsFailureProcessor implements ApplicationContextFailureProcessor {

	@Override
	public void processLoadFailure(ApplicationContext context, Throwable exception) {
		if (TestContextsSwitch.on()) {
			try {
				TestRun.jvm().failed(context, exception);
			}
			catch (RuntimeException | LinkageError ex) {
				// the test's failure is what matters here
			}
		}
	}

}
