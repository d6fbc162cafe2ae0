/**
 * A report's rendering written to its file, never failing the caller.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
@NullMarked
package io.github.startuptelemetry.report.internal;

import org.jspecify.annotations.NullMarked;
