package io.github.startuptelemetry.launch.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Starts a server the way NeMo Gym does, through {@code /bin/sh}: run the setup step, stamp
 * {@code NEMO_GYM_STARTUP_SETUP_DONE_NS}, then {@code exec} the server (same pid), with the orphan
 * guard forked first, so that no server outlives its supervisor by much more than half a second.
 * The script is fixed; the setup command and the server's arguments reach it as positional
 * parameters, never pasted into it.
 */
public final class LaunchShell {

	/**
	 * How long a server orphaned by its supervisor may take to exit after SIGTERM before
	 * SIGKILL, in hundredths of a second (the unit of {@code /proc/uptime}).
	 */
	static final int ORPHAN_GRACE_CENTIS = 50;

	// On end of file without a line (the supervisor died): SIGTERM, then SIGKILL at a deadline read from
	// /proc/uptime, so that a loaded host delays the poll, not the deadline. A zombie counts as ended: its
	// new parent may reap it late.
	/** The guard's own script ($1 = the server's pid; standard input = the supervisor's pipe). */
	private static final String GUARD = """
			[ "$PPID" = "$1" ] || exit 0
			if read -r _; then exit 0; fi
			kill -TERM "$1" 2>/dev/null || exit 0
			now() { read -r up _ < /proc/uptime && echo $(( ${up%.*}${up#*.} )); }
			deadline=$(( $(now) + GRACE ))
			while [ "$(now)" -lt "$deadline" ]; do
				kill -0 "$1" 2>/dev/null || exit 0
				read -r stat < "/proc/$1/stat" 2>/dev/null || exit 0
				case "$stat" in *") Z "*) exit 0;; esac
				sleep 0.05
			done
			kill -KILL "$1" 2>/dev/null
			""".replace("GRACE", Integer.toString(ORPHAN_GRACE_CENTIS));

	/** Run the setup step ($1), stamp its end, exec the server (the rest). */
	private static final String SETUP_THEN_EXEC = """
			if [ -n "$1" ]; then run_setup "$1" || exit; fi
			shift
			NEMO_GYM_STARTUP_SETUP_DONE_NS=$(date +%s%N)
			export NEMO_GYM_STARTUP_SETUP_DONE_NS
			exec "$@"
			""";

	// The guard is forked once, so it becomes the server's child: it stays in the server's process tree
	// (Slurm's proctrack/linuxproc tracks it, scancel reaches it) and holds none of the server's output
	// (never keeping a job step's I/O open). The setup step is eval'd in a function so that it cannot
	// disturb the server's arguments.
	static final String SCRIPT = """
			run_setup() { eval "$1"; }
			guard='GUARD'
			exec 3<&0 0</dev/null
			if command -v setpriv >/dev/null 2>&1; then
				setpriv --pdeathsig KILL /bin/sh -c "$guard" GUARD_NAME $$ <&3 >/dev/null 2>&1 3<&- &
			else
				/bin/sh -c "$guard" GUARD_NAME $$ <&3 >/dev/null 2>&1 3<&- &
			fi
			exec 3<&-
			""".replace("GUARD_NAME", LaunchShell.GUARD_NAME).replace("GUARD", GUARD) + SETUP_THEN_EXEC;

	/**
	 * The script without the orphan guard, for a platform that ends the server with its
	 * supervisor itself (a pod, through its owner reference).
	 */
	static final String UNGUARDED_SCRIPT = """
			run_setup() { eval "$1"; }
			exec 0</dev/null
			""" + SETUP_THEN_EXEC;

	/** What the launch shell calls itself ({@code $0}), as seen in {@code ps} until it execs. */
	static final String NAME = "startup-telemetry-launch";

	/** What the guard calls itself ({@code $0}), so that stopping a server can leave it be. */
	public static final String GUARD_NAME = "startup-telemetry-guard";

	private LaunchShell() {
	}

	/**
	 * Whether {@code process} is a launch shell's guard: it is no part of the server's work and
	 * ends with the server by itself, so a stop neither signals nor waits for it (signalled, it
	 * would stay a zombie child of a server that ignores SIGTERM and look alive).
	 */
	public static boolean isGuard(ProcessHandle process) {
		return process.info().arguments().map((arguments) -> List.of(arguments).contains(GUARD_NAME)).orElse(false);
	}

	/** The launch shell's command line for {@code setup} (may be {@code null}) then {@code command}. */
	public static List<String> commandLine(String setup, List<String> command) {
		return commandLine(SCRIPT, setup, command);
	}

	/**
	 * The launch shell's command line without its orphan guard, for a platform that stops the
	 * server when its supervisor goes by itself (a Kubernetes pod owned by the supervisor's): the
	 * setup step, its end stamped, then the server, exec'd.
	 */
	public static List<String> unguardedCommandLine(String setup, List<String> command) {
		return commandLine(UNGUARDED_SCRIPT, setup, command);
	}

	private static List<String> commandLine(String script, String setup, List<String> command) {
		List<String> line = new ArrayList<>(List.of("/bin/sh", "-c", script, NAME, (setup != null) ? setup : ""));
		line.addAll(command);
		return line;
	}

}
