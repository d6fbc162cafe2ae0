package io.github.startuptelemetry.lifecycle.internal;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.util.StringUtils;


/**
 * The one reading and writing of the {@code key=value} list values of the standard OpenTelemetry
 * variables a supervisor hands its servers (headers, resource attributes), which non-JVM servers
 * read too. Values may be secrets: no message holds one.
 */
public final class OtelListValues {

	private OtelListValues() {
	}

	/**
	 * Parse {@code key=value,key=value} (the format of the OTLP headers and
	 * resource attributes variables); values are percent-decoded, blanks around entries ignored.
	 * Any malformed entry makes the whole value unusable: half a set of credentials is no use.
	 */
	public static Pairs parsePairs(String value) {
		Map<String, String> pairs = new LinkedHashMap<>();
		List<String> problems = new ArrayList<>();
		if (value == null) {
			return new Pairs(pairs, problems);
		}
		int index = 0;
		for (String entry : value.split(",")) {
			index++;
			if (entry.isBlank()) {
				continue;
			}
			int equals = entry.indexOf('=');
			String key = (equals > 0) ? entry.substring(0, equals).strip() : "";
			if (key.isEmpty()) {
				problems.add("entry " + index + " is not key=value");
				continue;
			}
			try {
				pairs.put(key, StringUtils.uriDecode(entry.substring(equals + 1).strip(), StandardCharsets.UTF_8));
			}
			catch (IllegalArgumentException ex) {
				problems.add("the value of '" + key + "' is not percent-encoded correctly");
			}
		}
		return new Pairs(problems.isEmpty() ? pairs : Map.of(), problems);
	}

	/** Write pairs in the format {@link #parsePairs(String)} reads, values percent-encoded. */
	public static String formatPairs(Map<String, String> pairs) {
		StringBuilder out = new StringBuilder();
		pairs.forEach((key, value) -> {
			if (out.length() > 0) {
				out.append(',');
			}
			out.append(key).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20"));
		});
		return out.toString();
	}

	/**
	 * What is wrong with a headers variable's value: its {@code key=value} syntax, else its
	 * headers; one line each, never a value.
	 */
	public static List<String> headersProblems(String value) {
		Pairs pairs = parsePairs(value);
		return pairs.valid() ? headerProblems(pairs.pairs()) : pairs.problems();
	}

	/**
	 * What is wrong with a set of HTTP headers, one line per header, or an empty list. Names
	 * must be HTTP tokens and values may not break a line; a message names the header, never
	 * its value.
	 */
	public static List<String> headerProblems(Map<String, String> headers) {
		List<String> problems = new ArrayList<>();
		headers.forEach((name, value) -> {
			if (!isToken(name)) {
				problems.add("'" + name + "' is not a valid header name");
			}
			else if (value == null || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
				problems.add("the value of header '" + name + "' contains a line break");
			}
		});
		return problems;
	}

	private static boolean isToken(String name) {
		if (name == null || name.isEmpty()) {
			return false;
		}
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			boolean token = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
					|| "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
			if (!token) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Parsed {@code key=value} pairs.
	 *
	 * @param pairs the pairs in order, empty when there are problems
	 * @param problems one line per malformed entry, never containing a value
	 */
	public record Pairs(Map<String, String> pairs, List<String> problems) {

		public Pairs {
			pairs = Collections.unmodifiableMap(new LinkedHashMap<>(pairs));
			problems = List.copyOf(problems);
		}

		public boolean valid() {
			return this.problems.isEmpty();
		}

		/** Names only: the values may be secrets. */
		@Override
		public String toString() {
			return "Pairs" + this.pairs.keySet() + this.problems;
		}

	}

}
