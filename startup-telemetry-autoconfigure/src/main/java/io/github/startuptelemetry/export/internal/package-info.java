/**
 * Where a process's startup telemetry goes, off the startup it measures: the export settings,
 * the export thread (the application's OpenTelemetry, or an SDK built only when there is
 * somewhere to send to), Gym's two histograms, and each exporter failure said once.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
@NullMarked
package io.github.startuptelemetry.export.internal;

import org.jspecify.annotations.NullMarked;
