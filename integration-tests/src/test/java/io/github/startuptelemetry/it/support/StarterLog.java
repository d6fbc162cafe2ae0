package io.github.startuptelemetry.it.support;

import java.util.List;

/**
 * What a process's log (Boot's default console or file format) says above INFO from the starter:
 * a startup that fails, or a build that processes an application ahead of time, must not alarm
 * the reader with the starter's own troubles.
 */
public final class StarterLog {

	/** Spring's line for a destroy method that threw while the context closed. */
	public static final String FAILED_DESTROY = "Invocation of destroy method failed";

	private StarterLog() {
	}

	/**
	 * The lines at WARN or ERROR whose logger is the starter's ({@code io.github.startuptelemetry},
	 * which Boot abbreviates to {@code i.g.s.}).
	 */
	public static List<String> warnings(String log) {
		return log.lines().filter(StarterLog::warnOrError).filter(StarterLog::ours).toList();
	}

	/** Whether a log line is at WARN or ERROR: the level is the word after the timestamp. */
	static boolean warnOrError(String line) {
		String[] words = line.strip().split("\\s+", 3);
		return words.length > 1 && (words[1].equals("WARN") || words[1].equals("ERROR"));
	}

	/** Whether a log line's logger (the word before the {@code " : "} that ends Boot's prefix) is the starter's. */
	static boolean ours(String line) {
		int end = line.indexOf(" : ");
		if (end < 0) {
			return false;
		}
		String prefix = line.substring(0, end).strip();
		String logger = prefix.substring(prefix.lastIndexOf(' ') + 1);
		return logger.startsWith("i.g.s.") || logger.startsWith("io.github.startuptelemetry.");
	}

}
