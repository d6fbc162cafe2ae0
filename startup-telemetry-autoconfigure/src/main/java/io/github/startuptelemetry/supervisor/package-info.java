/**
 * {@code SupervisorStartup}, the low-level API a launcher autowires, its auto-configurations,
 * and the extension point {@code ChildTelemetryEnvironment}.
 */
@NullMarked
package io.github.startuptelemetry.supervisor;

import org.jspecify.annotations.NullMarked;
