/**
 * The {@code kubernetes} launcher: each server a pod of the cluster the supervisor runs in (or
 * its kubeconfig names), made from a pod template and {@code telemetry.supervisor.kubernetes.*},
 * watched until its container runs, probed at its IP, its pod stages on its
 * {@code gym.startup.server} span and in the report, and deleted when the fleet stops; owned by
 * the supervisor's pod and cleaned up at the next start, so that none outlives its supervisor.
 * Needs the fabric8 client ({@code startup-telemetry-kubernetes}).
 */
package io.github.startuptelemetry.launch.kubernetes;
