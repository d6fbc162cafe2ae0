package io.github.startuptelemetry.jvmcache.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What a JVM said about the cache it was started with, in the {@code cds} or {@code aot} unified
 * log the supervisor asked it for: whether it refused the cache, and why. A refusal never fails a
 * server (the JVM starts without the cache); this is how the report learns of it.
 *
 * @param refused whether the JVM refused the cache
 * @param reason what it said, the most specific line, or {@code null}
 * @param opened whether it opened the cache at all
 */
record JvmCacheLog(boolean refused, @Nullable String reason, boolean opened) {

	/**
	 * What the JVM says when it gives up on a cache (JDK 17 to 25 wordings). A warning or an
	 * error of the tag counts too: at a start with a cache, the JVM warns of nothing else.
	 */
	private static final List<String> REFUSALS = List.of("Unable to use shared archive", "Unable to map shared spaces",
			"An error has occurred while processing", "failed to load", "not the one used", "mismatch",
			"Specified shared archive not found", "different version or build");

	/** Lines that only point elsewhere: a reason is sought before them. */
	private static final List<String> GENERIC = List.of("Run with -Xlog", "Unable to map shared spaces",
			"An error has occurred while processing", "Unable to use shared archive");

	/** What the JVM logged at {@code log}; a missing or unreadable log says nothing (empty). */
	static JvmCacheLog read(Path log, Path cache) {
		try {
			return parse(Files.readAllLines(log, StandardCharsets.UTF_8), cache);
		}
		catch (IOException | RuntimeException ex) {
			return new JvmCacheLog(false, null, false);
		}
	}

	static JvmCacheLog parse(List<String> lines, Path cache) {
		boolean refused = false;
		boolean opened = false;
		String specific = null;
		String first = null;
		String cacheName = cache.toString();
		for (String line : lines) {
			String message = message(line);
			if (message.startsWith("Opened") && message.contains(cacheName)) {
				opened = true;
			}
			boolean complaint = line.contains("[warning") || line.contains("[error");
			if (!complaint && REFUSALS.stream().noneMatch(message::contains)) {
				continue;
			}
			refused = true;
			// JDK 17 and older prefix the reason of a refusal so, at info level
			String reason = message.startsWith("UseSharedSpaces: ")
					? message.substring("UseSharedSpaces: ".length()) : message;
			if (first == null) {
				first = reason;
			}
			if (specific == null && GENERIC.stream().noneMatch(reason::startsWith)) {
				specific = reason;
			}
		}
		return new JvmCacheLog(refused, (specific != null) ? specific : first, opened);
	}

	/** A unified log line without its decorations ({@code [0.227s][warning][aot] }). */
	private static String message(String line) {
		int at = 0;
		while (at < line.length() && line.charAt(at) == '[') {
			int close = line.indexOf(']', at);
			if (close < 0) {
				break;
			}
			at = close + 1;
			while (at < line.length() && line.charAt(at) == ' ') {
				at++;
			}
		}
		return line.substring(at).strip();
	}

}
