/**
 * The {@code slurm} launcher: each server a job step of the supervisor's Slurm allocation.
 */
@NullMarked
package io.github.startuptelemetry.launch.slurm;

import org.jspecify.annotations.NullMarked;
