package io.github.startuptelemetry.report;

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
import io.github.startuptelemetry.report.JsonReport.ServerTimes;

/**
 * Compares JSON startup reports without starting anything, for CI jobs that collect reports
 * from elsewhere; needs nothing but the starter's jar:
 * <pre>
 * java -cp startup-telemetry-autoconfigure.jar io.github.startuptelemetry.report.Compare \
 *     [--max-regression=25%,200ms] [--stage-max-regression=beans_instantiated=40%,500ms ...] \
 *     base.json [more-base.json ...] new.json
 * </pre>
 * The last report is the new one; the others are the baseline (their median). Prints what got
 * slower or faster and exits 0, {@link ExitCodes#STARTUP_REGRESSED} on a regression, or
 * {@link ExitCodes#COMPARE_UNUSABLE} when an argument or a report cannot be used.
 */
public final class Compare {

	private static final String MAX_REGRESSION = "--max-regression=";

	private static final String STAGE_MAX_REGRESSION = "--stage-max-regression=";

	private Compare() {
	}

	public static void main(String[] args) {
		System.exit(run(args, System.out, System.err));
	}

	static int run(String[] args, PrintStream out, PrintStream err) {
		RegressionThreshold threshold = RegressionThreshold.DEFAULT;
		Map<String, RegressionThreshold> perStage = new LinkedHashMap<>();
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
					threshold, perStage);
			out.println(comparison.text());
			return comparison.exitCode();
		}
		catch (IllegalArgumentException ex) {
			err.println("Compare: " + ex.getMessage());
			return ExitCodes.COMPARE_UNUSABLE;
		}
	}

	/** A report's servers; a file that cannot be read or is no report is an {@link IllegalArgumentException} naming it. */
	public static List<ServerTimes> read(Path report) {
		try {
			return JsonReport.readTimes(Files.readString(report, StandardCharsets.UTF_8));
		}
		catch (IOException | RuntimeException ex) {
			throw new IllegalArgumentException(report + ": " + ex.getMessage(), ex);
		}
	}

}
