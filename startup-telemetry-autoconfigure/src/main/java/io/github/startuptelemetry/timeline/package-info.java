/**
 * The values of one reported startup ({@code ServerTimeline}, its stages, slow beans and JVM
 * counters) and {@code TimelineJson}, the JSON the endpoint serves and the ready callback
 * carries. JDK only.
 */
@NullMarked
package io.github.startuptelemetry.timeline;

import org.jspecify.annotations.NullMarked;
