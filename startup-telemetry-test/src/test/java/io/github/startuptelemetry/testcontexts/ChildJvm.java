package io.github.startuptelemetry.testcontexts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A JVM of its own on this test class path, in a directory of its own: a test JVM as a build tool starts one. */
final class ChildJvm {

	private ChildJvm() {
	}

	/**
	 * Run {@code mainClass} with {@code args} in {@code directory}, with these system properties;
	 * its exit code and output (standard output and error together).
	 */
	static Result run(Path directory, Map<String, String> properties, Map<String, String> env, String mainClass,
			String... args) throws IOException, InterruptedException {
		String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-cp", classPath,
				"-Dlogging.level.root=WARN", "-Dspring.main.banner-mode=off", "-Dlogging.level.org.springframework.test.context.cache=DEBUG"));
		properties.forEach((name, value) -> command.add("-D" + name + "=" + value));
		command.add(mainClass);
		command.addAll(List.of(args));
		Path output = Files.createTempFile("child-jvm", ".log");
		ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(output.toFile());
		builder.environment().keySet().removeIf((name) -> name.startsWith("OTEL_") || name.startsWith("TELEMETRY_"));
		builder.environment().putAll(env);
		Process process = builder.start();
		try {
			if (!process.waitFor(5, TimeUnit.MINUTES)) {
				throw new IllegalStateException("The child JVM did not end in 5 minutes");
			}
			return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
		}
		finally {
			process.destroyForcibly();
			Files.deleteIfExists(output);
		}
	}

	/**
	 * How a child JVM ended.
	 *
	 * @param exitCode its exit code
	 * @param output what it printed
	 */
	record Result(int exitCode, String output) {

	}

}
