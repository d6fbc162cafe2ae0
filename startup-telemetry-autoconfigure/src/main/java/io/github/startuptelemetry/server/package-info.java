/**
 * A server's own startup telemetry: the listeners, the recorder, slow beans, the reporter on the
 * export thread, the endpoint and the ready callback. Only
 * {@code StartupTelemetryAutoConfiguration} is public.
 */
@NullMarked
package io.github.startuptelemetry.server;

import org.jspecify.annotations.NullMarked;
