/**
 * The declarative fleet launcher: the supervisor plans, spawns, probes or hears from, reports
 * on and stops the servers declared under {@code telemetry.supervisor.*}. Only
 * {@code FleetLauncherAutoConfiguration} and {@code SupervisorProperties} are public.
 */
@NullMarked
package io.github.startuptelemetry.fleet;

import org.jspecify.annotations.NullMarked;
