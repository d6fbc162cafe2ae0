/**
 * The {@code local} launcher, the default: each server a process of this host.
 */
package io.github.startuptelemetry.launch.local;
