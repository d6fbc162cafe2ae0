/**
 * The launcher SPI: a {@code ServerLauncher} starts one planned server somewhere and returns a
 * {@code LaunchedServer} the fleet watches and stops.
 */
@NullMarked
package io.github.startuptelemetry.launch;

import org.jspecify.annotations.NullMarked;
