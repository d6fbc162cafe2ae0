package io.github.startuptelemetry.fleet;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Says why the fleet did not start and where to look, instead of a stack trace. */
class FleetStartupFailureAnalyzer extends AbstractFailureAnalyzer<FleetStartupException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, FleetStartupException cause) {
		String where = (cause.runDir() != null) ? "the server logs in " + cause.runDir() : "the server logs";
		return new FailureAnalysis("The fleet did not start (" + cause.outcome() + "): " + cause.getMessage(),
				"Look at the startup report above and at " + where + ".", cause);
	}

}
