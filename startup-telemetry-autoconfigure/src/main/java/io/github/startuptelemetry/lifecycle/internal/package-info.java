/**
 * The settings a supervisor hands its servers through the environment, the {@code OTEL_*}
 * rules both sides share, and the process's resource attributes.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
@NullMarked
package io.github.startuptelemetry.lifecycle.internal;

import org.jspecify.annotations.NullMarked;
