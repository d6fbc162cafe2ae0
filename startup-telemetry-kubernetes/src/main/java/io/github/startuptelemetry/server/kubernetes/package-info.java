/**
 * A server in a pod reports its pod's stages ahead of its JVM's, read from its own pod once it
 * is ready.
 */
@NullMarked
package io.github.startuptelemetry.server.kubernetes;

import org.jspecify.annotations.NullMarked;
