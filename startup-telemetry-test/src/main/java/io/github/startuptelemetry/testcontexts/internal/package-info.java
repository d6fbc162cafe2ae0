/**
 * Internal: not API. A test run's report as values (what each test JVM measured, merged over the
 * run's JVMs), and its renderings: the JSON document ({@code docs/startup-test-report.schema.json}),
 * the console summary, the HTML page, the files and where they go, the run's trace.
 */
@NullMarked
package io.github.startuptelemetry.testcontexts.internal;

import org.jspecify.annotations.NullMarked;
