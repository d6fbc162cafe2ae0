package io.github.startuptelemetry.lifecycle.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The one check of a URL the starter sends to (an OTLP or Zipkin endpoint, a server's health or
 * timeline URL): an absolute {@code http} or {@code https} URL with a host. Framework-free. URLs
 * may hold credentials, so no message holds the value.
 */
public final class HttpUrl {

	private HttpUrl() {
	}

	/**
	 * What is wrong with {@code url}, or {@code null} when it is an absolute http(s) URL with a
	 * host (the scheme in any case). Surrounding blanks are not stripped: strip first where they
	 * are allowed.
	 */
	public static String problem(String url) {
		if (url == null || url.isBlank()) {
			return "is empty";
		}
		try {
			URI uri = new URI(url);
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

	/** Whether {@code url} is an absolute http(s) URL with a host. */
	public static boolean isValid(String url) {
		return problem(url) == null;
	}

}
