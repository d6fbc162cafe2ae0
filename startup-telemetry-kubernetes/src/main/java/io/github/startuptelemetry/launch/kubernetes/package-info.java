/**
 * The {@code kubernetes} launcher: each server a pod made from a template, watched until it
 * runs, probed at its IP and deleted when the fleet stops.
 */
@NullMarked
package io.github.startuptelemetry.launch.kubernetes;

import org.jspecify.annotations.NullMarked;
