/**
 * The OpenTelemetry side: stages as spans with explicit timestamps, the sampler that always
 * keeps startup spans, the bounded flush.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.tracing;
