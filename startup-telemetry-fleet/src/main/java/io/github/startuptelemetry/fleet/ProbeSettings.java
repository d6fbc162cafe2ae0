package io.github.startuptelemetry.fleet;

import java.time.Duration;

/**
 * How a fleet probes its servers ({@code telemetry.supervisor.probe.*}), as values: the probe
 * code does not see the properties class.
 *
 * @param initialInterval delay from a spawn to the first probe, and between probes while a
 * server answers but is not ready yet
 * @param maxInterval longest delay between two probes while nothing listens
 * @param timeout how long one probe (and one timeline fetch) may take
 */
record ProbeSettings(Duration initialInterval, Duration maxInterval, Duration timeout) {
}
