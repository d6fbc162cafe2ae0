package io.github.startuptelemetry.internal;

import java.util.List;

/**
 * Text kept within a bound wherever its size would grow with the fleet or come from elsewhere
 * (a failure's message, a log's last lines, a list of servers), so that a span, a log line or an
 * export request stays the same size for ten servers or ten thousand.
 */
public final class BoundedText {

	private BoundedText() {
	}

	/**
	 * {@code text} when it has at most {@code maxChars} characters, else its start and how much
	 * was left out, in at most {@code maxChars} characters (never splitting a surrogate pair).
	 */
	public static String cap(String text, int maxChars) {
		if (text.length() <= maxChars) {
			return text;
		}
		// what it says of the rest is never longer than this (the count it names only gets smaller)
		int keep = maxChars - omitted(text.length()).length();
		if (keep <= 0) {
			keep = maxChars;
		}
		else if (Character.isHighSurrogate(text.charAt(keep - 1))) {
			keep--;
		}
		return (keep == maxChars) ? text.substring(0, keep) : text.substring(0, keep) + omitted(text.length() - keep);
	}

	private static String omitted(int chars) {
		return " … (" + chars + " more characters)";
	}

	/**
	 * The last {@code maxLines} lines of {@code text}, each {@link #cap capped} at
	 * {@code maxLineChars}: a log's tail in a span or an error, however long the lines it logged.
	 */
	public static String lastLines(String text, int maxLines, int maxLineChars) {
		List<String> lines = text.strip().lines().toList();
		StringBuilder kept = new StringBuilder();
		for (String line : lines.subList(Math.max(0, lines.size() - maxLines), lines.size())) {
			kept.append((kept.length() == 0) ? "" : "\n").append(cap(line, maxLineChars));
		}
		return kept.toString();
	}

	/**
	 * The first line of {@code text}, {@link #cap capped} at {@code maxChars}: what a failure is,
	 * in a line.
	 */
	public static String headline(String text, int maxChars) {
		int end = text.indexOf('\n');
		return cap((end < 0) ? text : text.substring(0, end), maxChars);
	}

	/**
	 * {@code items} joined with {@code ", "}, at most the first {@code max} of them, then how many
	 * more there are: {@code a, b, c and 9997 more}.
	 */
	public static String first(List<String> items, int max) {
		if (items.size() <= max) {
			return String.join(", ", items);
		}
		return String.join(", ", items.subList(0, max)) + " and " + (items.size() - max) + " more";
	}

}
