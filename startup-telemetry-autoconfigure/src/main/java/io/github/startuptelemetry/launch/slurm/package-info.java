/**
 * The {@code slurm} launcher: each server a job step of the Slurm allocation the supervisor
 * runs in.
 */
package io.github.startuptelemetry.launch.slurm;
