/**
 * The supervisor's startup report: the immutable model ({@code StartupReport},
 * {@code ServerReport}), the one builder, and its console, HTML and JSON renderers, plus the
 * comparison against baseline reports.
 */
package io.github.startuptelemetry.report;
