/**
 * Where a test suite's time goes: every application context Spring's TestContext framework
 * creates, timed as a server's startup and explained (why it could not reuse a cached one),
 * reported once per test run (docs/tests.md). Hooked in through {@code spring.factories} and a
 * JUnit Platform service entry, so that nothing needs annotating.
 */
@NullMarked
package io.github.startuptelemetry.testcontexts;

import org.jspecify.annotations.NullMarked;
