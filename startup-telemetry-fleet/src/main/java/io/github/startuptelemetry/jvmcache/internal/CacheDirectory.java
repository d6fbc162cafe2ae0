package io.github.startuptelemetry.jvmcache.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.report.JvmCacheReport;

/**
 * The cache directory ({@code telemetry.supervisor.jvm-cache.directory}): one {@link CacheEntry}
 * per trained cache, looked up by key, committed once trained, and kept within its maximum size
 * by evicting the least recently used (the layout is in docs/jvm-cache.md).
 */
final class CacheDirectory {

	static final String TRAINING_LOG = "training.log";

	static final String APP = "app";

	private static final String LOCK = ".lock";

	private final Path root;

	CacheDirectory(Path root) {
		this.root = root.toAbsolutePath().normalize();
	}

	Path root() {
		return this.root;
	}

	/** The directory an entry of {@code key} has (whether it exists or not). */
	Path entryDir(CacheKey key) {
		return this.root.resolve(key.entryName());
	}

	/** What the directory holds for {@code key}: its entry, or why there is none that fits. */
	Lookup lookup(CacheKey key) {
		Optional<CacheEntry> exact = read(entryDir(key)).filter((entry) -> entry.id().equals(key.id()));
		if (exact.isPresent()) {
			String refused = exact.get().refused();
			return (refused != null) ? Lookup.refused(exact.get(), refused) : Lookup.found(exact.get());
		}
		List<CacheEntry> sameTarget = entries().stream()
			.filter((entry) -> entry.target().equals(key.target()))
			.sorted(Comparator.comparing(CacheEntry::trained).reversed())
			.toList();
		if (sameTarget.isEmpty()) {
			return Lookup.missing("no cache trained for " + key.target() + " yet");
		}
		CacheEntry latest = sameTarget.get(0);
		if (!latest.content().equals(key.content())) {
			return Lookup.stale(Path.of(key.target()).getFileName() + " changed since its cache was trained ("
					+ latest.trained() + ")");
		}
		if (latest.java().equals(key.jdk().java().toString()) && !latest.jvm().equals(key.jdk().describe())) {
			return Lookup.stale("the JVM changed since its cache was trained: " + latest.jvm() + " then, "
					+ key.jdk().describe() + " now");
		}
		return Lookup.missing("no cache trained for this JVM and these options (" + key.jdk().describe() + ", "
				+ key.optionsText() + "); trained for " + latest.jvm() + ", " + latest.options());
	}

	/** Every complete entry. */
	List<CacheEntry> entries() {
		List<CacheEntry> entries = new ArrayList<>();
		if (!Files.isDirectory(this.root)) {
			return entries;
		}
		try (DirectoryStream<Path> dirs = Files.newDirectoryStream(this.root, Files::isDirectory)) {
			for (Path dir : dirs) {
				read(dir).ifPresent(entries::add);
			}
		}
		catch (IOException ex) {
			// an unreadable directory holds nothing usable
		}
		return entries;
	}

	private static Optional<CacheEntry> read(Path dir) {
		Path file = dir.resolve(CacheEntry.PROPERTIES);
		if (!Files.isRegularFile(file)) {
			return Optional.empty();
		}
		Properties properties = new Properties();
		try (InputStream in = Files.newInputStream(file)) {
			properties.load(in);
			return Optional.of(CacheEntry.of(dir, properties));
		}
		catch (IOException | RuntimeException ex) {
			return Optional.empty();
		}
	}

