package io.github.startuptelemetry.bench.process;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * What startup-telemetry-test's own code took on the test thread of one JVM, from its Flight
 * Recorder file ({@code benchmarks/startup-cost/startup-attribution.jfc}, as
 * {@code StartupAttribution} reads a server's): execution samples with a frame of the module on
 * the stack (not loading a class), times the 2 ms period, plus the class loads no other encloses
 * of the module's classes or made from its code. Split at the end of the tests (the launcher's
 * run returned): before it, what the contexts' starts paid; after it, the end of the run.
 * Wall-clock pairs cannot resolve 1% on a loaded 2-core box; this counts the module's own time
 * only, where the machine's noise moves it in proportion.
 */
final class TestContextAttribution {

	static final String MODULE = "io.github.startuptelemetry.testcontexts";

	/** The module's report brings these (the fleet module's renderers and gate). */
	static final String REPORT = "io.github.startuptelemetry.report.";

	static final double PERIOD_MS = 2;

	/**
	 * One JVM's attribution, in milliseconds and classes.
	 *
	 * @param testsJavaMs the module's Java code on the test thread during the tests
	 * @param testsLoadMs class loading for the module on the test thread during the tests
	 * @param testsClasses the module's and report's classes loaded during the tests
	 * @param endJavaMs the module's Java code after the tests (the end of the run)
	 * @param endLoadMs class loading for the module after the tests
	 * @param endClasses classes of the module and the report loaded after the tests
	 */
	record Attribution(double testsJavaMs, double testsLoadMs, int testsClasses, double endJavaMs, double endLoadMs,
			int endClasses) {

		double testsMs() {
			return this.testsJavaMs + this.testsLoadMs;
		}

		double endMs() {
			return this.endJavaMs + this.endLoadMs;
		}

	}

	private TestContextAttribution() {
	}

	static Attribution read(Path jfr, Instant testsEnded) throws IOException {
		double[] java = new double[2];
		List<RecordedEvent> loads = new ArrayList<>();
		for (RecordedEvent event : RecordingFile.readAllEvents(jfr)) {
			String type = event.getEventType().getName();
			if (type.equals("jdk.ExecutionSample") && isMain(event.getThread("sampledThread"))
					&& hasModuleFrame(event.getStackTrace()) && !loadingAClass(event.getStackTrace())) {
				java[phase(event, testsEnded)] += PERIOD_MS;
			}
			else if (type.equals("jdk.ClassLoad") && isMain(event.getThread())) {
				loads.add(event);
			}
		}
		loads.sort(Comparator.comparing(RecordedEvent::getStartTime));
		double[] load = new double[2];
		int[] classes = new int[2];
		Instant enclosingEnd = Instant.MIN;
		for (RecordedEvent event : loads) {
			String name = event.getClass("loadedClass").getName();
			boolean ours = name.startsWith(MODULE) || name.startsWith(REPORT);
			int phase = phase(event, testsEnded);
			if (ours) {
				classes[phase]++;
			}
			if (event.getStartTime().isBefore(enclosingEnd)) {
				continue; // inside an enclosing load: counted there
			}
			enclosingEnd = event.getEndTime();
			if (ours || hasModuleFrame(event.getStackTrace())) {
				load[phase] += event.getDuration().toNanos() / 1e6;
			}
		}
		return new Attribution(java[0], load[0], classes[0], java[1], load[1], classes[1]);
	}

	private static int phase(RecordedEvent event, Instant testsEnded) {
		return event.getStartTime().isBefore(testsEnded) ? 0 : 1;
	}

	private static boolean isMain(RecordedThread thread) {
		return thread != null && "main".equals(thread.getJavaName());
	}

	private static boolean hasModuleFrame(RecordedStackTrace stack) {
		return stack != null && stack.getFrames()
			.stream()
			.map(RecordedFrame::getMethod)
			.anyMatch((method) -> method.getType().getName().startsWith(MODULE));
	}

	private static boolean loadingAClass(RecordedStackTrace stack) {
		return stack != null
				&& stack.getFrames().stream().anyMatch((frame) -> frame.getMethod().getName().equals("loadClass"));
	}

}
