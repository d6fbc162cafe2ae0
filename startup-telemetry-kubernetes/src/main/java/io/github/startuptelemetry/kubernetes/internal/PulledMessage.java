package io.github.startuptelemetry.kubernetes.internal;

import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The durations in the message of the kubelet's {@code Pulled} event,
 * {@code Successfully pulled image "x" in 4.183s (7.871s including waiting)}, as Go durations; an
 * image already present on the node was not pulled.
 *
 * @param pullNs the pull itself
 * @param totalNs the pull and its wait for the image puller, never less than the pull
 */
public record PulledMessage(long pullNs, long totalNs) {

	private static final Pattern PULLED = Pattern.compile(" in ([0-9.]+[a-zµμ]+[0-9.a-zµμ]*)(?: \\(([0-9.]+[a-zµμ]+[0-9.a-zµμ]*) including waiting\\))?");

	private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]*)?)(h|ms|m|s|us|µs|μs|ns)");

	/** The durations {@code message} states, or {@code null} when it states none (no pull, another format). */
	public static @Nullable PulledMessage parse(@Nullable String message) {
		if (message == null || !message.startsWith("Successfully pulled image")) {
			return null;
		}
		Matcher pulled = PULLED.matcher(message);
		if (!pulled.find()) {
			return null;
		}
		OptionalLong pull = goDurationNs(pulled.group(1));
		if (pull.isEmpty()) {
			return null;
		}
		// older kubelets leave the part in parentheses out
		OptionalLong total = (pulled.group(2) != null) ? goDurationNs(pulled.group(2)) : OptionalLong.empty();
		return new PulledMessage(pull.getAsLong(), Math.max(pull.getAsLong(), total.orElse(pull.getAsLong())));
	}

	/** The part of {@link #totalNs()} the pull waited for the image puller. */
	public long waitingNs() {
		return this.totalNs - this.pullNs;
	}

	/** A Go duration's nanoseconds ({@code 1h2m3.5s}, {@code 812ms}, {@code 0s}); empty when it is not one. */
	static OptionalLong goDurationNs(String text) {
		Matcher part = PART.matcher(text);
		int at = 0;
		double ns = 0;
		while (at < text.length()) {
			if (!part.find(at) || part.start() != at) {
				return OptionalLong.empty();
			}
			double value = Double.parseDouble(part.group(1));
			ns += value * switch (part.group(2)) {
				case "h" -> 3_600e9;
				case "m" -> 60e9;
				case "s" -> 1e9;
				case "ms" -> 1e6;
				case "ns" -> 1;
				default -> 1e3;
			};
			at = part.end();
		}
		return (at == 0 || ns > Long.MAX_VALUE) ? OptionalLong.empty() : OptionalLong.of(Math.round(ns));
	}

}
