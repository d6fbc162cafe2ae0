/**
 * The fleet launcher: declare servers under {@code telemetry.supervisor.*} and the supervisor
 * plans, spawns (through a {@code launch} launcher), probes, reports on and stops them.
 * {@code FleetLauncherAutoConfiguration} and {@code SupervisorProperties} are public; the run
 * itself ({@code FleetRun}, {@code FleetPlan}, {@code FleetProcesses}, ...) is package-private.
 */
package io.github.startuptelemetry.fleet;
