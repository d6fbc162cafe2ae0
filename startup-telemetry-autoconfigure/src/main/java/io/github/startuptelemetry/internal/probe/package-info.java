/**
 * Probing: one loop thread of plain, non-blocking HTTP health checks and timeline fetches, for
 * servers that never call back.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.probe;
