package io.github.startuptelemetry.report.gate;


import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.startuptelemetry.contract.ExitCodes;
import io.github.startuptelemetry.report.gate.ReportTimes.ServerTimes;

/**
 * Compares JSON startup reports without starting anything, for CI jobs that collect reports
 * from elsewhere; needs nothing but the gate's two jars:
 * <pre>
 * java -cp startup-telemetry-autoconfigure.jar:startup-telemetry-fleet.jar io.github.startuptelemetry.report.gate.Compare \
 *     [--max-regression=25%,200ms] [--stage-max-regression=beans_instantiated=40%,500ms ...] \
 *     [--spread-multiplier=3] [--speed-correction=true] \
 *     base.json [more-base.json ...] new.json
 * </pre>
 * The last report is the new one; the others are the baseline (their median and spread). Test
 * reports ({@code startup-test-report.json}, {@code kind} {@code tests}) are compared context by
 * context, and a context in no baseline report fails the gate as new. The
 * options are those of {@code telemetry.supervisor.report.*}, judged by {@link ReportComparison}.
 * Prints what got slower or faster and exits 0, {@link ExitCodes#STARTUP_REGRESSED} on a
 * regression, or {@link ExitCodes#COMPARE_UNUSABLE} when an argument or a report cannot be used.
 */
public final class Compare {

	private static final String MAX_REGRESSION = "--max-regression=";

	private static final String STAGE_MAX_REGRESSION = "--stage-max-regression=";

	private static final String SPREAD_MULTIPLIER = "--spread-multiplier=";

	private static final String SPEED_CORRECTION = "--speed-correction=";

	private Compare() {
	}

	public static void main(String[] args) {
		System.exit(run(args, System.out, System.err));
	}

	static int run(String[] args, PrintStream out, PrintStream err) {
		RegressionThreshold threshold = RegressionThreshold.DEFAULT;
		Map<String, RegressionThreshold> perStage = new LinkedHashMap<>();
		double spreadMultiplier = Settings.DEFAULT.spreadMultiplier();
		boolean speedCorrection = Settings.DEFAULT.speedCorrection();
		List<Path> reports = new ArrayList<>();
		try {
			for (String arg : args) {
				if (arg.startsWith(MAX_REGRESSION)) {
					threshold = RegressionThreshold.parse(arg.substring(MAX_REGRESSION.length()));
				}
				else if (arg.startsWith(STAGE_MAX_REGRESSION)) {
					String value = arg.substring(STAGE_MAX_REGRESSION.length());
					int equals = value.indexOf('=');
					if (equals < 1) {
						throw new IllegalArgumentException(arg + ": write --stage-max-regression=<stage>=25%,200ms");
					}
					perStage.put(value.substring(0, equals), RegressionThreshold.parse(value.substring(equals + 1)));
				}
				else if (arg.startsWith(SPREAD_MULTIPLIER)) {
					spreadMultiplier = spreadMultiplier(arg.substring(SPREAD_MULTIPLIER.length()), arg);
				}
				else if (arg.startsWith(SPEED_CORRECTION)) {
					speedCorrection = flag(arg.substring(SPEED_CORRECTION.length()), arg);
				}
				else if (arg.startsWith("--")) {
					throw new IllegalArgumentException("unknown option " + arg);
				}
				else {
					reports.add(Path.of(arg));
				}
			}
			if (reports.size() < 2) {
				throw new IllegalArgumentException("give a baseline report and the new one: Compare base.json new.json");
			}
			List<List<ServerTimes>> baselines = new ArrayList<>();
			for (Path base : reports.subList(0, reports.size() - 1)) {
				baselines.add(read(base));
			}
			ReportComparison comparison = ReportComparison.compare(baselines, read(reports.get(reports.size() - 1)),
					new Settings(threshold, perStage, spreadMultiplier, speedCorrection));
			out.println(comparison.text());
			return comparison.exitCode();
		}
		catch (IllegalArgumentException ex) {
			err.println("Compare: " + ex.getMessage());
			return ExitCodes.COMPARE_UNUSABLE;
		}
	}

	/**
	 * {@code telemetry.supervisor.report.spread-multiplier}'s value.
	 * @param text a number of at least 0
	 * @param what the argument or property, for the message
	 * @return the number
	 * @throws IllegalArgumentException naming {@code what}
	 */
	public static double spreadMultiplier(String text, String what) {
		try {
			double value = Double.parseDouble(text.strip());
			if (value >= 0 && !Double.isInfinite(value)) {
				return value;
			}
		}
		catch (NumberFormatException ex) {
			// said below
		}
		throw new IllegalArgumentException(what + ": write a number of at least 0, e.g. 3 (0: the baseline's spread is"
				+ " not used)");
	}

	private static boolean flag(String text, String what) {
		return switch (text.strip()) {
			case "true" -> true;
			case "false" -> false;
			default -> throw new IllegalArgumentException(what + ": write true or false");
		};
	}

	/** A report's servers; a file that cannot be read or is no report is an {@link IllegalArgumentException} naming it. */
	public static List<ServerTimes> read(Path report) {
		try {
			return ReportTimes.readTimes(Files.readString(report, StandardCharsets.UTF_8));
		}
		catch (IOException | RuntimeException ex) {
			throw new IllegalArgumentException(report + ": " + ex.getMessage(), ex);
		}
	}

}
