/**
 * How a timeline is measured: contiguous marks, the env contract as a spawned process reads
 * it, clocks and their offsets, the traceparent, the JVM's counters, the ready callback's body,
 * and a platform's stages ahead of the process's. JDK only.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
@NullMarked
package io.github.startuptelemetry.timeline.internal;

import org.jspecify.annotations.NullMarked;
