package io.github.startuptelemetry.jvmcache.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import io.github.startuptelemetry.internal.PerfData;

/**
 * A running HotSpot JVM's performance counters, read once from the file it keeps them in
 * ({@link PerfData}), for how many classes it loaded from a CDS archive or AOT cache and how many
 * otherwise: counters the JVM keeps anyway, so reading them costs the server nothing.
 *
 * @param longs the scalar {@code long} counters by name
 * @param strings the string constants by name ({@code java.rt.vmArgs}, ...)
 */
public record PerfCounters(Map<String, Long> longs, Map<String, String> strings) {

	public PerfCounters {
		longs = Map.copyOf(longs);
		strings = Map.copyOf(strings);
	}

	/** The counters of the JVM with process id {@code pid}, of this host and user, if it keeps them in a file. */
	public static Optional<PerfCounters> of(long pid) {
		return read(PerfData.file(pid));
	}

	/** The counters in {@code file}, or empty when it is missing, not ready or not a counter file. */
	static Optional<PerfCounters> read(Path file) {
		try {
			if (!Files.isRegularFile(file) || Files.size(file) > PerfData.MAX_SIZE) {
				return Optional.empty();
			}
			return parse(Files.readAllBytes(file));
		}
		catch (IOException | RuntimeException ex) {
			return Optional.empty();
		}
	}

	static Optional<PerfCounters> parse(byte[] bytes) {
		PerfData data = PerfData.of(ByteBuffer.wrap(bytes));
		return (data != null) ? Optional.of(new PerfCounters(data.longs(), data.strings())) : Optional.empty();
	}

	/** Classes loaded from a CDS archive or AOT cache, or -1. */
	long sharedClasses() {
		return this.longs.getOrDefault("java.cls.sharedLoadedClasses", -1L);
	}

	/** All classes loaded, from an archive or not, or -1. */
	long loadedClasses() {
		Long shared = this.longs.get("java.cls.sharedLoadedClasses");
		Long other = this.longs.get("java.cls.loadedClasses");
		return (shared != null && other != null) ? shared + other : -1;
	}

	/** The JVM's options as it was started with them ({@code java.rt.vmArgs}), or {@code ""}. */
	String vmArgs() {
		return this.strings.getOrDefault("java.rt.vmArgs", "");
	}

}
