package io.github.startuptelemetry.bench.process;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A running HotSpot JVM's own counters, read from its {@code hsperfdata} file (what {@code jcmd
 * PerfCounter.print} and {@code jstat} show) without attaching to it, so that reading them costs
 * the measured JVM nothing. Counts such as compilations or classes loaded are evidence the load
 * of a shared box does not blur, unlike CPU times.
 */
final class HotSpotCounters {

	/** Methods compiled by the JIT so far. */
	static final String COMPILES = "sun.ci.totalCompiles";

	/** Classes loaded so far from class files (not from the class data sharing archive). */
	static final String CLASSES = "java.cls.loadedClasses";

	/** Classes loaded from the class data sharing archive so far. */
	static final String SHARED_CLASSES = "java.cls.sharedLoadedClasses";

	/** Threads started so far. */
	static final String THREADS = "java.threads.started";

	private static final int MAGIC = 0xcafec0c0;

	private HotSpotCounters() {
	}

	/**
	 * Every counter of type long of the JVM {@code pid}, by name; empty when it keeps none
	 * ({@code -XX:-UsePerfData}) or the file cannot be read.
	 */
	static Map<String, Long> of(long pid) {
		Path file = Path.of(System.getProperty("java.io.tmpdir"), "hsperfdata_" + System.getProperty("user.name"),
				Long.toString(pid));
		try {
			return parse(ByteBuffer.wrap(Files.readAllBytes(file)));
		}
		catch (IOException | RuntimeException ex) {
			return Map.of();
		}
	}

	/** HotSpot's layout ({@code perfMemory.hpp}): a prologue, then entries, each naming its data. */
	private static Map<String, Long> parse(ByteBuffer data) {
		if (data.getInt(0) != MAGIC) {
			return Map.of();
		}
		data.order((data.get(4) == 0) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
		int entry = data.getInt(24);
		int entries = data.getInt(28);
		Map<String, Long> counters = new HashMap<>();
		for (int i = 0; i < entries; i++) {
			int length = data.getInt(entry);
			int nameOffset = data.getInt(entry + 4);
			int vectorLength = data.getInt(entry + 8);
			byte type = data.get(entry + 12);
			int dataOffset = data.getInt(entry + 16);
			if (type == 'J' && vectorLength == 0) {
				int nameEnd = entry + nameOffset;
				while (data.get(nameEnd) != 0) {
					nameEnd++;
				}
				byte[] name = new byte[nameEnd - entry - nameOffset];
				data.get(entry + nameOffset, name);
				counters.put(new String(name, StandardCharsets.US_ASCII), data.getLong(entry + dataOffset));
			}
			entry += length;
		}
		return counters;
	}

}
