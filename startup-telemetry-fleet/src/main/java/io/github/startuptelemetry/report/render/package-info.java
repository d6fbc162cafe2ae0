/**
 * The startup report for people: the console table ({@code ConsoleReport}) and the HTML
 * waterfall ({@code HtmlReport}). JDK only.
 */
@NullMarked
package io.github.startuptelemetry.report.render;

import org.jspecify.annotations.NullMarked;
