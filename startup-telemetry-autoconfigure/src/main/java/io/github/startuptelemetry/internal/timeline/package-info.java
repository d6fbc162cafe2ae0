/**
 * The mechanics of a timeline: contiguous marks ({@code StageTimeline}), the env contract
 * parsed leniently, clocks and their offsets, the traceparent, the JVM counter reader, the
 * ready callback's body.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.timeline;
