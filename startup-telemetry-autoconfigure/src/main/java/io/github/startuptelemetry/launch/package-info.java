/**
 * The launcher SPI: a {@code ServerLauncher} starts one planned server ({@code LaunchRequest})
 * somewhere and returns a {@code LaunchedServer} the fleet watches and stops. Built-in launchers
 * are subpackages ({@code local}, {@code slurm}); a new one is a new subpackage whose
 * auto-configuration is {@code @ConditionalOnFleet} and listed in the imports file.
 */
package io.github.startuptelemetry.launch;
