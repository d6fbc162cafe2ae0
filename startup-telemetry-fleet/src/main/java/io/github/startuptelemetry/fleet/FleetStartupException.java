package io.github.startuptelemetry.fleet;

import java.nio.file.Path;

import org.springframework.boot.ExitCodeGenerator;

/**
 * The fleet did not start: a server crashed, the ready timeout passed, or the supervisor was
 * stopped first. Thrown out of the supervisor's startup so that it exits non-zero, after the
 * startup was exported and reported and the servers were stopped.
 */
class FleetStartupException extends RuntimeException implements ExitCodeGenerator {

	private final String outcome;

	private final Path runDir;

	FleetStartupException(String outcome, String message, Path runDir) {
		super(message);
		this.outcome = outcome;
		this.runDir = runDir;
	}

	/** {@code timeout}, {@code crashed}, {@code interrupted} or {@code error}. */
	String outcome() {
		return this.outcome;
	}

	/** Where the server logs are, or {@code null} when the run got no directory. */
	Path runDir() {
		return this.runDir;
	}

	@Override
	public int getExitCode() {
		return 1;
	}

}
