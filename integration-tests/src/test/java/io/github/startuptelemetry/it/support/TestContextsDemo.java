package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The {@code test-contexts-demo} project (a user's small Boot project with startup-telemetry-test
 * in test scope), copied out and built by a Maven of its own, offline, against the reactor's jars:
 * laid out in a local repository of its own, everything else read from this build's as a
 * read-only tail (what {@code install} would have written, without touching the shared one).
 * Needs the system properties {@code startup.telemetry.version} and {@code maven.local.repository}.
 */
public final class TestContextsDemo {

	private static final List<String> MODULES = List.of("startup-telemetry-autoconfigure", "startup-telemetry-fleet",
			"startup-telemetry-starter", "startup-telemetry-test");

	private final Path project;

	private final Path repository;

	private TestContextsDemo(Path project, Path repository) {
		this.project = project;
		this.repository = repository;
	}

	/** The demo copied under {@code directory}, the reactor's jars laid out beside it. */
	public static TestContextsDemo copy(Path directory) throws IOException {
		Path root = SampleJars.repositoryRoot();
		Path demo = root.resolve("integration-tests/src/test/resources/test-contexts-demo");
		Path project = directory.resolve("demo");
		try (Stream<Path> files = Files.walk(demo)) {
			for (Path file : files.toList()) {
				Path target = project.resolve(demo.relativize(file).toString());
				if (Files.isDirectory(file)) {
					Files.createDirectories(target);
				}
				else {
					Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
				}
			}
		}
		Path repository = directory.resolve("repository");
		Path group = repository.resolve("io/github/startuptelemetry");
		put(group, "startup-telemetry-parent", root.resolve("pom.xml"), null);
		for (String module : MODULES) {
			Path jar = root.resolve(module).resolve("target").resolve(module + "-" + version() + ".jar");
			if (!Files.isRegularFile(jar)) {
				throw new IllegalStateException(jar + " does not exist: build the reactor with 'verify'");
			}
			put(group, module, root.resolve(module).resolve("pom.xml"), jar);
		}
		return new TestContextsDemo(project, repository);
	}

	/** The project's directory. */
	public Path project() {
		return this.project;
	}

	/**
	 * Run the project's Maven: the repository's wrapper, offline, with no OpenTelemetry or
	 * telemetry variables but those given.
	 * @param env variables to set
	 * @param timeout how long it may take
	 * @param arguments goals and options
	 * @return the build, ended
	 */
	public Build maven(Map<String, String> env, Duration timeout, String... arguments)
			throws IOException, InterruptedException {
		String tail = System.getProperty("maven.local.repository",
				Path.of(System.getProperty("user.home"), ".m2", "repository").toString());
		List<String> command = new ArrayList<>(List.of(SampleJars.repositoryRoot().resolve("mvnw").toString(), "-B",
				"-o", "-ntp", "-Dstyle.color=never", "-Dmaven.repo.local=" + this.repository,
				"-Dmaven.repo.local.tail=" + tail, "-Dstartup-telemetry.version=" + version(), "-f",
				this.project.resolve("pom.xml").toString()));
		command.addAll(List.of(arguments));
		Path output = Files.createTempFile(this.project.getParent(), "maven", ".log");
		ProcessBuilder builder = new ProcessBuilder(command).directory(this.project.toFile())
			.redirectErrorStream(true)
			.redirectOutput(output.toFile());
		builder.environment()
			.keySet()
			.removeIf((name) -> name.startsWith("OTEL_") || name.startsWith("TELEMETRY_") || name.equals("MAVEN_OPTS"));
		builder.environment().putAll(env);
		Process process = builder.start();
		try {
			boolean ended = process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
			String log = Files.readString(output, StandardCharsets.UTF_8);
			if (!ended) {
				throw new IllegalStateException("Maven did not end within " + timeout + ":\n" + log);
			}
			return new Build(process.exitValue(), log);
		}
		finally {
			process.descendants().forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly();
		}
	}

	private static String version() {
		String version = System.getProperty("startup.telemetry.version");
		if (version == null) {
			throw new IllegalStateException("startup.telemetry.version is not set: run the tests through Maven");
		}
		return version;
	}

	private static void put(Path group, String artifact, Path pom, Path jar) throws IOException {
		Path directory = Files.createDirectories(group.resolve(artifact).resolve(version()));
		Files.copy(pom, directory.resolve(artifact + "-" + version() + ".pom"));
		if (jar != null) {
			Files.copy(jar, directory.resolve(artifact + "-" + version() + ".jar"));
		}
	}

	/**
	 * A Maven build that ended.
	 *
	 * @param exitCode its exit code
	 * @param output what it printed
	 */
	public record Build(int exitCode, String output) {

	}

}
