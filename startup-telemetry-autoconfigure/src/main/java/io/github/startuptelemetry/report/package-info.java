/**
 * The startup report's model ({@code StartupReport}, {@code ServerReport}), the one place it is
 * built, what it derives (the critical chain, dependency waits), and its JSON document. JDK only;
 * the console and HTML renderers and the regression gate are in {@code startup-telemetry-fleet}.
 */
@NullMarked
package io.github.startuptelemetry.report;

import org.jspecify.annotations.NullMarked;
