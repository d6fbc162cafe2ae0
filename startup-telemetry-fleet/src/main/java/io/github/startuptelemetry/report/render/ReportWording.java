package io.github.startuptelemetry.report.render;

import io.github.startuptelemetry.report.CriticalChain;
import io.github.startuptelemetry.report.DependencyWait;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;

import java.util.Locale;
import java.util.function.UnaryOperator;

import io.github.startuptelemetry.contract.DependencyConditions;
import io.github.startuptelemetry.contract.StartupOutcome;
import io.github.startuptelemetry.internal.Decimals;
import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.report.StartupReport.CriticalPath;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.Stage;

/**
 * The words the console table and the HTML waterfall share, so that both say the same thing about
 * the same startup: how a server's startup ended, how the whole startup ended, what held it back.
 */
final class ReportWording {

	private ReportWording() {
	}

	/** What no span of beans_instantiated explains, as both reports say it. */
	static String unattributed(long ns) {
		return Durations.format(ns) + " of beans_instantiated unattributed (no phase, slow bean or step covers it)";
	}

	/** CPU time over wall time, as both reports show it: {@code 1.4×}. */
	static String cpuPerWall(double ratio) {
		return Decimals.fixed(ratio, 1) + "×";
	}

	/** What a stage's JVM counters say, one fact a line: CPU/wall, GC, JIT, classes. */
	static String counters(Stage stage, JvmCounters jvm) {
		StringBuilder text = new StringBuilder();
		if (jvm.cpuNs() >= 0) {
			text.append("CPU ").append(Durations.format(jvm.cpuNs()));
			if (stage.durationNs() > 0) {
				text.append(" / wall ").append(Durations.format(stage.durationNs())).append(" (")
					.append(cpuPerWall((double) jvm.cpuNs() / stage.durationNs())).append(", all threads)");
			}
			text.append('\n');
		}
		if (jvm.gcCount() >= 0 && jvm.gcMs() >= 0) {
			text.append("GC ").append(jvm.gcCount()).append((jvm.gcCount() == 1) ? " collection, " : " collections, ")
				.append(jvm.gcMs()).append(" ms\n");
		}
		if (jvm.jitMs() >= 0) {
			text.append("JIT ").append(jvm.jitMs()).append(" ms\n");
		}
		if (jvm.classesLoaded() >= 0) {
			text.append(String.format(Locale.ROOT, "%,d", jvm.classesLoaded())).append(" classes loaded\n");
		}
		return text.toString().stripTrailing();
	}

	/**
	 * How a server's startup ended, as people read it, the same in the console's outcome column
	 * and on the HTML's badge: its outcome (the one word its span and metric carry), with the exit
	 * code of a server that exited before it was ready ({@code crashed (exit 3)}) or, for a server
	 * still starting when another crashed, that it was stopped ({@code crashed (stopped)}).
	 */
	static String outcome(ServerReport server) {
		if (server.exitCode().isPresent()) {
			return server.outcome() + " (exit " + server.exitCode().getAsInt() + ")";
		}
		if (!server.spawned()) {
			return server.outcome() + " (not spawned)";
		}
		if (server.oneShot() && server.ready()) {
			return COMPLETED;
		}
		return server.stopped() ? server.outcome() + " (stopped)" : server.outcome();
	}

	/** What a one-shot job that exited 0 did, where a server is {@code ready}. */
	static final String COMPLETED = DependencyConditions.COMPLETED;

	/** What the wait of a server before its spawn is called. */
	static final String WAITED = "waited";

	/** What the wait before a server ran is called, e.g. Slurm's pending step. */
	static final String QUEUED = "queued";

	/** Why a server that is not ready stopped starting, in a sentence. */
	static String failure(ServerReport server) {
		return failureWords(server).sentence();
	}

	/** The same in a few words. */
	static String shortFailure(ServerReport server) {
		return failureWords(server).brief();
	}

	private static FailureWords failureWords(ServerReport server) {
		if (!server.spawned()) {
			String blocked = server.waiting().map(ServerReport.Waiting::blockedBy).orElse(null);
			return new FailureWords("not spawned: still waiting for " + ((blocked != null) ? blocked : "its dependencies")
					+ " when the startup ended", "not spawned");
		}
		if (server.exitCode().isPresent()) {
			return new FailureWords("exited with code " + server.exitCode().getAsInt() + " before it was ready",
					"exited before it was ready");
		}
		return switch (server.outcome()) {
			case StartupOutcome.TIMEOUT -> new FailureWords("not ready when the ready timeout passed",
					"not ready at the timeout");
			case StartupOutcome.INTERRUPTED -> new FailureWords("still starting when the supervisor was stopped",
					"supervisor stopped");
			case StartupOutcome.CRASHED -> new FailureWords("still starting when another server crashed; stopped",
					"another server crashed");
			default -> new FailureWords("still starting when the startup failed", "startup failed");
		};
	}

	/** {@code Startup crashed after 3.0 s}. */
	static String endedAfter(StartupReport report) {
		return "Startup " + report.outcome() + " after " + Durations.format(report.durationNs());
	}

