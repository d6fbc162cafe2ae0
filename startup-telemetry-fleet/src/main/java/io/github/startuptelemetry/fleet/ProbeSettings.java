package io.github.startuptelemetry.fleet;

import java.time.Duration;

/**
 * How a fleet probes its servers ({@code telemetry.supervisor.probe.*}), as values: the probe
 * code does not see the properties class.
 *
 * @param initialInterval delay from a spawn to the first probe, and between probes while a
 * server answers but is not ready yet
 * @param maxInterval longest delay between two probes while nothing listens (while the fleet's
 * budget allows it)
 * @param timeout how long one probe (and one timeline fetch) may take
 * @param perSecond how many probes, of any kind, the whole fleet may make a second
 */
record ProbeSettings(Duration initialInterval, Duration maxInterval, Duration timeout, int perSecond) {

	/** The fleet's budget when none is set: the property's default. */
	static final int DEFAULT_PER_SECOND = new SupervisorProperties.Probe().getMaxPerSecond();

	ProbeSettings {
		if (perSecond < 1) {
			throw new IllegalArgumentException("a fleet must be allowed at least one probe a second");
		}
	}

	ProbeSettings(Duration initialInterval, Duration maxInterval, Duration timeout) {
		this(initialInterval, maxInterval, timeout, DEFAULT_PER_SECOND);
	}

}
