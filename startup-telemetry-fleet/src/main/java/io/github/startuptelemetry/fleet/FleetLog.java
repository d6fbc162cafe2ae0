package io.github.startuptelemetry.fleet;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The one log category of a fleet's run, {@code io.github.startuptelemetry.fleet.FleetRun},
 * whichever of its classes writes the line: what a user turns up or down.
 */
final class FleetLog {

	static final String CATEGORY = "io.github.startuptelemetry.fleet.FleetRun";

	private FleetLog() {
	}

	static Log get() {
		return LogFactory.getLog(CATEGORY);
	}

}
