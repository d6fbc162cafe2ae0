package io.github.startuptelemetry.testcontexts;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.core.SpringProperties;

/**
 * What closed a test's context before the run ended, read from the stack of the thread that closes
 * it: {@code @DirtiesContext} (Spring's dirties-context listeners), an eviction (the context
 * cache's least recently used, beyond {@code spring.test.context.cache.maxSize}), or the test's own
 * code; the JVM's shutdown is none of these.
 */
final class CloseCause {

	static final String DIRTIES_CONTEXT = "@DirtiesContext";

	static final String EVICTION = "eviction";

	static final String MAX_SIZE_PROPERTY = "spring.test.context.cache.maxSize";

	private static final int DEFAULT_MAX_SIZE = 32;

	private CloseCause() {
	}

	/** Why the context closing on this thread is closed, or {@code null} at the JVM's end. */
	static @Nullable String now(@Nullable String currentTestClass) {
		List<StackWalker.StackFrame> frames = StackWalker.getInstance().walk((stream) -> stream.limit(80).toList());
		return of(frames.stream().map((frame) -> frame.getClassName() + "." + frame.getMethodName()).toList(),
				Thread.currentThread().getName(), currentTestClass);
	}

	/** The same from {@code frames} ({@code class.method}, innermost first) and the thread's name. */
	static @Nullable String of(List<String> frames, String thread, @Nullable String currentTestClass) {
		String in = (currentTestClass != null) ? " in " + currentTestClass : "";
		for (String frame : frames) {
			if (frame.contains("DirtiesContext")) {
				return DIRTIES_CONTEXT + in;
			}
			if (frame.endsWith(".evictLruContextIfNecessary")) {
				return EVICTION + " (the cache holds " + cacheMaxSize() + ": " + MAX_SIZE_PROPERTY + ")";
			}
		}
		boolean shutdown = thread.toLowerCase(java.util.Locale.ROOT).contains("shutdown")
				|| frames.stream().anyMatch((frame) -> frame.startsWith("java.lang.ApplicationShutdownHooks")
						|| frame.contains("SpringApplicationShutdownHook"));
		return shutdown ? null : "the test's own code" + in;
	}

	static int cacheMaxSize() {
		String value = SpringProperties.getProperty(MAX_SIZE_PROPERTY);
		try {
			return (value != null) ? Integer.parseInt(value.strip()) : DEFAULT_MAX_SIZE;
		}
		catch (NumberFormatException ex) {
			return DEFAULT_MAX_SIZE;
		}
	}

}
