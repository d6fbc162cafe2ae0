package io.github.startuptelemetry.jvmcache.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The JDK a {@code java} binary belongs to, and the cache it supports: an AOT cache on JDK 24+, a
 * dynamic AppCDS archive on JDK 13 to 23, none below.
 *
 * @param java the binary, symbolic links resolved
 * @param runtimeVersion its full runtime version ({@code 25.0.3+9-LTS}): a cache fits one build only
 * @param vendor who built it ({@code Eclipse Adoptium})
 * @param feature its feature release ({@code 25})
 */
record Jdk(Path java, String runtimeVersion, String vendor, int feature) {

	/** How long asking a binary for its version may take, when its JDK has no {@code release} file. */
	private static final long ASK_TIMEOUT_SECONDS = 30;

	/**
	 * The JDK of {@code java}: what its {@code release} file says (every JDK writes one beside
	 * {@code bin/}, the same facts {@code java -version} prints), else what the binary says
	 * when asked ({@code -XshowSettings:properties -version}).
	 * @throws IOException when neither says
	 */
	static Jdk of(Path java) throws IOException {
		Path binary = java.toRealPath();
		Path home = (binary.getParent() != null) ? binary.getParent().getParent() : null;
		Path release = (home != null) ? home.resolve("release") : null;
		if (release != null && Files.isRegularFile(release)) {
			Properties values = new Properties();
			try (InputStream in = Files.newInputStream(release)) {
				values.load(in);
			}
			String version = unquote(values.getProperty("JAVA_RUNTIME_VERSION"));
			if (version == null) {
				version = unquote(values.getProperty("JAVA_VERSION"));
			}
			String vendor = unquote(values.getProperty("IMPLEMENTOR"));
			if (version != null) {
				return new Jdk(binary, version, (vendor != null) ? vendor : "unknown", feature(version));
			}
		}
		return ask(binary);
	}

	private static Jdk ask(Path binary) throws IOException {
		Process process = new ProcessBuilder(binary.toString(), "-XshowSettings:properties", "-version")
			.redirectErrorStream(true)
			.start();
		process.getOutputStream().close();
		String output;
		try (InputStream in = process.getInputStream()) {
			output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		try {
			if (!process.waitFor(ASK_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IOException(binary + " -version did not answer within " + ASK_TIMEOUT_SECONDS + " s");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			process.destroyForcibly();
			throw new IOException("interrupted while asking " + binary + " for its version", ex);
		}
		String version = property(output, "java.runtime.version");
		String vendor = property(output, "java.vendor");
		if (version == null) {
			throw new IOException(binary + " did not say its version (no release file in its JDK either)");
		}
		return new Jdk(binary, version, (vendor != null) ? vendor : "unknown", feature(version));
	}

	private static @Nullable String property(String settings, String name) {
		for (String line : settings.lines().toList()) {
			String stripped = line.strip();
			if (stripped.startsWith(name + " = ")) {
				return stripped.substring(name.length() + 3).strip();
			}
		}
		return null;
	}

	private static @Nullable String unquote(@Nullable String value) {
		if (value == null) {
			return null;
		}
		String stripped = value.strip();
		return (stripped.length() >= 2 && stripped.startsWith("\"") && stripped.endsWith("\""))
				? stripped.substring(1, stripped.length() - 1) : stripped;
	}

	/** {@code 25.0.3+9-LTS} → 25, {@code 1.8.0_392} → 8. */
	static int feature(String version) {
		String digits = version.startsWith("1.") ? version.substring(2) : version;
		int end = 0;
		while (end < digits.length() && Character.isDigit(digits.charAt(end))) {
			end++;
		}
		try {
			return Integer.parseInt(digits.substring(0, end));
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	/** The kind of cache it writes: {@code aot}, {@code appcds}, or {@code null} for none. */
	@Nullable String kind() {
		if (this.feature >= 24) {
			return "aot";
		}
		return (this.feature >= 13) ? "appcds" : null;
	}

	/** The cache's file name in an entry. */
	String cacheFile() {
		return "aot".equals(kind()) ? "app.aot" : "app.jsa";
	}

	/** What the report calls this JVM: {@code 25.0.3+9-LTS (Eclipse Adoptium)}. */
	String describe() {
		return this.runtimeVersion + " (" + this.vendor + ")";
	}

	/** What the report calls its kind of cache. */
	String kindName() {
		return "aot".equals(kind()) ? "AOT cache" : "AppCDS archive";
	}

	/** Why it cannot have a cache, or {@code null} when it can. */
	@Nullable String problem() {
		return (kind() != null) ? null : "JDK " + this.feature + " has no dynamic AppCDS archive (JDK 13+) or AOT cache"
				+ " (JDK 24+)";
	}

	/**
	 * The training starts, each an argument list for this JVM placed before the command's own
	 * options: JDK 25+ one ({@code -XX:AOTCacheOutput}); JDK 24 two (record a configuration,
	 * then create the cache from it); JDK 13 to 23 one ({@code -XX:ArchiveClassesAtExit}).
	 * Every start exits once the Spring context has refreshed.
	 */
	List<List<String>> trainingOptions(Path entry) {
		String cache = entry.resolve(cacheFile()).toString();
		List<List<String>> starts = new ArrayList<>();
		if (this.feature >= 25) {
			starts.add(List.of("-XX:AOTCacheOutput=" + cache, EXIT_ON_REFRESH));
		}
		else if (this.feature == 24) {
			String configuration = entry.resolve("app.aotconf").toString();
			starts.add(List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=" + configuration, EXIT_ON_REFRESH));
			starts.add(List.of("-XX:AOTMode=create", "-XX:AOTConfiguration=" + configuration, "-XX:AOTCache=" + cache));
		}
		else {
			starts.add(List.of("-XX:ArchiveClassesAtExit=" + cache, EXIT_ON_REFRESH));
		}
		return starts;
	}

	/** Spring's training mode: exit once the context has refreshed, before its lifecycle starts. */
	static final String EXIT_ON_REFRESH = "-Dspring.context.exit=onRefresh";

	/**
	 * The options that start a server with the cache of {@code entry} and write what the JVM
	 * says about it to {@code log} (its unified log tag: {@code aot} from JDK 25, {@code cds}
	 * before), truncated at each start.
	 */
	List<String> useOptions(Path entry, @Nullable Path log) {
		String cache = entry.resolve(cacheFile()).toString();
		List<String> options = new ArrayList<>();
		options.add("aot".equals(kind()) ? "-XX:AOTCache=" + cache : "-XX:SharedArchiveFile=" + cache);
		if (log != null) {
			options.add(logOption(log));
		}
		return options;
	}

	/** {@code -Xlog:aot=info:file="<log>"::filecount=0}: no rotation, so no stray {@code .0} files. */
	String logOption(Path log) {
		return "-Xlog:" + logTag() + "=info:file=\"" + log + "\"::filecount=0";
	}

	/** The unified logging tag of class data sharing: {@code aot} from JDK 25 on, {@code cds} before. */
	String logTag() {
		return (this.feature >= 25) ? "aot" : "cds";
	}

}
