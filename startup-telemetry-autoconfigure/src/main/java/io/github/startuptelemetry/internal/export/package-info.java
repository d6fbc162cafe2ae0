/**
 * Where a process's startup telemetry goes, and the work of getting it there off the startup it
 * measures: the settings ({@link io.github.startuptelemetry.internal.export.ExportSettings}: ours,
 * the standard {@code OTEL_*} ones, Boot's), the process's export
 * ({@link io.github.startuptelemetry.internal.export.StartupExport}: the application's own
 * OpenTelemetry, or an SDK built from those settings on a background thread when there is somewhere
 * to send to), Gym's two histograms on whatever the process has
 * ({@link io.github.startuptelemetry.internal.export.StartupHistograms}), and the exporters' failures
 * said once per signal.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.export;
