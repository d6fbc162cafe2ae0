/**
 * What the fleet run needs of a recording {@code SupervisorStartup} beyond its API: the
 * two-step ready claim.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.supervisor;
