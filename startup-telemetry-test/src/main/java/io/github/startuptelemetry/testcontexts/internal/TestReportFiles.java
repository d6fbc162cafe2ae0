package io.github.startuptelemetry.testcontexts.internal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * A test JVM's end of the run: its trace, its part of the report, the run's files merged from
 * every part so far (under a file lock: parallel forks finish at once), and its console summary.
 * Each JVM of a run (Surefire's forks, Gradle's workers) writes its part; the last to finish leaves
 * the whole run in {@code startup-test-report.json} and {@code .html}.
 */
public final class TestReportFiles {

	private static final Log logger = LogFactory.getLog(TestReportFiles.class);

	private static final String PARTS = ReportDirectory.FILE_NAME;

	/** How long a JVM waits for another's merge: a fork that hangs holding the lock must not hold every other's exit. */
	static final Duration LOCK_WAIT = Duration.ofSeconds(20);

	private TestReportFiles() {
	}

	/**
	 * @param part this JVM's report (one JVM)
	 * @param directory where the run's files go
	 * @param console where the summary is printed
	 * @return the run's merged report as written
	 */
	public static synchronized TestReport finish(TestReport part, Path directory, PrintStream console)
			throws IOException {
		return finish(part, directory, console, LOCK_WAIT);
	}

	static synchronized TestReport finish(TestReport part, Path directory, PrintStream console, Duration lockWait)
			throws IOException {
		TestJvm jvm = part.jvms().get(0);
		part = part.withTraceId(jvm.pid(), trace(part, jvm));
		Path work = directory.resolve(PARTS);
		String runId = (part.runId() != null) ? part.runId() : String.valueOf(jvm.pid());
		Path parts = work.resolve(runId.replaceAll("[^A-Za-z0-9._-]", "_"));
		Files.createDirectories(parts);
		write(parts.resolve(jvm.pid() + ".json"), TestReportJson.render(part));
		TestReport merged;
		Path html = directory.resolve(ReportDirectory.FILE_NAME + ".html");
		try (FileChannel channel = FileChannel.open(work.resolve(".lock"), StandardOpenOption.CREATE,
				StandardOpenOption.WRITE); FileLock lock = lock(channel, lockWait)) {
			if (lock == null) {
				console.println("[startup-telemetry] Test contexts: another test JVM held " + work.resolve(".lock")
						+ " for " + lockWait.toSeconds() + " s; this JVM's part is in " + parts + ", not merged");
				console.flush();
				return part;
			}
			deleteOtherRuns(work, parts);
			merged = TestReport.merge(readParts(parts));
			write(directory.resolve(ReportDirectory.FILE_NAME + ".json"), TestReportJson.render(merged));
			write(html, TestReportHtml.render(merged));
		}
		console.print(TestReportConsole.render(part, merged.jvms().size(), html));
		console.flush();
		return merged;
	}

	/** The merge's lock, or {@code null} when another JVM held it for all of {@code wait}. */
	private static @Nullable FileLock lock(FileChannel channel, Duration wait) throws IOException {
		long deadline = System.nanoTime() + wait.toNanos();
		while (true) {
			FileLock lock = tryLock(channel);
			if (lock != null || System.nanoTime() - deadline >= 0) {
				return lock;
			}
			try {
				// another fork's merge takes tens of milliseconds
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return null;
			}
		}
	}

	private static @Nullable FileLock tryLock(FileChannel channel) throws IOException {
		try {
			return channel.tryLock();
		}
		catch (OverlappingFileLockException ex) {
			// held in this JVM, by another class loader's copy of this class
			return null;
		}
	}

	/** The run's trace of this JVM, where the OpenTelemetry API is and an endpoint is configured. */
	private static @Nullable String trace(TestReport part, TestJvm jvm) {
		if (!ClassUtils.isPresent("io.opentelemetry.api.OpenTelemetry", TestReportFiles.class.getClassLoader())) {
			return null;
		}
		try {
			return TestRunTrace.export(part, jvm);
		}
		catch (Exception | LinkageError ex) {
			logger.debug("Could not export the test run's trace", ex);
			return null;
		}
	}

	private static List<TestReport> readParts(Path parts) throws IOException {
		List<TestReport> reports = new ArrayList<>();
		try (DirectoryStream<Path> files = Files.newDirectoryStream(parts, "*.json")) {
			for (Path file : files) {
				try {
					reports.add(TestReportJson.read(Files.readString(file, StandardCharsets.UTF_8)));
				}
				catch (RuntimeException ex) {
					logger.debug("Skipped an unreadable part of the test report: " + file, ex);
				}
			}
		}
		return reports;
	}

	/** Earlier runs' parts: a run's files hold its own JVMs only. */
	private static void deleteOtherRuns(Path work, Path parts) throws IOException {
		try (DirectoryStream<Path> runs = Files.newDirectoryStream(work, Files::isDirectory)) {
			for (Path run : runs) {
				if (!run.equals(parts)) {
					try (Stream<Path> files = Files.walk(run)) {
						for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
							Files.deleteIfExists(file);
						}
					}
				}
			}
		}
	}

	/** Written whole or not at all: a reader never sees half a file. */
	private static void write(Path file, String text) throws IOException {
		Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
		Files.writeString(temporary, text, StandardCharsets.UTF_8);
		try {
			Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (AtomicMoveNotSupportedException ex) {
			Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
		}
	}

}
