package io.github.startuptelemetry.supervisor;

import java.util.ArrayList;
import java.util.List;

/**
 * Starts a server the way NeMo Gym does, through {@code /bin/sh}: run the setup step, stamp
 * {@code NEMO_GYM_STARTUP_SETUP_DONE_NS}, then {@code exec} the server, so that the server is
 * the shell's own process (same PID) and its first stages can be measured from outside.
 * <p>
 * The script is fixed; the setup command and the server's arguments reach it as positional
 * parameters, never pasted into it, so names and arguments holding shell metacharacters are
 * passed on verbatim. The setup step is shell code by design (the operator's own), evaluated
 * inside a function so that it cannot disturb the server's arguments.
 */
final class LaunchShell {

	static final String SCRIPT = """
			run_setup() { eval "$1"; }
			if [ -n "$1" ]; then run_setup "$1" || exit; fi
			shift
			NEMO_GYM_STARTUP_SETUP_DONE_NS=$(date +%s%N)
			export NEMO_GYM_STARTUP_SETUP_DONE_NS
			exec "$@"
			""";

	/** What the launch shell calls itself ({@code $0}), as seen in {@code ps} until it execs. */
	static final String NAME = "startup-telemetry-launch";

	private LaunchShell() {
	}

	/** The launch shell's command line for {@code setup} (may be {@code null}) then {@code command}. */
	static List<String> commandLine(String setup, List<String> command) {
		List<String> line = new ArrayList<>(List.of("/bin/sh", "-c", SCRIPT, NAME, (setup != null) ? setup : ""));
		line.addAll(command);
		return line;
	}

}