	/** Run {@code work} holding the directory's lock, against other supervisors sharing it. */
	<T> T locked(IoWork<T> work) throws IOException {
		Files.createDirectories(this.root);
		try (FileChannel channel = FileChannel.open(this.root.resolve(LOCK), StandardOpenOption.CREATE,
				StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
			return work.run();
		}
	}

	/** A fresh directory for training {@code key}, replacing an incomplete or refused one (under the lock). */
	Path begin(CacheKey key) throws IOException {
		Path dir = entryDir(key);
		delete(dir);
		return Files.createDirectories(dir);
	}

	/**
	 * Make a trained entry valid: its properties written last, atomically, then the entries it
	 * supersedes (the same target, JVM binary and options, another key) deleted (under the lock).
	 */
	CacheEntry commit(CacheKey key, Path dir, @Nullable String launch, long trainingMs) throws IOException {
		Properties properties = CacheEntry.properties(key, launch, trainingMs, Instant.now());
		Path partial = dir.resolve(CacheEntry.PROPERTIES + ".partial");
		try (OutputStream out = Files.newOutputStream(partial)) {
			properties.store(out, "startup-telemetry JVM cache entry: valid for exactly this key");
		}
		try {
			Files.move(partial, dir.resolve(CacheEntry.PROPERTIES), StandardCopyOption.ATOMIC_MOVE);
		}
		catch (AtomicMoveNotSupportedException ex) {
			Files.move(partial, dir.resolve(CacheEntry.PROPERTIES), StandardCopyOption.REPLACE_EXISTING);
		}
		CacheEntry entry = read(dir).orElseThrow(() -> new IOException("could not read back " + dir));
		for (CacheEntry other : entries()) {
			if (!other.dir().equals(dir) && other.target().equals(entry.target()) && other.java().equals(entry.java())
					&& other.options().equals(entry.options())) {
				delete(other.dir());
			}
		}
		return entry;
	}

	/**
	 * Delete the least recently used entries, and incomplete ones, until the directory holds at
	 * most {@code maxBytes}, never {@code keep} (under the lock).
	 * @return the directories deleted
	 */
	List<Path> evict(long maxBytes, @Nullable Path keep) throws IOException {
		List<Path> deleted = new ArrayList<>();
		List<Path> dirs = new ArrayList<>();
		try (DirectoryStream<Path> all = Files.newDirectoryStream(this.root, Files::isDirectory)) {
			all.forEach(dirs::add);
		}
		for (Path dir : dirs) {
			if (!dir.equals(keep) && !Files.isRegularFile(dir.resolve(CacheEntry.PROPERTIES))) {
				delete(dir);
				deleted.add(dir);
			}
		}
		List<CacheEntry> entries = new ArrayList<>(entries());
		entries.sort(Comparator.comparing(CacheEntry::lastUsed));
		long total = size(this.root);
		for (CacheEntry entry : entries) {
			if (total <= maxBytes) {
				break;
			}
			if (entry.dir().equals(keep)) {
				continue;
			}
			long size = size(entry.dir());
			delete(entry.dir());
			deleted.add(entry.dir());
			total -= size;
		}
		return deleted;
	}

	/** Note that {@code entry} was used now: least recently used entries are evicted first. */
	static void touch(CacheEntry entry) {
		try {
			Path file = entry.dir().resolve(CacheEntry.LAST_USED);
			if (!Files.exists(file)) {
				Files.createFile(file);
			}
			Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
		}
		catch (IOException ex) {
			// eviction falls back to the training time
		}
	}

	/** Note that the JVM refused {@code entry}, and why: it is not used again, and trained again. */
	static void refuse(CacheEntry entry, String reason) {
		try {
			Files.writeString(entry.dir().resolve(CacheEntry.REFUSED), reason + "\n", StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			// it will be refused again, and said so again
		}
	}

	/** The bytes under {@code path}. */
	static long size(Path path) throws IOException {
		if (!Files.exists(path)) {
			return 0;
		}
		try (Stream<Path> files = Files.walk(path)) {
			return files.filter(Files::isRegularFile).mapToLong((file) -> {
				try {
					return Files.size(file);
				}
				catch (IOException ex) {
					return 0;
				}
			}).sum();
		}
	}

	static void delete(Path dir) throws IOException {
		if (!Files.exists(dir)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(dir)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(path);
			}
		}
		catch (UncheckedIOException ex) {
			throw ex.getCause();
		}
	}

	/** Work done under the lock. */
	@FunctionalInterface
	interface IoWork<T> {

		T run() throws IOException;

	}

	/**
	 * What the directory holds for a key.
	 *
	 * @param entry the entry that fits, or {@code null}
	 * @param reason {@code null} for a usable entry, else the report's reason
	 * ({@code missing}, {@code stale}, {@code refused})
	 * @param detail why, in words
	 */
	record Lookup(@Nullable CacheEntry entry, @Nullable String reason, @Nullable String detail) {

		static Lookup found(CacheEntry entry) {
			return new Lookup(entry, null, null);
		}

		static Lookup refused(CacheEntry entry, String why) {
			return new Lookup(entry, JvmCacheReport.REFUSED,
					"refused by the JVM when last used: " + why);
		}

		static Lookup missing(String why) {
			return new Lookup(null, JvmCacheReport.MISSING, why);
		}

		static Lookup stale(String why) {
			return new Lookup(null, JvmCacheReport.STALE, why);
		}

		boolean usable() {
			return this.reason == null;
		}

	}

}
