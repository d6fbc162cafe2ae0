/**
 * The regression gate: a startup against baseline JSON reports, unit by unit
 * ({@code ReportComparison}), and its command line ({@code Compare}). JDK only.
 */
@NullMarked
package io.github.startuptelemetry.report.gate;

import org.jspecify.annotations.NullMarked;
