package io.github.startuptelemetry.report.render;

/**
 * Text made safe for HTML element content and quoted attribute values alike: every name and
 * message in a report comes from configuration or from a server, and may hold {@code <>&"'}.
 */
final class HtmlText {

	private HtmlText() {
	}

	static String escape(String text) {
		if (text == null) {
			return "";
		}
		return escape(text, new StringBuilder(text.length() + 16)).toString();
	}

	/** {@code text} escaped onto the end of {@code out} (nothing for {@code null}), for a page built in one piece. */
	static StringBuilder escape(String text, StringBuilder out) {
		if (text == null) {
			return out;
		}
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '&' -> out.append("&amp;");
				case '<' -> out.append("&lt;");
				case '>' -> out.append("&gt;");
				case '"' -> out.append("&quot;");
				case '\'' -> out.append("&#39;");
				case '\n' -> out.append("&#10;");
				case '\r' -> {
				}
				default -> out.append(c);
			}
		}
		return out;
	}

}
