/**
 * Stages as spans with explicit timestamps, the sampler that always keeps startup spans, the
 * resource typed as Gym's, and the bounded flush.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
@NullMarked
package io.github.startuptelemetry.tracing.internal;

import org.jspecify.annotations.NullMarked;
