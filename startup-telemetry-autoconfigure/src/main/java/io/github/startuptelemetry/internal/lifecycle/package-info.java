/**
 * Settings a supervisor hands its servers through the environment, and the process's
 * resource attributes.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.lifecycle;
