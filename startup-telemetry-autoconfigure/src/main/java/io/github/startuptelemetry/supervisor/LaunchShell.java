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
 * <p>
 * The orphan guard: the shell's standard input is a pipe from the supervisor. Before the exec,
 * a background guard takes that pipe over and waits on it (forked twice, so that it is no child
 * of the server, which would never reap it); the setup step and the server read
 * {@code /dev/null}. A line on the pipe means the supervisor stands down (the server exited, or
 * the supervisor stops it itself): the guard exits. End of file without a line means the
 * supervisor died ({@code kill -9}, OOM, a crash): the guard sends SIGTERM to the server, waits
 * {@link #ORPHAN_GRACE_SECONDS} second, then SIGKILL if it still runs (a zombie has ended: its
 * new parent may reap it late). So no server outlives
 * its supervisor by more than about a second, whatever the server is, and on whatever node the
 * shell runs (srun forwards its standard input to the step).
 */
final class LaunchShell {

	/**
	 * How long a server orphaned by its supervisor may take to exit after SIGTERM, in seconds:
	 * one sleep, not a poll, so that a loaded host cannot stretch it.
	 */
	static final int ORPHAN_GRACE_SECONDS = 1;

	static final String SCRIPT = """
			run_setup() { eval "$1"; }
			running() {
				kill -0 "$1" 2>/dev/null || return 1
				read -r stat < "/proc/$1/stat" 2>/dev/null || return 0
				case "$stat" in *") Z "*) return 1;; esac
			}
			guard() {
				if read -r _; then exit 0; fi
				kill -TERM "$1" 2>/dev/null || exit 0
				sleep %d
				if running "$1"; then kill -KILL "$1" 2>/dev/null; fi
			}
			exec 3<&0
			(guard $$ <&3 3<&- &)
			exec 0</dev/null 3<&-
			if [ -n "$1" ]; then run_setup "$1" || exit; fi
			shift
			NEMO_GYM_STARTUP_SETUP_DONE_NS=$(date +%%s%%N)
			export NEMO_GYM_STARTUP_SETUP_DONE_NS
			exec "$@"
			""".formatted(ORPHAN_GRACE_SECONDS);

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
