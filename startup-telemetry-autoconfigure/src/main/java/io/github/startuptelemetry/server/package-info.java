/**
 * A server's own startup telemetry: the listeners registered through {@code spring.factories},
 * the recorder, slow beans, the reporter, the endpoint and the stage histogram.
 * {@code StartupTelemetryAutoConfiguration} is public; the rest is package-private.
 */
package io.github.startuptelemetry.server;
