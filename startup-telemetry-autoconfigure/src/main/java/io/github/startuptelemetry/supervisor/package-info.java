/**
 * {@code SupervisorStartup}, the low-level API a launcher autowires (always provided; it
 * records when telemetry is on), and the extension point {@code ChildTelemetryEnvironment}.
 */
package io.github.startuptelemetry.supervisor;
