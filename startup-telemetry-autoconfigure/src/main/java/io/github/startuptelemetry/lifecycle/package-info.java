/**
 * Process-wide telemetry, NeMo RL's {@code setup} for the JVM: the environment post-processor
 * every process runs, the export wiring, the bounded shutdown, {@code TelemetryHandle} and
 * {@code WorkerEnv}.
 */
@NullMarked
package io.github.startuptelemetry.lifecycle;

import org.jspecify.annotations.NullMarked;
