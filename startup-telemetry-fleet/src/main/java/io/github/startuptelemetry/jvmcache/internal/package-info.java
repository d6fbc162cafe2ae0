/**
 * The JVM startup caches (AppCDS, Leyden AOT) a supervisor trains, applies and observes for its
 * Java servers (docs/jvm-cache.md).
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
@NullMarked
package io.github.startuptelemetry.jvmcache.internal;

import org.jspecify.annotations.NullMarked;
