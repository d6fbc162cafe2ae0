package io.github.startuptelemetry.bench.process;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Another process's log, read as it grows, each byte once: a supervisor of thousands of servers
 * writes lines of hundreds of kilobytes, which re-reading the whole file at every poll would make
 * this JVM's work, on the cores the measured process needs. It keeps the first line containing
 * each of a few markers, and the longest line (in bytes: the log is ASCII but for names).
 */
final class LogTail {

	private static final long POLL_MS = 50;

	private final Path file;

	private final Map<String, String> firstLines = new LinkedHashMap<>();

	private final StringBuilder partial = new StringBuilder();

	private long offset;

	private int longest;

	private String longestStart = "";

	/** @param markers the texts whose first line {@link #await} and {@link #line} find */
	LogTail(Path file, List<String> markers) {
		this.file = file;
		markers.forEach((marker) -> this.firstLines.put(marker, null));
	}

	/** Read what was written since the last call. */
	synchronized void poll() throws IOException {
		if (!Files.exists(this.file)) {
			return;
		}
		try (RandomAccessFile in = new RandomAccessFile(this.file.toFile(), "r")) {
			long length = in.length();
			if (length <= this.offset) {
				return;
			}
			in.seek(this.offset);
			byte[] bytes = new byte[(int) Math.min(length - this.offset, 16 << 20)];
			in.readFully(bytes);
			this.offset += bytes.length;
			// one char per byte: line lengths in bytes, and the markers and timestamps are ASCII
			String text = new String(bytes, StandardCharsets.ISO_8859_1);
			int start = 0;
			for (int end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
				this.partial.append(text, start, end);
				read(this.partial.toString());
				this.partial.setLength(0);
				start = end + 1;
			}
			this.partial.append(text, start, text.length());
		}
	}

	private void read(String line) {
		if (line.length() > this.longest) {
			this.longest = line.length();
			this.longestStart = line.substring(0, Math.min(line.length(), 160));
		}
		this.firstLines.replaceAll((marker, first) -> (first == null && line.contains(marker)) ? line : first);
	}

	/**
	 * The first line containing {@code marker}, once written; {@code null} when the process ended
	 * without writing it, or {@code timeout} passed.
	 */
	String await(String marker, Process process, Duration timeout) throws IOException, InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			boolean alive = process.isAlive();
			poll();
			String line = line(marker);
			if (line != null || !alive || System.nanoTime() > deadline) {
				return line;
			}
			// another process writes the file: poll it, bounded by the process's exit and the deadline
			process.waitFor(POLL_MS, TimeUnit.MILLISECONDS);
		}
	}

	/** The first line containing {@code marker} read so far, or {@code null}. */
	synchronized String line(String marker) {
		return this.firstLines.get(marker);
	}

	/** The longest line read so far, in bytes (the last one too, once the process has ended). */
	synchronized int longest() {
		return Math.max(this.longest, this.partial.length());
	}

	/** How the longest line starts. */
	synchronized String longestStart() {
		return (this.partial.length() > this.longest) ? this.partial.substring(0, Math.min(this.partial.length(), 160))
				: this.longestStart;
	}

	/** When a line was logged: its leading time stamp (Boot's ISO-8601 format), in epoch ns; -1 without. */
	static long timeNs(String line) {
		if (line == null || line.indexOf(' ') < 0) {
			return -1;
		}
		try {
			Instant at = Instant.parse(line.substring(0, line.indexOf(' ')));
			return at.getEpochSecond() * 1_000_000_000L + at.getNano();
		}
		catch (RuntimeException ex) {
			return -1;
		}
	}

}
