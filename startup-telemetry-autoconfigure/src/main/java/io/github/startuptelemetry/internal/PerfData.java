package io.github.startuptelemetry.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A HotSpot JVM's performance counters as it keeps them in its hsperfdata file
 * ({@code /tmp/hsperfdata_<user>/<pid>}, what {@code jstat} reads), over a buffer holding that
 * file: a copy of another JVM's, or a live mapping of our own, read as the JVM updates it.
 */
public final class PerfData {

	private static final int MAGIC = 0xcafec0c0;

	private static final int PROLOGUE = 32;

	private static final int ENTRY_HEADER = 20;

	/** Bigger than any counter file a JVM writes (32 KB by default, {@code -XX:PerfDataMemorySize}). */
	public static final long MAX_SIZE = 16L * 1024 * 1024;

	private final ByteBuffer buffer;

	/** Each scalar {@code long} counter's offset in the buffer, by name. */
	private final Map<String, Integer> longs;

	private final Map<String, String> strings;

	private PerfData(ByteBuffer buffer, Map<String, Integer> longs, Map<String, String> strings) {
		this.buffer = buffer;
		this.longs = longs;
		this.strings = strings;
	}

	/** Where the JVM with process id {@code pid} of this host and user keeps its counters. */
	public static Path file(long pid) {
		// HotSpot keeps them under /tmp on Linux whatever java.io.tmpdir says
		return Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), Long.toString(pid));
	}

	/** The counters in {@code buffer} (from its position 0), or {@code null} when it is not a ready counter file. */
	public static @Nullable PerfData of(ByteBuffer buffer) {
		// Version 2.0, unchanged since JDK 1.4.2: a 32-byte prologue (magic, byte order, version, an
		// "accessible" flag, the entries' offset and count), then entries of a header (length, name
		// offset, vector length, type, ..., data offset), a NUL-terminated name and the value
		int size = buffer.limit();
		if (size < PROLOGUE) {
			return null;
		}
		ByteBuffer view = buffer.duplicate().order(ByteOrder.BIG_ENDIAN);
		if (view.getInt(0) != MAGIC) {
			return null;
		}
		view.order((view.get(4) == 0) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
		boolean versionTwo = view.get(5) == 2;
		boolean accessible = view.get(7) != 0;
		if (!versionTwo || !accessible) {
			return null;
		}
		int offset = view.getInt(24);
		int count = view.getInt(28);
		Map<String, Integer> longs = new HashMap<>();
		Map<String, String> strings = new HashMap<>();
		for (int i = 0; i < count && offset >= PROLOGUE && offset + ENTRY_HEADER <= size; i++) {
			int length = view.getInt(offset);
			int nameOffset = view.getInt(offset + 4);
			int vectorLength = view.getInt(offset + 8);
			byte type = view.get(offset + 12);
			int dataOffset = view.getInt(offset + 16);
			if (length < ENTRY_HEADER || offset + length > size) {
				break;
			}
			String name = cString(view, offset + nameOffset, offset + length);
			int data = offset + dataOffset;
			if (name != null && vectorLength == 0 && type == 'J' && data >= offset && data + Long.BYTES <= offset + length) {
				longs.put(name, data);
			}
			else if (name != null && vectorLength > 0 && type == 'B' && data >= offset && data < offset + length) {
				String value = cString(view, data, Math.min(data + vectorLength, offset + length));
				if (value != null) {
					strings.put(name, value);
				}
			}
			offset += length;
		}
		return new PerfData(view, longs, strings);
	}

	/** The {@code long} counter {@code name} now, or {@code -1} when the file has none by that name. */
	public long get(String name) {
		Integer offset = this.longs.get(name);
		return (offset != null) ? this.buffer.getLong(offset) : -1;
	}

	/** Whether the file has a {@code long} counter {@code name}. */
	public boolean has(String name) {
		return this.longs.containsKey(name);
	}

	/** Every {@code long} counter's value now, by name. */
	public Map<String, Long> longs() {
		Map<String, Long> values = new HashMap<>();
		for (Map.Entry<String, Integer> entry : this.longs.entrySet()) {
			values.put(entry.getKey(), this.buffer.getLong(entry.getValue()));
		}
		return values;
	}

	/** The string counters (constants: {@code java.rt.vmArgs}, ...), by name. */
	public Map<String, String> strings() {
		return Map.copyOf(this.strings);
	}

	/** The NUL-terminated string at {@code from}, at most up to {@code limit}. */
	private static @Nullable String cString(ByteBuffer buffer, int from, int limit) {
		if (from < 0 || from >= limit || limit > buffer.limit()) {
			return null;
		}
		int end = from;
		while (end < limit && buffer.get(end) != 0) {
			end++;
		}
		byte[] bytes = new byte[end - from];
		buffer.get(from, bytes);
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
