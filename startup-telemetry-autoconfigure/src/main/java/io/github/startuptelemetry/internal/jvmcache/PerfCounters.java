package io.github.startuptelemetry.internal.jvmcache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * A running HotSpot JVM's performance counters, read from the file it keeps them in
 * ({@code /tmp/hsperfdata_<user>/<pid>}, what {@code jcmd <pid> PerfCounter.print} and
 * {@code jstat} read): how many classes it loaded from a CDS archive or AOT cache
 * ({@code java.cls.sharedLoadedClasses}) and how many it loaded otherwise
 * ({@code java.cls.loadedClasses}). The JVM keeps these counters whatever we do
 * ({@code -XX:+UsePerfData} is the default), so reading them costs the server nothing, where a
 * class-load log ({@code -Xlog:class+load}) costs it a line per class (measured in
 * docs/jvm-cache.md). Only for a JVM of this host and user, with the file there
 * ({@code -XX:-UsePerfData} and {@code -XX:+PerfDisableSharedMem} turn it off).
 * <p>
 * The file's layout (version 2.0, unchanged since JDK 1.4.2): a 32-byte prologue (magic
 * {@code 0xcafec0c0}, the byte order, version, an "accessible" flag, the entries' offset and
 * count), then entries of a header (length, name offset, vector length, type, flags, units,
 * variability, data offset), a NUL-terminated name and the value.
 *
 * @param longs the scalar {@code long} counters by name
 * @param strings the string constants by name ({@code java.rt.vmArgs}, ...)
 */
public record PerfCounters(Map<String, Long> longs, Map<String, String> strings) {

	private static final int MAGIC = 0xcafec0c0;

	private static final int PROLOGUE = 32;

	private static final int ENTRY_HEADER = 20;

	/** Bigger than any counter file a JVM writes (32 KB by default, {@code -XX:PerfDataMemorySize}). */
	private static final long MAX_SIZE = 16L * 1024 * 1024;

	public PerfCounters {
		longs = Map.copyOf(longs);
		strings = Map.copyOf(strings);
	}

	/** The counters of the JVM with process id {@code pid}, of this host and user, if it keeps them in a file. */
	public static Optional<PerfCounters> of(long pid) {
		String user = System.getProperty("user.name");
		// HotSpot keeps them under /tmp on Linux whatever java.io.tmpdir says
		return read(Path.of("/tmp", "hsperfdata_" + user, Long.toString(pid)));
	}

	/** The counters in {@code file}, or empty when it is missing, not ready or not a counter file. */
	static Optional<PerfCounters> read(Path file) {
		try {
			if (!Files.isRegularFile(file) || Files.size(file) > MAX_SIZE) {
				return Optional.empty();
			}
			return parse(Files.readAllBytes(file));
		}
		catch (IOException | RuntimeException ex) {
			return Optional.empty();
		}
	}

	static Optional<PerfCounters> parse(byte[] bytes) {
		if (bytes.length < PROLOGUE) {
			return Optional.empty();
		}
		ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN);
		if (buffer.getInt(0) != MAGIC) {
			return Optional.empty();
		}
		buffer.order((buffer.get(4) == 0) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
		boolean versionTwo = buffer.get(5) == 2;
		boolean accessible = buffer.get(7) != 0;
		if (!versionTwo || !accessible) {
			return Optional.empty();
		}
		int offset = buffer.getInt(24);
		int count = buffer.getInt(28);
		Map<String, Long> longs = new HashMap<>();
		Map<String, String> strings = new HashMap<>();
		for (int i = 0; i < count && offset >= PROLOGUE && offset + ENTRY_HEADER <= bytes.length; i++) {
			int length = buffer.getInt(offset);
			int nameOffset = buffer.getInt(offset + 4);
			int vectorLength = buffer.getInt(offset + 8);
			byte type = buffer.get(offset + 12);
			int dataOffset = buffer.getInt(offset + 16);
			if (length < ENTRY_HEADER || offset + length > bytes.length) {
				break;
			}
			String name = cString(bytes, offset + nameOffset, offset + length);
			int data = offset + dataOffset;
			if (name != null && vectorLength == 0 && type == 'J' && data + Long.BYTES <= offset + length) {
				longs.put(name, buffer.getLong(data));
			}
			else if (name != null && vectorLength > 0 && type == 'B' && data < offset + length) {
				String value = cString(bytes, data, Math.min(data + vectorLength, offset + length));
				if (value != null) {
					strings.put(name, value);
				}
			}
			offset += length;
		}
		return Optional.of(new PerfCounters(longs, strings));
	}

	/** The NUL-terminated string at {@code from}, at most up to {@code limit}. */
	private static @Nullable String cString(byte[] bytes, int from, int limit) {
		if (from < 0 || from >= limit || limit > bytes.length) {
			return null;
		}
		int end = from;
		while (end < limit && bytes[end] != 0) {
			end++;
		}
		return new String(bytes, from, end - from, StandardCharsets.UTF_8);
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
