package io.github.startuptelemetry.report.gate;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.startuptelemetry.contract.ExitCodes;
import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.report.gate.Change.Cause;
import io.github.startuptelemetry.report.gate.Change.Kind;
import io.github.startuptelemetry.report.gate.Change.Times;
import io.github.startuptelemetry.report.gate.Change.Verdict;

/**
 * The regression gate's wording: a comparison's heading, speed and spread lines and summary, and
 * each change's line, as the console, {@link Compare} and the reports show them.
 */
final class ComparisonText {

	private ComparisonText() {
	}

	/** The first line of the text: what was compared, and how. */
	static String heading(int baselineRuns, Settings settings) {
		return "Compared with the baseline (" + ((baselineRuns == 1) ? "1 run" : "median of " + baselineRuns + " runs")
				+ "; a unit regresses beyond " + describe(settings) + ")";
	}

	/** {@code +25%, at least 200 ms, or 3× its baseline spread, in its work or its waiting}. */
	static String describe(Settings settings) {
		return settings.threshold()
				+ ((settings.spreadMultiplier() > 0) ? ", or " + trim(settings.spreadMultiplier()) + "× its baseline spread"
						: "")
				+ ", in its work or its waiting"
				+ (settings.speedCorrection() ? ", with the machine's load taken out" : "");
	}

	/** This run's speed factor and its CPU factor, and what they rest on, one line. */
	static String speedLine(Settings settings, Speed speed, Map<String, Speed> serverSpeeds, double stallMs) {
		if (!settings.speedCorrection()) {
			return "speed factor off: times judged as measured" + cpuFactorText(settings, speed);
		}
		if (!speed.contention().known()) {
			return "speed factor unknown: no beans or steps with CPU times (JVM counters off, or an older report),"
					+ " so times are judged as measured" + cpuFactorText(settings, speed);
		}
		StringBuilder line = new StringBuilder("speed factor ").append(times(speed.factor()));
		if (serverSpeeds.size() > 1) {
			line.append(" (")
				.append(serverSpeeds.entrySet()
					.stream()
					.map((entry) -> entry.getKey() + " " + times(entry.getValue().factor()))
					.collect(Collectors.joining(", ")))
				.append(')');
		}
		Contention met = speed.contention();
		return line.append(String.format(Locale.ROOT, ": a working thread took %.1f s of wall time per CPU second"
				+ " (20-80%%: %.1f-%.1f s, from %d beans and steps), %.1f s in the baseline", met.median(), met.low(),
				met.high(), met.units(), speed.usualContention()))
			.append(cpuFactorText(settings, speed))
			.append((stallMs > 0) ? "; stalls: 1 in 20 of the units that only worked in the baseline waited "
					+ format(stallMs) + " or more beyond it, which any unit may on top of its allowance" : "")
			.toString();
	}

	private static String cpuFactorText(Settings settings, Speed speed) {
		if (Double.isNaN(speed.cpuFactor())) {
			return "; no CPU times to compare";
		}
		return "; CPU time " + times(speed.cpuFactor()) + " (median of " + speed.cpuUnits() + " units): "
				+ ((Math.abs(speed.cpuFactor() - 1) <= settings.threshold().relative())
						? "the work is the baseline's, what changed is the load" : "the work itself changed");
	}

