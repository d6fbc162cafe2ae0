/**
 * Report plumbing shared by the server and the supervisor: writing a report's renderings to
 * their files.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.report;
