/**
 * Process-wide telemetry (NeMo RL's {@code setup}, for the JVM): the environment
 * post-processor every process runs, the OTLP and Zipkin export wiring, the bounded shutdown,
 * {@code TelemetryHandle} and {@code WorkerEnv}.
 */
package io.github.startuptelemetry.lifecycle;
