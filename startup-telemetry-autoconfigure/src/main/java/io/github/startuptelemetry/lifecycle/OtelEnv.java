package io.github.startuptelemetry.lifecycle;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.util.StringUtils;

/**
 * The standard OpenTelemetry environment variables a supervisor hands its servers, and the one
 * reading and writing of their values: both halves (the supervisor that writes them and the
 * server that reads them) must agree, and non-JVM servers read them too.
 * <p>
 * Values may carry secrets (headers are usually bearer tokens, an endpoint may hold
 * credentials), so nothing here ever puts a value into a message.
 */
public final class OtelEnv {

	/** Base URL of an OTLP collector; each signal appends its path ({@code /v1/traces}). */
	public static final String ENDPOINT = "OTEL_EXPORTER_OTLP_ENDPOINT";

	/** Full URL for traces only, used as is. */
	public static final String TRACES_ENDPOINT = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";

	/** {@code key=value} pairs, comma separated, values percent-encoded. */
	public static final String HEADERS = "OTEL_EXPORTER_OTLP_HEADERS";

	/** Headers for traces only; they win over {@link #HEADERS} for the same key. */
	public static final String TRACES_HEADERS = "OTEL_EXPORTER_OTLP_TRACES_HEADERS";

	/** {@code http/protobuf} (the default) or {@code grpc}. */
	public static final String PROTOCOL = "OTEL_EXPORTER_OTLP_PROTOCOL";

	/** The protocol for traces only. */
	public static final String TRACES_PROTOCOL = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL";

	public static final String SERVICE_NAME = "OTEL_SERVICE_NAME";

	/** {@code key=value} pairs, comma separated, values percent-encoded. */
	public static final String RESOURCE_ATTRIBUTES = "OTEL_RESOURCE_ATTRIBUTES";

	/** Path an OTLP/HTTP collector receives traces on, below its base URL. */
	public static final String TRACES_PATH = "/v1/traces";

	public static final String GRPC = "grpc";

	public static final String HTTP_PROTOBUF = "http/protobuf";

	private OtelEnv() {
	}

	/**
	 * What is wrong with an OTLP endpoint, or {@code null} when it is an absolute http(s) URL
	 * with a host. The message never contains the value.
	 */
	public static String endpointProblem(String url) {
		if (url == null || url.isBlank()) {
			return "is empty";
		}
		try {
			URI uri = new URI(url.strip());
			String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
			if (!scheme.equals("http") && !scheme.equals("https")) {
				return "is not an http or https URL";
			}
			if (uri.getHost() == null || uri.getHost().isEmpty()) {
				return "has no host";
			}
			return null;
		}
		catch (URISyntaxException ex) {
			return "is not a valid URL";
		}
	}

	/** The traces URL for a collector's base URL ({@value #TRACES_PATH} appended once). */
	public static String tracesUrl(String baseUrl) {
		String base = baseUrl.strip();
		if (base.endsWith(TRACES_PATH)) {
			return base;
		}
		return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + TRACES_PATH;
	}

	/**
	 * Parse {@code key=value,key=value} (the format of {@link #HEADERS} and
	 * {@link #RESOURCE_ATTRIBUTES}); values are percent-decoded, blanks around entries ignored.
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
