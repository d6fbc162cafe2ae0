package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** JDKs on this machine beside the one running the tests: for what only a newer JDK has (the AOT cache), and the Boot lines' JDK matrix. */
public final class Jdks {

	private Jdks() {
	}

	/**
	 * The {@code java} of a JDK 25 or later: {@code JDK25_HOME}'s, else the first
	 * {@code /usr/lib/jvm/*-25*} (to {@code -29*}); {@code null} when there is none.
	 */
	public static Path jdk25() throws IOException {
		return find("JDK25_HOME", ".*-2[5-9]([.-].*)?");
	}

	/**
	 * The {@code java} of a JDK 21: {@code JDK21_HOME}'s, else the first {@code /usr/lib/jvm/*-21*};
	 * {@code null} when there is none.
	 */
	public static Path jdk21() throws IOException {
		return find("JDK21_HOME", ".*-21([.-].*)?");
	}

	private static Path find(String homeVariable, String directoryPattern) throws IOException {
		String home = System.getenv(homeVariable);
		if (home != null && Files.isExecutable(Path.of(home, "bin", "java"))) {
			return Path.of(home, "bin", "java");
		}
		Path jvms = Path.of("/usr/lib/jvm");
		if (!Files.isDirectory(jvms)) {
			return null;
		}
		try (Stream<Path> dirs = Files.list(jvms)) {
			return dirs.filter((dir) -> dir.getFileName().toString().matches(directoryPattern))
				.map((dir) -> dir.resolve("bin/java"))
				.filter(Files::isExecutable)
				.sorted()
				.findFirst()
				.orElse(null);
		}
	}

}
