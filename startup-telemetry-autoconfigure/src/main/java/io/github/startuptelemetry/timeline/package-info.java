/**
 * Framework-free values of a reported startup: {@code ServerTimeline}, its {@code Stage}s and
 * {@code StepTiming}s, the JVM's counters and flags, and {@code TimelineJson}, the JSON the
 * endpoint serves and the ready callback carries.
 */
package io.github.startuptelemetry.timeline;
