package io.github.startuptelemetry.timeline.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.contract.StartupEnv;
import io.github.startuptelemetry.timeline.Stage;

/**
 * What a supervisor hands a server it spawns through the environment (when it was spawned, when
 * its setup finished, the span its trace hangs from), read leniently: an unusable value is
 * skipped and noted by name, never thrown.
 *
 * @param spawnNs {@value StartupEnv#SPAWN_NS}, when the supervisor spawned the launch shell
 * @param setupDoneNs {@value StartupEnv#SETUP_DONE_NS}, when the launch shell finished setup
 * @param serveNs {@value StartupEnv#SERVE_NS}, a multi-process server's hand-off to its workers
 * @param traceParent {@value StartupEnv#TRACEPARENT} (or {@value StartupEnv#OTEL_TRACEPARENT})
 * @param malformed one line per value that was present but could not be read
 */
public record SpawnHandOff(OptionalLong spawnNs, OptionalLong setupDoneNs, OptionalLong serveNs,
		Optional<TraceParent> traceParent, List<String> malformed) {

	public SpawnHandOff {
		malformed = List.copyOf(malformed);
	}

	public SpawnHandOff(OptionalLong spawnNs, OptionalLong setupDoneNs, OptionalLong serveNs,
			Optional<TraceParent> traceParent) {
		this(spawnNs, setupDoneNs, serveNs, traceParent, List.of());
	}

	public static final SpawnHandOff EMPTY = new SpawnHandOff(OptionalLong.empty(), OptionalLong.empty(),
			OptionalLong.empty(), Optional.empty(), List.of());

	public static SpawnHandOff fromSystem() {
		try {
			return from(System.getenv());
		}
		catch (RuntimeException ex) {
			return EMPTY;
		}
	}

	public static SpawnHandOff from(Map<String, String> env) {
		List<String> malformed = new ArrayList<>(0);
		// neither set (no supervisor): TraceParent's class is not even loaded
		Optional<TraceParent> parent = traceParent(env, StartupEnv.TRACEPARENT, malformed);
		if (parent.isEmpty()) {
			parent = traceParent(env, StartupEnv.OTEL_TRACEPARENT, malformed);
		}
		return new SpawnHandOff(epochNs(env, StartupEnv.SPAWN_NS, malformed),
				epochNs(env, StartupEnv.SETUP_DONE_NS, malformed), epochNs(env, StartupEnv.SERVE_NS, malformed), parent,
				malformed);
	}

	private static Optional<TraceParent> traceParent(Map<String, String> env, String name, List<String> malformed) {
		String value = env.get(name);
		if (value == null) {
			return Optional.empty();
		}
		Optional<TraceParent> parent = TraceParent.parse(value);
		if (parent.isEmpty() && !value.isBlank()) {
			malformed.add(name + ": not a W3C traceparent");
		}
		return parent;
	}

	private static OptionalLong epochNs(Map<String, String> env, String name, List<String> malformed) {
		String value = env.get(name);
		OptionalLong ns = epochNs(value);
		// blank counts as unset, as a launch script that exports an empty variable means it
		if (value != null && ns.isEmpty() && !value.isBlank()) {
			malformed.add(name + ": not a positive count of nanoseconds");
		}
		return ns;
	}

	/**
	 * A positive decimal count of nanoseconds: ASCII digits only (no sign, no Unicode digits,
	 * no underscores), surrounding whitespace tolerated, overflow rejected.
	 */
	static OptionalLong epochNs(String value) {
		if (value == null) {
			return OptionalLong.empty();
		}
		String v = value.strip();
		if (v.isEmpty() || v.length() > 19) {
			return OptionalLong.empty();
		}
		for (int i = 0; i < v.length(); i++) {
			char c = v.charAt(i);
			if (c < '0' || c > '9') {
				return OptionalLong.empty();
			}
		}
		try {
			long ns = Long.parseLong(v);
			return (ns > 0) ? OptionalLong.of(ns) : OptionalLong.empty();
		}
		catch (NumberFormatException ex) {
			return OptionalLong.empty();
		}
	}

	/**
	 * The stages before the JVM existed, in order, ending at {@code jvmStartNs}: {@code venv_setup}
	 * and {@code interpreter_start} for a server, {@code worker_start} for a worker.
	 */
	public Prelude prelude(long jvmStartNs, boolean worker) {
		return prelude(jvmStartNs, worker, null);
	}

	/**
	 * {@link #prelude(long, boolean)} with the supervisor's stamps moved onto this process's
	 * clock by {@code clock} (when it is {@link ClockOffset#significant() significant}); a stamp
	 * is then dropped as skew only when it lies further after the JVM start than the offset's
	 * uncertainty explains.
	 * @param clock this process's clock minus the supervisor's, or {@code null} when unknown
	 */
	public Prelude prelude(long jvmStartNs, boolean worker, @Nullable ClockOffset clock) {
		if (this.spawnNs.isEmpty() && this.setupDoneNs.isEmpty() && this.serveNs.isEmpty()) {
			// no stamp at all (no supervisor): nothing to place, no skew to check
			return new Prelude(List.of(), this.malformed);
		}
		List<String> ignored = new ArrayList<>(this.malformed);
		List<Stage> stages = new ArrayList<>();
		Skew skew = new Skew(jvmStartNs, clock, ignored);
		if (worker) {
			OptionalLong serve = skew.beforeJvm(StartupEnv.SERVE_NS, this.serveNs);
			serve.ifPresent(s -> stages.add(new Stage(StageNames.WORKER_START, Math.min(s, jvmStartNs), jvmStartNs)));
			return new Prelude(stages, ignored);
		}
		OptionalLong spawn = skew.beforeJvm(StartupEnv.SPAWN_NS, this.spawnNs);
		OptionalLong setupDone = skew.beforeJvm(StartupEnv.SETUP_DONE_NS, this.setupDoneNs);
		if (spawn.isPresent() && setupDone.isPresent() && setupDone.getAsLong() < spawn.getAsLong()) {
			ignored.add(StartupEnv.SETUP_DONE_NS + ": before " + StartupEnv.SPAWN_NS);
			setupDone = OptionalLong.empty();
		}
		long interpreterFrom;
		if (setupDone.isPresent()) {
			long done = Math.min(setupDone.getAsLong(), jvmStartNs);
			if (spawn.isPresent()) {
				stages.add(new Stage(StageNames.VENV_SETUP, Math.min(spawn.getAsLong(), done), done));
			}
			interpreterFrom = done;
		}
		else if (spawn.isPresent()) {
			interpreterFrom = Math.min(spawn.getAsLong(), jvmStartNs);
		}
		else {
			return new Prelude(stages, ignored);
		}
		stages.add(new Stage(StageNames.INTERPRETER_START, interpreterFrom, jvmStartNs));
		return new Prelude(stages, ignored);
	}

	/** A supervisor's stamp on this process's clock, or dropped when it lies after the JVM start. */
	private record Skew(long jvmStartNs, @Nullable ClockOffset clock, List<String> ignored) {

		OptionalLong beforeJvm(String name, OptionalLong value) {
			if (value.isEmpty()) {
				return value;
			}
			long ns = (this.clock != null) ? this.clock.toServerClock(value.getAsLong()) : value.getAsLong();
			long tolerance = ClockOffset.TOLERANCE_NS + ((this.clock != null) ? this.clock.uncertaintyNs() : 0);
			if (ns > this.jvmStartNs + tolerance) {
				this.ignored.add(name + ": " + ((ns - this.jvmStartNs) / 1_000_000) + " ms after JVM start ("
						+ ((this.clock != null) ? "more than the measured clock offset explains" : "clock skew?") + ")");
				return OptionalLong.empty();
			}
			return OptionalLong.of(ns);
		}

	}

	/**
	 * Stages measured before the JVM started, and why any env value was left out.
	 *
	 * @param stages contiguous, the last ending at the JVM start; empty without usable stamps
	 * @param ignored one line per value that was present but unusable
	 */
	public record Prelude(List<Stage> stages, List<String> ignored) {

		public Prelude {
			stages = List.copyOf(stages);
			ignored = List.copyOf(ignored);
		}

	}

}
