package io.github.startuptelemetry.testcontexts;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What closed a test's context, from the closing thread's stack as Spring's paths leave it. */
class CloseCauseTest {

	@Test
	void dirtiesContextNamesTheClassThatRan() {
		assertThat(CloseCause.of(List.of("org.springframework.context.support.AbstractApplicationContext.close",
				"org.springframework.test.context.support.DefaultTestContext.markApplicationContextDirty",
				"org.springframework.test.context.support.DirtiesContextTestExecutionListener.afterTestClass"), "main",
				"SomeTest")).isEqualTo("@DirtiesContext in SomeTest");
	}

	@Test
	void anEvictionNamesTheCachesSize() {
		assertThat(CloseCause.of(List.of("org.springframework.context.support.AbstractApplicationContext.close",
				"org.springframework.test.context.cache.DefaultContextCache.evictLruContextIfNecessary"), "main", "SomeTest"))
			.isEqualTo("eviction (the cache holds 32: spring.test.context.cache.maxSize)");
	}

	@Test
	void theJvmsEndIsNoCause() {
		assertThat(CloseCause.of(List.of("org.springframework.boot.SpringApplicationShutdownHook.run"),
				"SpringApplicationShutdownHook", "SomeTest")).isNull();
		assertThat(CloseCause.of(List.of("java.lang.ApplicationShutdownHooks.runHooks"), "Thread-3", null)).isNull();
	}

	@Test
	void anythingElseIsTheTestsOwnCode() {
		assertThat(CloseCause.of(List.of("org.example.MyTest.closeIt"), "main", "MyTest"))
			.isEqualTo("the test's own code in MyTest");
	}

}
