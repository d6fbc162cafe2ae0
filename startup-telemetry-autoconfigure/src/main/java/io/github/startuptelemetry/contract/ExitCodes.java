package io.github.startuptelemetry.contract;

/**
 * Exit codes a CI job matches on, beside 0 (ready, no regression) and 1 (the fleet did not
 * start: a server crashed, the ready timeout passed).
 */
public final class ExitCodes {

	/** Ready, but a server's spawn→ready or a stage regressed beyond the threshold against the baseline. */
	public static final int STARTUP_REGRESSED = 3;

	/** The standalone compare could not read its arguments or a report. */
	public static final int COMPARE_UNUSABLE = 2;

	private ExitCodes() {
	}

}
