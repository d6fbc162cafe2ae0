package io.github.startuptelemetry.report.gate;

import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.report.ServerReport;

/**
 * One unit of a run against its baseline, as the regression gate judged it: which way it moved,
 * what moved it, and its times before and after.
 *
 * @param server the server
 * @param kind what the unit is
 * @param name {@link #SPAWN_TO_READY}, the stage's, phase's, step's or bean's name,
 * {@link #CPU_TIME}, or {@link #CONTEXT_STARTUP}
 * @param verdict whether it moved beyond its allowance, and which way
 * @param cause what moved it (or {@link Cause#NONE})
 * @param wall its wall time (for {@link Kind#UNIFORM}: its stages' CPU time)
 * @param cpu its CPU time, {@code null} when unknown
 * @param waiting its waiting (wall time its work does not explain), {@code null} when its CPU
 * time is unknown
 * @param runs how many baseline runs have it (for {@link Kind#UNIFORM}: how many units its
 * CPU factor is the median of)
 * @param explainedBy the regressed units inside it that account for its growth (their
 * {@link #unit()}), empty when none does
 */
public record Change(String server, Kind kind, String name, Verdict verdict, Cause cause, Times wall,
		@Nullable Times cpu, @Nullable Times waiting, int runs, List<String> explainedBy) {

	/** What {@code spawn→ready} is called in a change. */
	public static final String SPAWN_TO_READY = ServerReport.SPAWN_TO_READY;

	/** What a {@link Kind#UNIFORM} change is called. */
	public static final String CPU_TIME = "CPU time";

	/** What a {@link Kind#CONTEXT} change is called: {@code context startup}. */
	public static final String CONTEXT_STARTUP = "startup";

	public Change {
		explainedBy = List.copyOf(explainedBy);
	}

	/** Whether it fails the gate: slower beyond its allowance. */
	public boolean regression() {
		return this.verdict == Verdict.SLOWER;
	}

	/** The baseline's median wall time. */
	public double beforeMs() {
		return this.wall.beforeMs();
	}

	/** This run's wall time. */
	public double afterMs() {
		return this.wall.afterMs();
	}

	/** The wall time it should have taken at this run's load. */
	public double expectedMs() {
		return this.wall.expectedMs();
	}

	/** {@code bean modelLoader}, {@code spawn→ready}. */
	public String unit() {
		return (this.kind == Kind.SERVER) ? this.name : this.kind.word() + " " + this.name;
	}

	Change explainedBy(List<String> parts) {
		return new Change(this.server, this.kind, this.name, this.verdict, this.cause, this.wall, this.cpu,
				this.waiting, this.runs, parts);
	}

	/** What a change is of. */
	public enum Kind {

		/** A server's spawn→ready. */
		SERVER,

		/** One of its stages. */
		STAGE,

		/** One of its slow beans. */
		BEAN,

		/** One of Spring's phases ({@code spring.context.*}, the web server's creation) or {@code startup.singletons}. */
		PHASE,

		/** A step the application started itself ({@code ApplicationStartup.start}). */
		STEP,

		/** A server's CPU time, grown (or shrunk) alike in all its units. */
		UNIFORM,

		/**
		 * A test context's startup (a test report's, {@code kind} {@code tests}): its start to
		 * ready, summed over the run's creations of that configuration; one in no baseline run is
		 * a new context, which fails the gate.
		 */
		CONTEXT;

		/** What a slow step of the report is, by its {@code ApplicationStartup} step name. */
		static Kind ofStep(String step) {
			if (step.equals("spring.beans.instantiate")) {
				return BEAN;
			}
			return (step.startsWith("spring.") || step.equals("startup.singletons")) ? PHASE : STEP;
		}

		String word() {
			return (this == UNIFORM) ? "uniformly" : name().toLowerCase(Locale.ROOT);
		}

		/**
		 * Whether its CPU time is the whole process's (all threads, read from the JVM's counters)
		 * rather than one thread's: a stage's and spawn→ready's.
		 */
		boolean processWide() {
			return this == SERVER || this == STAGE || this == CONTEXT;
		}

		/**
		 * Whether it spans moments of different contention (spawn→ready, a stage, one of Spring's
		 * phases: seconds, from a JVM's start while its fleet's other JVMs start too to its beans),
		 * which the run's contention, read from its beans and steps, does not describe.
		 */
		boolean coarse() {
			return this == SERVER || this == STAGE || this == PHASE || this == CONTEXT;
		}

	}

	/** Which way a unit moved, beyond its allowance or not. */
	public enum Verdict {

		SLOWER, FASTER, SAME

	}

	/** What moved a unit beyond its allowance. */
	public enum Cause {

		/** Its CPU time. */
		WORK,

		/** Its waiting: wall time that the run's contention does not explain. */
		WAIT,

		/** Both. */
		WORK_AND_WAIT,

		/** Its wall time (no CPU times to tell work from waiting). */
		WALL,

		/** It is in no baseline run. */
		NEW,

		/** The server's CPU time, alike in every unit. */
		UNIFORM,

		/** Nothing: within its allowance. */
		NONE

	}

	/**
	 * One measure of a unit, before and after.
	 *
	 * @param beforeMs the baseline's median
	 * @param afterMs this run's
	 * @param expectedMs what this run should show: the baseline's, at this run's load
	 * @param allowedMs how far from {@code expectedMs} it may be
	 * @param spreadMs its spread over the baseline runs, {@code NaN} with fewer than two
	 */
	public record Times(double beforeMs, double afterMs, double expectedMs, double allowedMs, double spreadMs) {

		/** How much more than expected (negative: less). */
		public double excessMs() {
			return this.afterMs - this.expectedMs;
		}

	}

}
