/**
 * Helpers every feature shares: the one JSON writer and bounded parser, the one HTTP/1.1
 * framing, daemon threads, guarded calls, numbers and durations as text, the host name, a
 * JVM's hsperfdata file, and the Boot line's class and property names. JDK only.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
@NullMarked
package io.github.startuptelemetry.internal;

import org.jspecify.annotations.NullMarked;
