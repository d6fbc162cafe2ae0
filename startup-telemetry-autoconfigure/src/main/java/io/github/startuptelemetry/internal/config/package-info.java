/**
 * How the starter reads its own switch before a context exists: the lenient early binding
 * of {@code telemetry.*}, {@code TelemetrySwitch}, and the auto-configuration import filter.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.config;
