package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The classes a real JVM loaded, read from its {@code -Xlog:class+load} file
 * ({@link #jvmArg(Path)}): one {@code [time][info][class,load] <name> source: <where>} line
 * per class, hidden classes (lambdas) included, named after the class that defined them.
 */
public final class ClassLoadLog {

	/** The default decorations: {@code [uptime][level][tags]}; the uptime in seconds since the JVM started. */
	private static final Pattern LINE = Pattern.compile("^(?:\\[([\\d.]+)s\\])?.*\\[class,load\\] (\\S+) (?:source: )?(.*)");

	private final List<Loaded> classes;

	private ClassLoadLog(List<Loaded> classes) {
		this.classes = classes;
	}

	/** The JVM option that writes the log {@link #read(Path)} reads. */
	public static String jvmArg(Path file) {
		return "-Xlog:class+load=info:file=" + file;
	}

	public static ClassLoadLog read(Path file) throws IOException {
		return new ClassLoadLog(Files.readAllLines(file)
			.stream()
			.map(LINE::matcher)
			.filter(Matcher::find)
			.map((m) -> new Loaded(m.group(2), m.group(3).strip(),
					(m.group(1) != null) ? Double.parseDouble(m.group(1)) : Double.NaN))
			.toList());
	}

	public List<Loaded> all() {
		return this.classes;
	}

	/** Names of the loaded classes in {@code packagePrefix} (e.g. {@code "zipkin2."}), in load order. */
	public List<String> inPackage(String packagePrefix) {
		return this.classes.stream().map(Loaded::name).filter((name) -> name.startsWith(packagePrefix)).toList();
	}

	/**
	 * One loaded class; {@code source} is a jar, {@code shared objects file}, or the defining class
	 * of a hidden one; {@code uptime} when it was loaded, in seconds of the JVM's uptime (what
	 * Boot's "process running for" counts too), {@code NaN} if the log has no uptime.
	 */
	public record Loaded(String name, String source, double uptime) {

		/** The name without a hidden class's unstable suffix ({@code Foo$$Lambda$1066/0x...} → {@code Foo$$Lambda}). */
		public String stableName() {
			return this.name.replaceAll("\\$\\$Lambda.*", "\\$\\$Lambda").replaceAll("/0x\\p{XDigit}+$", "");
		}

	}

}
