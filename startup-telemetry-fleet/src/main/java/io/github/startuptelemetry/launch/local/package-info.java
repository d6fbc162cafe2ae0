/**
 * The {@code local} launcher, the default: each server a process of this host.
 */
@NullMarked
package io.github.startuptelemetry.launch.local;

import org.jspecify.annotations.NullMarked;