	/** The baseline's spread, one line: how much a unit moved between the baseline runs. */
	static String spreadLine(int baselineRuns, Settings settings, List<Change> changes) {
		if (baselineRuns < 2) {
			return "baseline spread unknown with 1 run: give 3 to 5, and a unit noisy in them needs a larger change";
		}
		List<Change> judged = changes.stream()
			.filter((change) -> change.kind() != Kind.UNIFORM && change.runs() >= 2
					&& change.wall().beforeMs() >= BaselineModel.MIN_FACTOR_CPU_MS
					&& !Double.isNaN(change.wall().spreadMs()))
			.toList();
		if (judged.isEmpty()) {
			return "baseline spread: no unit of at least 50 ms is in two baseline runs";
		}
		List<Double> relative = judged.stream().map((change) -> change.wall().spreadMs() / change.wall().beforeMs()).toList();
		Change widest = judged.stream()
			.max((a, b) -> Double.compare(a.wall().spreadMs() / a.wall().beforeMs(),
					b.wall().spreadMs() / b.wall().beforeMs()))
			.orElseThrow();
		return String.format(Locale.ROOT,
				"baseline spread (%s over its runs, each at the baseline's usual load): a unit's wall time ±%.0f%%"
						+ " (median of %d units), widest %s %s ±%s (%.0f%%): a unit needs a change beyond %s its spread",
				Robust.spreadName(baselineRuns), 100 * Robust.median(relative), judged.size(), widest.server(),
				widest.unit(), format(widest.wall().spreadMs()),
				100 * widest.wall().spreadMs() / widest.wall().beforeMs(), trim(settings.spreadMultiplier()) + "×");
	}

	/** The whole text: the heading, the speed and spread lines, each notable change, the summary. */
	static String text(String heading, String speedLine, String spreadLine, Map<String, List<Change>> notable,
			String summary) {
		StringBuilder out = new StringBuilder(heading).append(":\n  ")
			.append(speedLine)
			.append("\n  ")
			.append(spreadLine)
			.append('\n');
		if (notable.isEmpty()) {
			out.append("  no server, stage, phase, step or slow bean changed beyond its allowance\n");
		}
		notable.values()
			.forEach((changes) -> changes.forEach((change) -> out.append("  ").append(line(change)).append('\n')));
		out.append(summary);
		return out.toString();
	}

	/** The verdict, one line: the culprits by name and by how much, and the exit code. */
	static String summary(List<Change> regressions, List<Change> culprits) {
		if (regressions.isEmpty()) {
			return "no regression";
		}
		return "startup regressed: " + culprits.stream().map(ComparisonText::culprit).collect(Collectors.joining(", "))
				+ " (" + regressions.size() + " regressed unit(s) in all), exit code " + ExitCodes.STARTUP_REGRESSED;
	}

	/** {@code model-1 bean modelLoader waited +1.0 s}, for the summary. */
	static String culprit(Change change) {
		String who = change.server() + " " + change.unit();
		return switch (change.cause()) {
			case UNIFORM -> change.server() + " uniformly (CPU time " + times(change.wall().afterMs() / change.wall().beforeMs())
					+ ")";
			case NEW -> who + " (new, " + format(change.wall().afterMs()) + ")";
			case WORK -> who + " (CPU time " + signed(change.cpu().excessMs()) + percent(change.cpu()) + ")";
			case WAIT -> who + " (waited " + signed(change.waiting().excessMs()) + ")";
			case WORK_AND_WAIT -> who + " (CPU time " + signed(change.cpu().excessMs()) + percent(change.cpu()) + ", waited "
					+ signed(change.waiting().excessMs()) + ")";
			default -> who + " (" + signed(change.wall().excessMs()) + percent(change.wall()) + ")";
		};
	}

	/**
	 * {@code REGRESSED model-1 bean modelLoader 1.5 s → 2.5 s: waited +1.0 s more than the baseline's 1.5 s
	 * (median of 3 runs ±8 ms), allowed +375 ms; ...}.
	 */
	static String line(Change change) {
		String word = change.regression() ? "REGRESSED" : (change.verdict() == Verdict.FASTER) ? "faster" : "same";
		return String.format(Locale.ROOT, "%-9s %s %s", word, change.server(), change.unit()) + " " + detail(change);
	}

