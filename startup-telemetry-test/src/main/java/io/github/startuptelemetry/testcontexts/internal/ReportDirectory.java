package io.github.startuptelemetry.testcontexts.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * Where a test run's report goes, and which run a test JVM belongs to. Maven's Surefire and
 * Failsafe set {@code basedir} in every fork, Gradle sets {@code org.gradle.test.worker} in its
 * test workers; {@value #DIRECTORY_PROPERTY} overrides both.
 */
public final class ReportDirectory {

	/** The system property that names the report's directory. */
	public static final String DIRECTORY_PROPERTY = "startup.telemetry.test-report.dir";

	/** The report's file name, before {@code .json} and {@code .html}. */
	public static final String FILE_NAME = "startup-test-report";

	private ReportDirectory() {
	}

	/** This JVM's report directory. */
	public static Path resolve() {
		return resolve(System::getProperty, Path.of(System.getProperty("user.dir", ".")));
	}

	/**
	 * The report directory: {@value #DIRECTORY_PROPERTY}; else Maven's {@code target/} (a
	 * {@code basedir} or a {@code pom.xml} here); else Gradle's {@code build/} (a test worker, a
	 * {@code build.gradle} or {@code settings.gradle} here); else {@code build/} here.
	 * @param properties the system properties
	 * @param workingDirectory the JVM's working directory (Maven's forks and Gradle's workers run in
	 * the module's)
	 */
	static Path resolve(UnaryOperator<@Nullable String> properties, Path workingDirectory) {
		String override = properties.apply(DIRECTORY_PROPERTY);
		if (override != null && !override.isBlank()) {
			return workingDirectory.resolve(override.strip());
		}
		String basedir = properties.apply("basedir");
		if (basedir != null && !basedir.isBlank()) {
			return Path.of(basedir.strip()).resolve("target");
		}
		if (properties.apply("org.gradle.test.worker") != null) {
			return workingDirectory.resolve("build");
		}
		if (Files.exists(workingDirectory.resolve("pom.xml"))) {
			return workingDirectory.resolve("target");
		}
		return workingDirectory.resolve("build");
	}

	/**
	 * The run this JVM belongs to: the build tool's JVM that started it (a Surefire fork's Maven,
	 * a Gradle worker's daemon), by its process id and start, the same for all its test JVMs; this
	 * JVM's own without one.
	 */
	public static String runId() {
		ProcessHandle process = ProcessHandle.current();
		Optional<ProcessHandle> ancestor = process.parent();
		for (int i = 0; i < 4 && ancestor.isPresent(); i++) {
			ProcessHandle candidate = ancestor.get();
			if (candidate.info().command().map(ReportDirectory::isJava).orElse(false)) {
				return id(candidate);
			}
			ancestor = candidate.parent();
		}
		return id(process);
	}

	private static boolean isJava(String command) {
		Path name = Path.of(command).getFileName();
		return name != null && (name.toString().equals("java") || name.toString().equals("java.exe"));
	}

	private static String id(ProcessHandle process) {
		return process.pid() + "-" + process.info().startInstant().map((start) -> start.toEpochMilli()).orElse(0L);
	}

}
