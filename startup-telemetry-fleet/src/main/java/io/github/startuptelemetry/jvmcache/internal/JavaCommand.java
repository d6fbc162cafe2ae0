package io.github.startuptelemetry.jvmcache.internal;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * A server's command read as the {@code java} launcher reads it: the binary, the JVM's options,
 * what it runs ({@code -jar <jar>}, or {@code -cp <jars> <main class>}) and the application's
 * arguments. What the caches cannot serve says why ({@link #problem()}) and starts as it is.
 *
 * @param java the {@code java} binary as the command names it
 * @param options the JVM options before what it runs, as given
 * @param jar the jar of {@code -jar}, or {@code null}
 * @param classPath the entries of {@code -cp} (for a main class), or empty
 * @param mainClass the main class of a class-path launch, or {@code null}
 * @param arguments the application's arguments
 * @param problem why the caches cannot serve it, or {@code null}
 * @param notJava whether the command does not run {@code java} at all
 */
record JavaCommand(String java, List<String> options, @Nullable String jar, List<String> classPath,
		@Nullable String mainClass, List<String> arguments, @Nullable String problem, boolean notJava) {

	/** Options that take the next argument as their value. */
	private static final Set<String> WITH_VALUE = Set.of("-cp", "-classpath", "--class-path", "-p", "--module-path",
			"--upgrade-module-path", "--add-modules", "--add-exports", "--add-opens", "--add-reads", "--patch-module",
			"--limit-modules", "--enable-native-access", "--system");

	/** Options that say the command manages class data sharing itself: the caches leave it be. */
	private static final List<String> OWN_SHARING = List.of("-Xshare", "-XX:SharedArchiveFile",
			"-XX:ArchiveClassesAtExit", "-XX:+AutoCreateSharedArchive", "-XX:AOTCache", "-XX:AOTMode",
			"-XX:AOTConfiguration", "-XX:AOTCacheOutput", "-XX:SharedClassListFile", "-XX:DumpLoadedClassList");

	JavaCommand {
		options = List.copyOf(options);
		classPath = List.copyOf(classPath);
		arguments = List.copyOf(arguments);
	}

	/** Read a command (its placeholders filled in). */
	static JavaCommand parse(List<String> command) {
		if (command.isEmpty()) {
			return notJava("", "an empty command");
		}
		String program = command.get(0);
		String file = Path.of(program).getFileName() != null ? Path.of(program).getFileName().toString() : program;
		if (!file.equals("java") && !file.equals("java.exe")) {
			return notJava(program, "not a Java command: it runs " + file);
		}
		List<String> options = new ArrayList<>();
		List<String> classPath = new ArrayList<>();
		for (int i = 1; i < command.size(); i++) {
			String arg = command.get(i);
			if (arg.startsWith("@")) {
				return unsupported(program, options, "an argument file (" + arg + ") is not read for the cache's key");
			}
			if (arg.equals("-jar")) {
				if (i + 1 >= command.size()) {
					return unsupported(program, options, "-jar without a jar");
				}
				return checked(new JavaCommand(program, options, command.get(i + 1), List.of(), null,
						command.subList(i + 2, command.size()), null, false));
			}
			if (arg.equals("-m") || arg.equals("--module") || arg.startsWith("--module=")) {
				return unsupported(program, options, "a module launch (" + arg + ") is not supported: run a jar");
			}
			if (arg.equals("--source") || arg.startsWith("--source=")) {
				return unsupported(program, options, "a source-file launch is not supported");
			}
			if (arg.equals("-version") || arg.equals("--version") || arg.equals("-help") || arg.equals("--help")) {
				return unsupported(program, options, "it runs no application (" + arg + ")");
			}
			if (WITH_VALUE.contains(arg)) {
				if (i + 1 >= command.size()) {
					return unsupported(program, options, arg + " without a value");
				}
				String value = command.get(++i);
				if (arg.equals("-cp") || arg.equals("-classpath") || arg.equals("--class-path")) {
					classPath = List.of(value.split(File.pathSeparator));
				}
				else {
					options.add(arg);
					options.add(value);
				}
				continue;
			}
			if (arg.startsWith("--class-path=")) {
				classPath = List.of(arg.substring("--class-path=".length()).split(File.pathSeparator));
				continue;
			}
			if (!arg.startsWith("-")) {
				if (classPath.isEmpty()) {
					return unsupported(program, options, "a main class without -cp (the class path of CLASSPATH is not "
							+ "read for the cache's key)");
				}
				return checked(new JavaCommand(program, options, null, classPath, arg,
						command.subList(i + 1, command.size()), null, false));
			}
			options.add(arg);
		}
		return unsupported(program, options, "it names neither -jar nor a main class");
	}

	/** The command with what makes it unusable for a cache found, if anything. */
	private static JavaCommand checked(JavaCommand command) {
		String own = ownSharingFlag(command.options());
		if (own != null) {
			return command.withProblem("it manages class data sharing itself (" + own + ")");
		}
		for (String entry : command.classPath()) {
			if (entry.endsWith("*")) {
				return command.withProblem("a class path wildcard (" + entry + ") cannot be cached: list the jars");
			}
			if (!entry.endsWith(".jar") && !entry.endsWith(".zip")) {
				return command.withProblem("a class path directory (" + entry + ") cannot be cached: only jars can");
			}
		}
		return command;
	}

	/** The first option of {@code options} that manages class data sharing, or {@code null}. */
	static @Nullable String ownSharingFlag(List<String> options) {
		for (String option : options) {
			for (String flag : OWN_SHARING) {
				if (option.startsWith(flag)) {
					return option;
				}
			}
		}
		return null;
	}

	private static JavaCommand notJava(String program, String problem) {
		return new JavaCommand(program, List.of(), null, List.of(), null, List.of(), problem, true);
	}

	private static JavaCommand unsupported(String program, List<String> options, String problem) {
		return new JavaCommand(program, options, null, List.of(), null, List.of(), problem, false);
	}

	private JavaCommand withProblem(String problem) {
		return new JavaCommand(this.java, this.options, this.jar, this.classPath, this.mainClass, this.arguments,
				problem, false);
	}

	/**
	 * The options that decide whether a JVM takes a cache, for its key: all but system
	 * properties (they change what an application loads, not whether a cache fits: at worst a
	 * lower share of classes comes from it, which the report shows) and logging.
	 */
	List<String> keyOptions() {
		List<String> key = new ArrayList<>();
		for (String option : this.options) {
			if (!option.startsWith("-D") && !option.startsWith("-Xlog") && !option.startsWith("-verbose")) {
				key.add(option);
			}
		}
		return key;
	}

	/**
	 * The {@code java} binary this command runs: as named when it is a path, else looked up on
	 * {@code PATH}; {@code null} when there is none.
	 */
	@Nullable Path binary(@Nullable Path workingDir, @Nullable String pathVariable) {
		Path named = Path.of(this.java);
		if (this.java.contains(File.separator)) {
			Path resolved = (named.isAbsolute() || workingDir == null) ? named : workingDir.resolve(named);
			return Files.isExecutable(resolved) ? resolved.toAbsolutePath().normalize() : null;
		}
		if (pathVariable != null) {
			for (String dir : pathVariable.split(File.pathSeparator)) {
				Path candidate = Path.of(dir.isEmpty() ? "." : dir, this.java);
				if (Files.isExecutable(candidate)) {
					return candidate.toAbsolutePath().normalize();
				}
			}
		}
		return null;
	}

	/**
	 * This command starting with the cache: {@code java}, then {@code cacheOptions}, the
	 * command's own options, and {@code jar} (or the class path and main class) with the
	 * arguments of {@code current}, which may be another replica's or round's expansion of the
	 * same command.
	 */
	static List<String> withCache(JavaCommand current, List<String> cacheOptions, @Nullable String jar) {
		List<String> command = new ArrayList<>();
		command.add(current.java());
		command.addAll(cacheOptions);
		command.addAll(current.options());
		if (current.jar() != null) {
			command.add("-jar");
			command.add((jar != null) ? jar : current.jar());
		}
		else {
			command.add("-cp");
			command.add(String.join(File.pathSeparator, current.classPath()));
			command.add(current.mainClass());
		}
		command.addAll(current.arguments());
		return command;
	}

}