	/** {@link #line(Change)} after the unit: by how much, against which baseline statistic, allowed how much. */
	static String detail(Change change) {
		if (change.kind() == Kind.UNIFORM) {
			return String.format(Locale.ROOT,
					"%s in its stages, phases and beans alike (median of %d units; its stages %s → %s),"
							+ " allowed ×%.2f to ×%.2f: the code or the JVM's configuration (class-data sharing, JIT"
							+ " flags) or the CPU itself changed, not the machine's load",
					times(change.wall().afterMs() / change.wall().beforeMs()), change.runs(), format(change.wall().beforeMs()),
					format(change.wall().afterMs()), 1 - change.wall().allowedMs() / change.wall().beforeMs(),
					1 + change.wall().allowedMs() / change.wall().beforeMs());
		}
		if (change.cause() == Cause.NEW && change.kind() == Kind.CONTEXT) {
			return "a new test context, " + format(change.wall().afterMs()) + ": in no baseline run (a test"
					+ " configuration no earlier context could serve; the test report says why it was new); allowed "
					+ format(change.cpu() != null ? change.cpu().allowedMs() : change.wall().allowedMs());
		}
		if (change.cause() == Cause.NEW) {
			return "new, " + format(change.wall().afterMs()) + ((change.cpu() != null) ? " (CPU time " + format(change.cpu().afterMs())
					+ ", waited at least " + format(change.waiting().afterMs()) + ")" : "")
					+ ": in no baseline run (under the bean-span threshold there, or not there); allowed "
					+ format(change.cpu() != null ? change.cpu().allowedMs() : change.wall().allowedMs()) + explanation(change);
		}
		StringBuilder text = new StringBuilder(format(change.wall().beforeMs())).append(" → ")
			.append(format(change.wall().afterMs()))
			.append(": ")
			.append(statistic(change));
		if (change.cpu() == null) {
			text.append(String.format(Locale.ROOT, "; %s %s the %s expected at this run's load (CPU time unknown: the"
					+ " %s end of waiting and working), allowed ±%s", signed(change.wall().excessMs()),
					(change.wall().excessMs() >= 0) ? "over" : "under", format(change.wall().expectedMs()),
					(change.verdict() == Verdict.FASTER) ? "faster" : "slower", format(change.wall().allowedMs())));
			return text.append(explanation(change)).toString();
		}
		boolean process = change.kind().processWide();
		text.append((process && change.verdict() != Verdict.FASTER) ? "; CPU time beyond the JIT's and GC's " : "; CPU time ")
			.append(format(change.cpu().afterMs())).append(" against ").append(format(change.cpu().expectedMs()))
			.append(" expected (").append(signed(change.cpu().excessMs())).append(percent(change.cpu())).append(", allowed ±")
			.append(format(change.cpu().allowedMs())).append(')');
		text.append("; waited ").append((change.verdict() == Verdict.FASTER) ? "at most " : "at least ")
			.append(format(change.waiting().afterMs())).append(" against ").append(format(change.waiting().expectedMs()))
			.append(" (").append(signed(change.waiting().excessMs())).append(", allowed ±").append(format(change.waiting().allowedMs()))
			.append(')');
		return text.append(explanation(change)).toString();
	}

	/** Against which baseline statistic. */
	private static String statistic(Change change) {
		String spread = Double.isNaN(change.wall().spreadMs()) ? "" : " ±" + format(change.wall().spreadMs());
		return ((change.runs() == 1) ? "the baseline run's" : "baseline median of " + change.runs() + " runs" + spread)
				+ ((change.cpu() != null) ? String.format(Locale.ROOT, " (%s CPU, %s waiting)", format(change.cpu().beforeMs()),
						format(change.waiting().beforeMs())) : "");
	}

	private static String explanation(Change change) {
		return change.explainedBy().isEmpty() ? "" : "; accounted for by " + String.join(", ", change.explainedBy());
	}

	private static String percent(Times times) {
		return (times.expectedMs() > 0) ? String.format(Locale.ROOT, ", %+.0f%%", 100 * times.excessMs() / times.expectedMs())
				: "";
	}

	private static String signed(double ms) {
		return ((ms >= 0) ? "+" : "-") + format(Math.abs(ms));
	}

	static String format(double ms) {
		return Durations.format(Math.round(ms * 1_000_000));
	}

	static String times(double factor) {
		return String.format(Locale.ROOT, "×%.2f", factor);
	}

	private static String trim(double value) {
		return (value == Math.rint(value)) ? Long.toString((long) value) : Double.toString(value);
	}

}
