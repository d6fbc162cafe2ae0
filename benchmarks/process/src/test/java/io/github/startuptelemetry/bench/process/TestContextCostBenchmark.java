package io.github.startuptelemetry.bench.process;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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

import io.github.startuptelemetry.bench.process.TestContextAttribution.Attribution;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.TestContextsDemo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench/run.sh tests [PAIRS]}: what startup-telemetry-test costs a test suite's context
 * starts (issue 37, at most 1%). The test-contexts demo (two Boot test contexts per JVM, its slow
 * bean's sleep set to 0) is compiled once by a Maven of its own; then, pair by pair, one JVM runs
 * its test classes through a launcher session with startup-telemetry-test on the class path and
 * one without it (the starter is on both: it is the application's), in alternating order. Each
 * JVM reports how long its tests took and its session's close (where the report is written);
 * the parent times the process from spawn to exit. A third JVM per pair, with Flight Recorder,
 * says how much of it was the module's own code ({@link TestContextAttribution}): per context
 * start against the 1% target, and the end of the run apart, once per JVM.
 */
class TestContextCostBenchmark {

	private static final Duration TIMEOUT = Duration.ofMinutes(3);

	private static final int CONTEXTS_PER_JVM = 2;

	private static final List<String> TEST_CLASSES = List.of("demo.CatalogueTest", "demo.GreetingTest");

	private static final Pattern RESULT = Pattern.compile(
			"tests=(\\d+) failed=(\\d+) executeNs=(\\d+) closeNs=(\\d+) executeCpuNs=(\\d+) closeCpuNs=(\\d+) "
					+ "executedEpochMs=(\\d+)");

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
		Path settings = SampleJars.repositoryRoot().resolve("benchmarks/startup-cost/startup-attribution.jfc");
		List<double[][]> pairsMeasured = new ArrayList<>();
		List<Attribution> attributions = new ArrayList<>();
		for (int pair = 0; pair < pairs; pair++) {
			double[] on;
			double[] off;
			if (pair % 2 == 0) {
				on = run(demo.project(), with, pair, "with", List.of());
				off = run(demo.project(), without, pair, "without", List.of());
			}
			else {
				off = run(demo.project(), without, pair, "without", List.of());
				on = run(demo.project(), with, pair, "with", List.of());
			}
			pairsMeasured.add(new double[][] { on, off });
			// a third JVM, outside the pair: Flight Recorder's own cost must not be in the pair's
			Path jfr = this.tmp.resolve("attribution-" + pair + ".jfr");
			double[] recorded = run(demo.project(), with, pair, "recorded",
					List.of("-XX:FlightRecorderOptions:stackdepth=1024",
							"-XX:StartFlightRecording=filename=" + jfr + ",settings=" + settings));
			Attribution attribution = TestContextAttribution.read(jfr, Instant.ofEpochMilli((long) recorded[5]));
			attributions.add(attribution);
			System.err.printf("pair %d/%d: contexts %.0f vs %.0f ms (cpu %.0f vs %.0f), end of run %.0f vs %.0f ms, "
					+ "process %.0f vs %.0f ms; the module's own: %.1f ms in the tests, %.1f ms at the end%n", pair + 1,
					pairs, on[0], off[0], on[1], off[1], on[2], off[2], on[4], off[4], attribution.testsMs(),
					attribution.endMs());
		}
		md.line("%d pairs, interleaved (with first in even pairs, without first in odd ones). Each JVM runs the demo's "
				+ "`CatalogueTest` and `GreetingTest` (with its `@Nested WhenMocked`: %d contexts) through a JUnit "
				+ "launcher session (`TestContextsRun`), `-XX:TieredStopAtLevel=1 -XX:+UseSerialGC` as the demo's "
				+ "Surefire, `-Ddemo.catalogue.ms=0` (no artificial slow bean: the contexts are Boot's own startup). "
				+ "*with*: startup-telemetry-test (and startup-telemetry-fleet, which it brings) on the test class "
				+ "path, its report written to a directory of the run's own; *without*: the same class path "
				+ "without them. *tests*: the launcher's run of the classes (their %d context starts and trivial "
				+ "tests), wall and the test thread's CPU time; *end of run*: the session's close (where the report "
				+ "is written, once per JVM, after its last test); *process*: spawn to exit, as the parent sees it.",
				pairs, CONTEXTS_PER_JVM, CONTEXTS_PER_JVM);
		md.line("");
		md.line("| measure | with, median (ms) | without, median (ms) | difference, median of pairs (ms) | ratio, median of pairs |");
		md.line("|---|---|---|---|---|");
		String[] measures = { "tests, wall", "tests, test thread's CPU", "end of run, wall", "end of run, test thread's CPU",
				"process" };
		double[] differences = new double[measures.length];
		double[] ratios = new double[measures.length];
		double[] withoutMedians = new double[measures.length];
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
			withoutMedians[m] = off.median();
			md.line("| %s | %.0f | %.0f | %+.1f | %.4f |", measures[m], on.median(), off.median(), differences[m],
					ratios[m]);
		}
		Samples testsOwn = new Samples();
		Samples testsJava = new Samples();
		Samples testsLoad = new Samples();
		Samples endOwn = new Samples();
		Samples testsClasses = new Samples();
		Samples endClasses = new Samples();
		for (Attribution attribution : attributions) {
			testsOwn.add(attribution.testsMs());
			testsJava.add(attribution.testsJavaMs());
			testsLoad.add(attribution.testsLoadMs());
			endOwn.add(attribution.endMs());
			testsClasses.add(attribution.testsClasses());
			endClasses.add(attribution.endClasses());
		}
		double contextStart = withoutMedians[0] / CONTEXTS_PER_JVM;
		double perContext = testsOwn.median() / CONTEXTS_PER_JVM;
		double percent = 100 * perContext / contextStart;
		md.line("");
		md.line("**(a) Per context start**, the module's own time on the test thread during the tests (Flight Recorder in "
				+ "a third JVM per pair, `TestContextAttribution`: execution samples with a frame of "
				+ "`io.github.startuptelemetry.testcontexts` every 2 ms, and class loads of its classes or from its "
				+ "code): %.1f ms per JVM (median; %.1f ms Java, %.1f ms class loading, %.0f of its and the report's "
				+ "classes loaded, max %.1f ms), **%.2f ms per context start, %.3f%% of a context start** "
				+ "(%.0f ms: the tests' wall time without it over their %d contexts; target ≤ 1%%): %s.",
				testsOwn.median(), testsJava.median(), testsLoad.median(), testsClasses.median(), testsOwn.max(),
				perContext, percent, contextStart, CONTEXTS_PER_JVM,
				(pairs < 5) ? "too few runs for a verdict" : BenchReport.verdict(percent <= 1));
		md.line("");
		md.line("The pairs' own differences in the tests (%+.1f ms wall, %+.2f%%; %+.1f ms of the test thread's CPU, "
				+ "%+.2f%%, per context start %+.1f and %+.1f ms) are the machine's noise at this load as much as "
				+ "the module: on 2 shared cores two runs of the same class path differ by more than 1%%.",
				differences[0], 100 * (ratios[0] - 1), differences[1], 100 * (ratios[1] - 1),
				differences[0] / CONTEXTS_PER_JVM, differences[1] / CONTEXTS_PER_JVM);
		md.line("");
		md.line("**(b) End of run**, once per test JVM after its last test (the launcher session's close: the contexts "
				+ "explained, this JVM's part and the run's merged JSON and HTML written under the file lock, the "
				+ "console summary; no trace without an endpoint): **%+.1f ms wall** (median of pairs; %.0f ms of the "
				+ "test thread's CPU), of which the module's own code and class loading %.1f ms (Flight Recorder, "
				+ "%.0f classes). Not a test's time: no test runs after it.", differences[2], differences[3],
				endOwn.median(), endClasses.median());
		md.line("");
		md.line("| pair | tests with / without (ms) | test CPU with / without (ms) | end of run with / without (ms) | process with / without (ms) | module's own, tests / end (ms, recorded JVM) |");
		md.line("|---|---|---|---|---|---|");
		for (int i = 0; i < pairsMeasured.size(); i++) {
			double[] on = pairsMeasured.get(i)[0];
			double[] off = pairsMeasured.get(i)[1];
			Attribution attribution = attributions.get(i);
			md.line("| %d | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f | %.1f / %.1f |", i + 1, on[0], off[0],
					on[1], off[1], on[2], off[2], on[4], off[4], attribution.testsMs(), attribution.endMs());
		}
		md.write("test-contexts-cost");
		assertThat(pairsMeasured).hasSize(pairs);
	}

	/**
	 * One JVM's run, in milliseconds: its tests' wall and CPU time, its end of run's wall and CPU
	 * time, its process; then the epoch millisecond its tests ended.
	 */
	private double[] run(Path project, List<String> classpath, int pair, String variant, List<String> options)
			throws Exception {
		Path log = this.tmp.resolve(variant + "-" + pair + ".log");
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Ddemo.catalogue.ms=0",
				"-Dstartup.telemetry.test-report.dir=" + this.tmp.resolve("reports").resolve(variant + "-" + pair)));
		command.addAll(options);
		command.addAll(List.of("-cp", String.join(File.pathSeparator, classpath), TestContextsRun.class.getName()));
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
				.isEqualTo(!variant.equals("without"));
			return new double[] { ms(result.group(3)), ms(result.group(5)), ms(result.group(4)), ms(result.group(6)),
					wallMs, Long.parseLong(result.group(7)) };
		}
		finally {
			process.destroyForcibly();
		}
	}

	private static double ms(String nanoseconds) {
		return Long.parseLong(nanoseconds) / 1e6;
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
