package io.github.startuptelemetry.docs;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's root, found from wherever the tests run (a module directory, usually). */
final class RepositoryRoot {

	private RepositoryRoot() {
	}

	static Path find() {
		Path dir = Path.of("").toAbsolutePath();
		while (dir != null) {
			if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("docs"))) {
				return dir;
			}
			dir = dir.getParent();
		}
		throw new IllegalStateException("No repository root (a directory with mvnw and docs/) above "
				+ Path.of("").toAbsolutePath());
	}

}
