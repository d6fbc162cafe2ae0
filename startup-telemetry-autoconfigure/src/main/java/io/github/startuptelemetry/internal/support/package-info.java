/**
 * Small framework-free helpers shared by the starter's packages.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.support;
