package io.github.startuptelemetry.timeline.internal;

import java.util.Optional;

/**
 * A W3C {@code traceparent} header value: the span a process's startup trace hangs from.
 *
 * @param traceId 32 lower-case hex digits, not all zero
 * @param spanId 16 lower-case hex digits, not all zero
 * @param flags the trace flags byte ({@code 01} = sampled)
 */
public record TraceParent(String traceId, String spanId, int flags) {

	private static final String ZERO_TRACE_ID = "0".repeat(32);

	private static final String ZERO_SPAN_ID = "0".repeat(16);

	private static final String HEX = "0123456789abcdef";

	/**
	 * Parse a header value; anything malformed (wrong length, upper case, version {@code ff},
	 * zero ids, stray characters) means "no parent".
	 */
	public static Optional<TraceParent> parse(String value) {
		if (value == null) {
			return Optional.empty();
		}
		String v = value.strip();
		// version 00 is exactly 55 characters; a later version may append "-" and more
		if (v.length() < 55 || (v.length() > 55 && v.charAt(55) != '-')) {
			return Optional.empty();
		}
		if (v.charAt(2) != '-' || v.charAt(35) != '-' || v.charAt(52) != '-') {
			return Optional.empty();
		}
		String version = v.substring(0, 2);
		String traceId = v.substring(3, 35);
		String spanId = v.substring(36, 52);
		String flags = v.substring(53, 55);
		if (!isLowerHex(version) || version.equals("ff") || (version.equals("00") && v.length() != 55)) {
			return Optional.empty();
		}
		if (!isLowerHex(traceId) || !isLowerHex(spanId) || !isLowerHex(flags) || traceId.equals(ZERO_TRACE_ID)
				|| spanId.equals(ZERO_SPAN_ID)) {
			return Optional.empty();
		}
		return Optional.of(new TraceParent(traceId, spanId, Integer.parseInt(flags, 16)));
	}

	public boolean sampled() {
		return (this.flags & 1) == 1;
	}

	/**
	 * The header value, version 00. Concatenated, not {@code String.format}: a supervisor writes
	 * one per server it spawns, and the formatter (its regex and its compilations) cost a
	 * hundred-server fleet 0.1 ms of CPU per server.
	 */
	public String header() {
		return "00-" + this.traceId + "-" + this.spanId + "-" + HEX.charAt((this.flags >> 4) & 0xf)
				+ HEX.charAt(this.flags & 0xf);
	}

	private static boolean isLowerHex(String s) {
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
				return false;
			}
		}
		return true;
	}

}
