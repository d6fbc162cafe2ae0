package io.github.startuptelemetry.testcontexts;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;

/**
 * Puts {@link TestContextTiming} in every test context's key ({@code spring.factories}): called
 * several times per test class, so it only hands out the one instance.
 */
final class TestContextsCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return TestContextsSwitch.on() ? TestContextTiming.INSTANCE : null;
	}

}
