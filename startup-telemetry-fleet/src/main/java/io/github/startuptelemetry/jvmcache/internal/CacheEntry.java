package io.github.startuptelemetry.jvmcache.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

/**
 * One trained cache in the cache directory, as its {@code entry.properties} describes it.
 *
 * @param dir its directory
 * @param id the full key it is valid for ({@link CacheKey#id()})
 * @param target the jar (or class path) it was trained for
 * @param content that target's content hash
 * @param java the JVM binary
 * @param jvm the JVM's runtime version and vendor
 * @param options the JVM options of the key
 * @param kind {@code aot} or {@code appcds}
 * @param cacheFile the cache's file name in the directory
 * @param launch the jar to run instead of the target, relative to the directory (a Spring Boot
 * jar's extracted form), or {@code null} to run the target as it is
 * @param trained when it was trained
 * @param trainingMs how long training took
 */
record CacheEntry(Path dir, String id, String target, String content, String java, String jvm, String options,
		String kind, String cacheFile, @Nullable String launch, Instant trained, long trainingMs) {

	/** What it is valid for, written last: an entry without it is incomplete. */
	static final String PROPERTIES = "entry.properties";

	/** Touched at each use. */
	static final String LAST_USED = "last-used";

	/** What the JVM said when it refused the cache. */
	static final String REFUSED = "refused";

	static CacheEntry of(Path dir, Properties properties) {
		String launch = properties.getProperty("launch");
		return new CacheEntry(dir, required(properties, "id"), required(properties, "target"),
				required(properties, "content.sha256"), required(properties, "java"), required(properties, "jvm"),
				properties.getProperty("options", ""), required(properties, "kind"),
				required(properties, "cache"), (launch == null || launch.isEmpty()) ? null : launch,
				Instant.parse(required(properties, "trained")), Long.parseLong(properties.getProperty("training.ms", "0")));
	}

	static Properties properties(CacheKey key, @Nullable String launch, long trainingMs, Instant trained) {
		Properties properties = new Properties();
		properties.setProperty("id", key.id());
		properties.setProperty("target", key.target());
		properties.setProperty("content.sha256", key.content());
		properties.setProperty("java", key.jdk().java().toString());
		properties.setProperty("jvm", key.jdk().describe());
		properties.setProperty("options", key.optionsText());
		properties.setProperty("kind", key.jdk().kind());
		properties.setProperty("cache", key.jdk().cacheFile());
		properties.setProperty("launch", (launch != null) ? launch : "");
		properties.setProperty("trained", trained.toString());
		properties.setProperty("training.ms", Long.toString(trainingMs));
		return properties;
	}

	private static String required(Properties properties, String name) {
		String value = properties.getProperty(name);
		if (value == null) {
			throw new IllegalArgumentException("no " + name);
		}
		return value;
	}

	Path cache() {
		return this.dir.resolve(this.cacheFile);
	}

	/** The jar a server runs with this cache: the extracted one, or its own. */
	Path launchJar(String own) {
		return (this.launch != null) ? this.dir.resolve(this.launch) : Path.of(own);
	}

	/**
	 * Whether it is still there, all that a server started with it needs: its description, its
	 * cache and the jar it runs instead of its own.
	 */
	boolean present() {
		return Files.isRegularFile(this.dir.resolve(PROPERTIES)) && Files.isRegularFile(cache())
				&& (this.launch == null || Files.isRegularFile(this.dir.resolve(this.launch)));
	}

	/** When it was last used (or trained). */
	Instant lastUsed() {
		try {
			Path file = this.dir.resolve(LAST_USED);
			return Files.exists(file) ? Files.getLastModifiedTime(file).toInstant() : this.trained;
		}
		catch (IOException ex) {
			return this.trained;
		}
	}

	/** What the JVM said when it refused this cache, or {@code null} when it never did. */
	@Nullable String refused() {
		Path file = this.dir.resolve(REFUSED);
		try {
			return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8).strip() : null;
		}
		catch (IOException ex) {
			return null;
		}
	}

}
