package io.github.startuptelemetry.bench.process;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.LauncherSession;

import io.github.startuptelemetry.it.support.TestContextsDemo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench/run.sh tests [PAIRS]}: what startup-telemetry-test costs a test suite's context
 * starts (issue 37, at most 1%). The test-contexts demo (two Boot test contexts per JVM, its slow
 * bean's sleep set to 0) is compiled once by a Maven of its own; then, pair by pair, one JVM runs
 * its test classes through a launcher session with startup-telemetry-test on the class path and
 * one without it (the starter is on both: it is the application's), in alternating order. Each
 * JVM reports how long its contexts took and its session's close (where the report is written);
 * the parent times the process from spawn to exit. Medians of the pairs' differences and ratios.
 */
class TestContextCostBenchmark {

	private static final Duration TIMEOUT = Duration.ofMinutes(3);

	private static final int CONTEXTS_PER_JVM = 2;

	private static final List<String> TEST_CLASSES = List.of("demo.CatalogueTest", "demo.GreetingTest");

	private static final Pattern RESULT = Pattern.compile("tests=(\\d+) failed=(\\d+) executeNs=(\\d+) closeNs=(\\d+)");

	@TempDir
	Path tmp;

	@Test
	void contextStartsWithAndWithoutStartupTelemetryTest() throws Exception {
		BenchReport md = new BenchReport("What startup-telemetry-test costs a test context's start",
				"bench/run.sh tests");
		int pairs = Integer.getInteger("bench.runs", 10);
		TestContextsDemo demo = TestContextsDemo.copy(this.tmp);
		Path classpathFile = this.tmp.resolve("classpath.txt");
		TestContextsDemo.Build build = demo.maven(Map.of(), TIMEOUT, "-q", "test-compile", "dependency:build-classpath",
				"-Dmdep.includeScope=test", "-Dmdep.outputFile=" + classpathFile);
		assertThat(build.exitCode()).as(build.output()).isZero();
		List<String> with = classpath(demo.project(), classpathFile);
		List<String> without = with.stream().filter((entry) -> !isTelemetryTest(entry)).toList();
		assertThat(with.size() - without.size()).as("startup-telemetry-test and the fleet module it brings").isEqualTo(2);
		List<double[][]> pairsMeasured = new ArrayList<>();
		for (int pair = 0; pair < pairs; pair++) {
			double[] on;
			double[] off;
			if (pair % 2 == 0) {
				on = run(demo.project(), with, pair, "with");
				off = run(demo.project(), without, pair, "without");
			}
			else {
				off = run(demo.project(), without, pair, "without");
				on = run(demo.project(), with, pair, "with");
			}
			pairsMeasured.add(new double[][] { on, off });
			System.err.printf("pair %d/%d: contexts %.0f vs %.0f ms, close %.0f vs %.0f ms, process %.0f vs %.0f ms%n",
					pair + 1, pairs, on[0], off[0], on[1], off[1], on[2], off[2]);
		}
		md.line("%d pairs, interleaved (with first in even pairs, without first in odd ones). Each JVM runs the demo's "
				+ "`CatalogueTest` and `GreetingTest` (with its `@Nested WhenMocked`: %d contexts) through a JUnit "
				+ "launcher session (`TestContextsRun`), `-XX:TieredStopAtLevel=1 -XX:+UseSerialGC` as the demo's "
				+ "Surefire, `-Ddemo.catalogue.ms=0` (no artificial slow bean: the contexts are Boot's own startup). "
				+ "*with*: startup-telemetry-test (and startup-telemetry-fleet, which it brings) on the test class "
				+ "path, its report written to a directory of the run's own; *without*: the same class path "
				+ "without them. *contexts*: the launcher's run of the classes (their %d context starts, trivial "
				+ "tests); *end of run*: the session's close (where the report is written, once per JVM); "
				+ "*process*: spawn to exit, as the parent sees it.", pairs, CONTEXTS_PER_JVM, CONTEXTS_PER_JVM);
		md.line("");
		md.line("| measure | with, median (ms) | without, median (ms) | difference, median of pairs (ms) | ratio, median of pairs |");
		md.line("|---|---|---|---|---|");
		String[] measures = { "contexts", "end of run", "process" };
		double[] differences = new double[measures.length];
		double[] ratios = new double[measures.length];
		for (int m = 0; m < measures.length; m++) {
			Samples on = new Samples();
			Samples off = new Samples();
			Samples difference = new Samples();
			Samples ratio = new Samples();
			for (double[][] measured : pairsMeasured) {
				on.add(measured[0][m]);
				off.add(measured[1][m]);
				difference.add(measured[0][m] - measured[1][m]);
				ratio.add(measured[0][m] / measured[1][m]);
			}
			differences[m] = difference.median();
			ratios[m] = ratio.median();
			md.line("| %s | %.0f | %.0f | %+.1f | %.4f |", measures[m], on.median(), off.median(), differences[m],
					ratios[m]);
		}
		md.line("");
		md.line("Per context start (the contexts' difference over their %d starts): %+.1f ms, %+.2f%% (target ≤ 1%%): "
				+ "%s. The end of run is once per test JVM, whatever its number of contexts.", CONTEXTS_PER_JVM,
				differences[0] / CONTEXTS_PER_JVM, 100 * (ratios[0] - 1),
				(pairs < 5) ? "too few pairs for a verdict"
						: BenchReport.verdict(ratios[0] <= 1.01) + " (on the median alone: repeat in a quiet window)");
		md.line("");
		md.line("| pair | contexts with / without (ms) | end of run with / without (ms) | process with / without (ms) |");
		md.line("|---|---|---|---|");
		for (int i = 0; i < pairsMeasured.size(); i++) {
			double[] on = pairsMeasured.get(i)[0];
			double[] off = pairsMeasured.get(i)[1];
			md.line("| %d | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f |", i + 1, on[0], off[0], on[1], off[1], on[2], off[2]);
		}
		md.write("test-contexts-cost");
		assertThat(pairsMeasured).hasSize(pairs);
	}

	/** One JVM's run: its contexts' time, its end of run and its process, in milliseconds. */
	private double[] run(Path project, List<String> classpath, int pair, String variant) throws Exception {
		Path log = this.tmp.resolve(variant + "-" + pair + ".log");
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Ddemo.catalogue.ms=0",
				"-Dstartup.telemetry.test-report.dir=" + this.tmp.resolve("reports").resolve(variant + "-" + pair),
				"-cp", String.join(File.pathSeparator, classpath), TestContextsRun.class.getName()));
		command.addAll(TEST_CLASSES);
		ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		builder.environment().keySet().removeIf((name) -> name.startsWith("OTEL_") || name.startsWith("TELEMETRY_"));
		long start = System.nanoTime();
		Process process = builder.start();
		try {
			assertThat(process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as(log.toString()).isTrue();
			double wallMs = (System.nanoTime() - start) / 1e6;
			String output = Files.readString(log, StandardCharsets.UTF_8);
			Matcher result = RESULT.matcher(output);
			assertThat(result.find()).as(output).isTrue();
			assertThat(result.group(2)).as(output).isEqualTo("0");
			assertThat(Integer.parseInt(result.group(1))).as(output).isEqualTo(3);
			assertThat(output.contains("[startup-telemetry] Test contexts: " + CONTEXTS_PER_JVM + " created"))
				.as(output)
				.isEqualTo(variant.equals("with"));
			return new double[] { Long.parseLong(result.group(3)) / 1e6, Long.parseLong(result.group(4)) / 1e6, wallMs };
		}
		finally {
			process.destroyForcibly();
		}
	}

	/**
	 * The demo's test class path: its classes, its dependencies, the JUnit launcher (which
	 * Surefire adds) and the child's main class.
	 */
	private static List<String> classpath(Path project, Path classpathFile) throws Exception {
		List<String> entries = new ArrayList<>();
		entries.add(project.resolve("target/test-classes").toString());
		entries.add(project.resolve("target/classes").toString());
		entries.addAll(Arrays.asList(Files.readString(classpathFile, StandardCharsets.UTF_8).strip().split(File.pathSeparator)));
		entries.add(location(LauncherSession.class));
		entries.add(location(TestContextsRun.class));
		return entries;
	}

	private static String location(Class<?> type) throws Exception {
		return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
	}

	private static boolean isTelemetryTest(String entry) {
		String name = Path.of(entry).getFileName().toString();
		return name.startsWith("startup-telemetry-test-") || name.startsWith("startup-telemetry-fleet-");
	}

}