	/** {@code startup crashed at 3.0 s: <what ended it>}: what ended a startup that did not finish. */
	static String endedAt(StartupReport report) {
		return "startup " + report.outcome() + " at " + Durations.format(report.durationNs())
				+ ((report.error() != null) ? ": " + report.error() : "");
	}

	/** {@code all ready 6.2 s} or {@code crashed 3.0 s}: where the startup ended. */
	static String end(StartupReport report) {
		return (report.ready() ? "all ready " : report.outcome() + " ") + Durations.format(report.durationNs());
	}

	/**
	 * {@code at 6.2 s, held back by model-1}: when all were ready and which server held that
	 * back, after "all ready".
	 */
	static String heldBack(CriticalPath path, UnaryOperator<String> strong, UnaryOperator<String> who) {
		return "at " + strong.apply(Durations.format(path.allReadyAfterNs())) + ", held back by "
				+ who.apply(path.server().name());
	}

	/** {@code its slowest stage beans_instantiated}: the critical path's second half, if known. */
	static String slowestStage(String stage, UnaryOperator<String> strong) {
		return "its slowest stage " + strong.apply(stage);
	}

	/**
	 * Why a server was never spawned, naming the dependency it waited for and what became of
	 * that one: {@code not spawned: waiting for config, which exited with code 3 before it was
	 * ready}.
	 */
	static String notSpawned(ServerReport server, StartupReport report) {
		String blocked = server.waiting().map(ServerReport.Waiting::blockedBy).orElse(null);
		ServerReport blocker = (blocked != null) ? report.servers()
			.stream()
			.filter((row) -> row.name().equals(blocked))
			.findFirst()
			.orElse(null) : null;
		if (blocker == null) {
			return failure(server);
		}
		String condition = server.waiting()
			.flatMap((wait) -> wait.on(blocked))
			.map((on) -> " (" + on.condition() + ")")
			.orElse("");
		return "not spawned: waiting for " + blocked + condition + ", which " + fate(blocker);
	}

	/** What became of a server another one waited for, after "which". */
	private static String fate(ServerReport server) {
		if (!server.spawned()) {
			return "was not spawned either";
		}
		if (server.ready()) {
			return "was " + (server.oneShot() ? COMPLETED : StartupOutcome.READY) + " as the startup ended";
		}
		String sentence = failure(server);
		return server.exitCode().isPresent() ? sentence : "was " + sentence.replace("; stopped", "");
	}

	/**
	 * {@code all ready at 14.2 s, set by the critical chain config → model-1 → gateway}: the
	 * first line of a ready startup with dependencies, after which {@link #chainLink} lists each.
	 */
	static String chainHeadline(CriticalChain chain, UnaryOperator<String> strong, UnaryOperator<String> who) {
		return "at " + strong.apply(Durations.format(chain.allReadyAfterNs())) + ", set by the critical chain "
				+ String.join(" → ", chain.links().stream().map((link) -> who.apply(link.server().name())).toList());
	}

	/** What {@code @} and {@code +} of a chain link mean. */
	static final String CHAIN_KEY = "@ when it met the condition, after the supervisor's start; + its own spawn→ready";

	/** {@code @3.9 s}: when a link met its condition. */
	static String chainAt(CriticalChain.Link link) {
		return "@" + Durations.format(link.metAfterNs());
	}

	/** {@code waited 3.2 s for config (ready)}, or nothing for the first link. */
	static String chainWait(CriticalChain.Link link) {
		return link.waitedFor().map((on) -> WAITED + " " + Durations.format(link.waitedNs()) + " for " + on).orElse("");
	}

	/**
	 * A dependency edge's wait and what could have overlapped, in a sentence:
	 * {@code gateway waited 7.0 s for model (ready): its startup up to context_prepared (2.1 s)
	 * did not need it and could have overlapped the wait}.
	 */
	static String dependencyWait(DependencyWait wait, UnaryOperator<String> strong) {
		String name = wait.dependency().name();
		String head = wait.dependant().name() + " " + WAITED + " " + strong.apply(Durations.format(wait.waitedNs()))
				+ " for " + wait.dependency() + ": ";
		return head + wait.overlap().map((overlap) -> (overlap.upToStage() == null)
				? "none of its stages ended before it first contacted " + name + " (in " + overlap.contactStage()
						+ "): nothing could have overlapped"
				: "its startup up to " + overlap.upToStage() + " (" + strong.apply(Durations.format(overlap.ns()))
						+ ") did not need " + name + " and could have overlapped the wait; it first contacted "
						+ name + " in " + overlap.contactStage())
			.orElseGet(() -> "unknown what could have overlapped: " + (wait.dependant().stages().isEmpty()
					? "it reported no stages" : "it reported no first contact with " + name + " (an application step "
							+ wait.contactStep() + ")"));
	}

	/** {@code 75%} of the whole, or {@code -} for an empty whole. */
	static String percentOf(long ns, long totalNs) {
		return (totalNs <= 0) ? "-" : Decimals.fixed(100.0 * ns / totalNs, 0) + "%";
	}

	/**
	 * Why a server did not become ready.
	 *
	 * @param sentence in a sentence, for a bar and its tooltip
	 * @param brief in a few words, for a label
	 */
	private record FailureWords(String sentence, String brief) {

	}

}
