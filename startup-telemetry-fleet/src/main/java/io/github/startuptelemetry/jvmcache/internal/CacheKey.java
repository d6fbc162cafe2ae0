package io.github.startuptelemetry.jvmcache.internal;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

import org.jspecify.annotations.Nullable;

/**
 * What a cache is valid for, and nothing else: what the command runs, by content, the JVM, and
 * the JVM options that decide whether a JVM takes a cache. Servers whose commands differ only in
 * their arguments or system properties (replicas) share one.
 *
 * @param target what the command runs, as an absolute path (a class path: its entries joined)
 * @param name a short name for the entry's directory (the jar's file name)
 * @param content the SHA-256 of the target's content (a class path's: of its jars' hashes)
 * @param jdk the JVM
 * @param options the options that matter, in order
 * @param bootJar whether the target is a Spring Boot executable jar, run extracted
 */
record CacheKey(String target, String name, String content, Jdk jdk, List<String> options, boolean bootJar) {

	/** The environment variables whose options the {@code java} launcher adds to its own. */
	static final List<String> OPTION_VARIABLES = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS");

	CacheKey {
		options = List.copyOf(options);
	}

	/**
	 * The key of {@code command}, run in {@code workingDir} with {@code env} on {@code jdk}.
	 * @throws IOException when what it runs cannot be read
	 * @throws IllegalArgumentException when it cannot be cached, saying why
	 */
	static CacheKey of(JavaCommand command, @Nullable Path workingDir, Map<String, String> env, Jdk jdk,
			ContentHashes hashes) throws IOException {
		List<String> options = new ArrayList<>(command.keyOptions());
		for (String variable : OPTION_VARIABLES) {
			String value = env.get(variable);
			if (value != null && !value.isBlank()) {
				List<String> extra = List.of(value.strip().split("\\s+"));
				String own = JavaCommand.ownSharingFlag(extra);
				if (own != null) {
					throw new IllegalArgumentException(variable + " manages class data sharing itself (" + own + ")");
				}
				extra.stream().filter((option) -> !option.startsWith("-D")).forEach(options::add);
			}
		}
		if (command.jar() != null) {
			Path jar = resolve(workingDir, command.jar());
			if (!Files.isRegularFile(jar)) {
				throw new IllegalArgumentException("its jar " + jar + " does not exist");
			}
			BootJar boot = BootJar.of(jar);
			if (boot == BootJar.WITHOUT_TOOLS) {
				throw new IllegalArgumentException("a Spring Boot jar without the jarmode tools cannot be extracted for "
						+ "a cache: build it with Spring Boot 3.3+ and its tools (the default)");
			}
			StringBuilder content = new StringBuilder(hashes.of(jar));
			if (boot == BootJar.NONE) {
				// a plain jar's own Class-Path is part of what it runs
				for (Path entry : manifestClassPath(jar)) {
					content.append('\n').append(hashes.of(entry));
				}
			}
			return new CacheKey(jar.toString(), fileName(jar), ContentHashes.ofText(content.toString()), jdk, options,
					boot == BootJar.WITH_TOOLS);
		}
		List<String> entries = new ArrayList<>();
		StringBuilder content = new StringBuilder();
		for (String entry : command.classPath()) {
			Path jar = resolve(workingDir, entry);
			if (!Files.isRegularFile(jar)) {
				throw new IllegalArgumentException("its class path entry " + jar + " does not exist");
			}
			entries.add(jar.toString());
			content.append(hashes.of(jar)).append('\n');
		}
		return new CacheKey(String.join(File.pathSeparator, entries) + " " + command.mainClass(),
				fileName(Path.of(entries.get(0))), ContentHashes.ofText(content.toString()), jdk, options, false);
	}

	private static Path resolve(@Nullable Path workingDir, String path) {
		Path file = Path.of(path);
		if (!file.isAbsolute()) {
			file = ((workingDir != null) ? workingDir : Path.of("")).resolve(file);
		}
		return file.toAbsolutePath().normalize();
	}

	private static String fileName(Path jar) {
		String name = jar.getFileName().toString();
		String base = name.endsWith(".jar") || name.endsWith(".war") ? name.substring(0, name.length() - 4) : name;
		String safe = base.replaceAll("[^A-Za-z0-9._-]", "_");
		return safe.isEmpty() ? "app" : safe.substring(0, Math.min(safe.length(), 40));
	}

	private static List<Path> manifestClassPath(Path jar) throws IOException {
		try (JarFile file = new JarFile(jar.toFile())) {
			Manifest manifest = file.getManifest();
			String classPath = (manifest != null) ? manifest.getMainAttributes().getValue(Attributes.Name.CLASS_PATH)
					: null;
			List<Path> entries = new ArrayList<>();
			if (classPath != null) {
				for (String entry : classPath.strip().split("\\s+")) {
					Path path = jar.getParent().resolve(entry).normalize();
					if (Files.isRegularFile(path)) {
						entries.add(path);
					}
				}
			}
			return entries;
		}
	}

	/** The whole key, hashed: an entry is valid for exactly this. */
	String id() {
		return ContentHashes.ofText(String.join("\n", this.target, this.content, this.jdk.java().toString(),
				this.jdk.runtimeVersion(), this.jdk.vendor(), String.join(" ", this.options),
				Boolean.toString(this.bootJar)));
	}

	/** The entry's directory name: readable, and unique per key. */
	String entryName() {
		return this.name + "-" + this.jdk.kind() + this.jdk.feature() + "-" + id().substring(0, 12);
	}

	/** The options as the report shows them (never a system property: those may hold secrets). */
	String optionsText() {
		return this.options.isEmpty() ? "(none)" : String.join(" ", this.options);
	}

	/** Whether a Spring Boot executable jar can be extracted (Boot 3.3+, with its tools). */
	enum BootJar {

		NONE, WITH_TOOLS, WITHOUT_TOOLS;

		static BootJar of(Path jar) throws IOException {
			try (JarFile file = new JarFile(jar.toFile())) {
				Manifest manifest = file.getManifest();
				String main = (manifest != null) ? manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS)
						: null;
				if (main == null || !main.startsWith("org.springframework.boot.loader.")) {
					return NONE;
				}
				boolean tools = file.stream()
					.anyMatch((entry) -> entry.getName().toLowerCase(Locale.ROOT).contains("/spring-boot-jarmode-tools"));
				return tools ? WITH_TOOLS : WITHOUT_TOOLS;
			}
		}

	}

}
